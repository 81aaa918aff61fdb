import type { ResourceModule } from '../../shared/types';

/** Not built yet: a resource without properties is left out of the node. */
export const machineStateResource: ResourceModule = {
	name: 'Machine State',
	value: 'machineState',
	description: 'Send and read machine-state records (machine-state API)',
	properties: [],
};
