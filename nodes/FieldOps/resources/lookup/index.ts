import type { ResourceModule } from '../../shared/types';

/** Not built yet: a resource without properties is left out of the node. */
export const lookupResource: ResourceModule = {
	name: 'Lookup',
	value: 'lookup',
	description: 'Read-only lookups: projects, work orders, resources, files',
	properties: [],
};
