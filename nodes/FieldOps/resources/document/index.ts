import type { ResourceModule } from '../../shared/types';

/** Not built yet: a resource without properties is left out of the node. */
export const documentResource: ResourceModule = {
	name: 'Document',
	value: 'document',
	description: 'Upload, list, download and delete documents of projects and work orders',
	properties: [],
};
