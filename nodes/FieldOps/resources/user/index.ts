import type { ResourceModule } from '../../shared/types';

/** Not built yet: a resource without properties is left out of the node. */
export const userResource: ResourceModule = {
	name: 'User (Legacy)',
	value: 'user',
	description: 'Manage users with the legacy v4 API (use Employee for new integrations)',
	properties: [],
};
