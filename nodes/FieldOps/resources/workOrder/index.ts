import type { Resource } from '../../operations/operation';
import { create } from './create';
import { deleteWorkOrder } from './delete';
import { get } from './get';
import { getByNumber } from './getByNumber';
import { getByExternalProjectNumber } from './getByExternalProjectNumber';
import { getAll } from './getAll';
import { getAllByExternalProjectNumber } from './getAllByExternalProjectNumber';
import { getAllByNumber } from './getAllByNumber';
import { getByProductionCode } from './getByProductionCode';
import { replace } from './replace';
import { update } from './update';
import { upsert } from './upsert';

export const workOrderResource: Resource = {
	name: 'Work Order',
	value: 'workOrder',
	description: 'Manage work orders of projects',
	what: 'work order',
	operations: [
		create,
		update,
		upsert,
		get,
		getAll,
		getByNumber,
		getByExternalProjectNumber,
		getAllByNumber,
		getAllByExternalProjectNumber,
		getByProductionCode,
		replace,
		deleteWorkOrder,
	],
	defaultOperation: getAll,
};
