import type { ResourceModule } from '../../shared/types';

/** Not built yet: a resource without properties is left out of the node. */
export const employeeResource: ResourceModule = {
	name: 'Employee',
	value: 'employee',
	description: 'Manage employees (v5): profiles, employments, tags',
	properties: [],
};
