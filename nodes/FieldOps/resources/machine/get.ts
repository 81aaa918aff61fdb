import type { RequestOperation } from '../../operations/operation';
import { includeEquipment, machine, ONE_MACHINE } from './common';

export const get: RequestOperation = {
	name: 'Get',
	value: 'get',
	action: 'Get a machine',
	description: 'Get one machine by ID or machine number',
	fields: [machine, includeEquipment],
	request: { method: 'GET', path: ONE_MACHINE },
};
