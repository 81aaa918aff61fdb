import type { ResourceModule } from '../../shared/types';

/** Not built yet: a resource without properties is left out of the node. */
export const reportResource: ResourceModule = {
	name: 'Report',
	value: 'report',
	description: 'Export reporting data: time, absence, payroll, machines, images, checklists, incidents',
	properties: [],
};
