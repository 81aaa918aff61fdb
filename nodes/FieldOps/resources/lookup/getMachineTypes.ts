import type { RequestOperation } from '../../operations/operation';

export const getMachineTypes: RequestOperation = {
	name: 'Get Machine Types',
	value: 'getMachineTypes',
	action: 'Get the machine types',
	description: 'List the machine types configured for your company',
	returns: 'one item per machine type, with its typeId',
	fields: [],
	request: { method: 'GET', path: '/api/MachineType' },
};
