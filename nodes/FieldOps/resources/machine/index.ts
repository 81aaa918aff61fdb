import type { ResourceModule } from '../../shared/types';

/** Not built yet: a resource without properties is left out of the node. */
export const machineResource: ResourceModule = {
	name: 'Machine',
	value: 'machine',
	description: 'Manage machines and equipment',
	properties: [],
};
