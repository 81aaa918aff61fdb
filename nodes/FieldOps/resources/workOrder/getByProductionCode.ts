import type { RequestOperation } from '../../operations/operation';
import { TASKS, productionCode, LIST } from './common';

export const getByProductionCode: RequestOperation = {
	name: 'Get Many by Production Code',
	value: 'getByProductionCode',
	action: 'List work orders with a production code',
	description: 'List the work orders with a production code (external dimension 1), across projects',
	fields: [productionCode, ...LIST],
	request: { method: 'GET', path: `${TASKS}/by-production-code/{productionCode}`, list: true },
};
