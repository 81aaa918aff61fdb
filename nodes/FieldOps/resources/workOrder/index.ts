import type { ResourceModule } from '../../shared/types';

/** Not built yet: a resource without properties is left out of the node. */
export const workOrderResource: ResourceModule = {
	name: 'Work Order',
	value: 'workOrder',
	description: 'Manage work orders of projects',
	properties: [],
};
