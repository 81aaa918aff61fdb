import type { Resource } from '../../operations/operation';
import { downloadFile } from './downloadFile';
import { getMachineTypes } from './getMachineTypes';
import { getProject } from './getProject';
import { getProjectWorkOrders } from './getProjectWorkOrders';
import { getProjects } from './getProjects';
import { getResource } from './getResource';
import { getResourceTypes } from './getResourceTypes';
import { searchProjects } from './searchProjects';

export const lookupResource: Resource = {
	name: 'Lookup',
	value: 'lookup',
	description: 'Read-only lookups: projects, work orders, resources, machine types, files',
	what: 'record',
	operations: [
		getProjects,
		searchProjects,
		getProject,
		getProjectWorkOrders,
		downloadFile,
		getMachineTypes,
		getResource,
		getResourceTypes,
	],
	defaultOperation: getProjects,
};
