/** What the lookup operations have in common: the fields they share. */
import { type Field, on, shown } from '../../parameters/field';
import { projectLocator } from '../../parameters/locators';
import { resolveLookupProject } from '../../lookups/projects';
import { listFields } from '../../parameters/limits';

/** A lookup route's project: a number is found among the lookup routes' own projects (their ID, see L2). */
export const project = shown(
	on('lookup', 'getProject', 'getProjectWorkOrders'),
	projectLocator({ as: 'projId', resolve: resolveLookupProject }),
);

/** Active by default; `activeInactiveAll` 1 = only inactive, 2 = all (spec: Read-only lookups). */
export const activeInactiveAll: Field = shown(on('lookup', 'getProjectWorkOrders', 'getProjects'), {
	property: {
		displayName: 'Status',
		name: 'activeInactiveAll',
		type: 'options',
		default: 0,
		options: [
			{ name: 'Active', value: 0 },
			{ name: 'All', value: 2 },
			{ name: 'Inactive', value: 1 },
		],
		description: 'Which ones to list',
	},
	to: 'query',
	value: (raw) => (raw === 0 ? undefined : raw),
});

/** Return All and Limit of the lists. */
export const LIST = listFields(on('lookup', 'getProjectWorkOrders', 'getProjects', 'searchProjects'));
