import type { RequestOperation } from '../../operations/operation';
import { includeEquipment, MACHINES, LIST } from './common';

export const getAll: RequestOperation = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many machines',
	description: 'List the machines and equipment of your company',
	fields: [includeEquipment, ...LIST],
	request: { method: 'GET', path: MACHINES, list: true },
};
