import type { RequestOperation } from '../../operations/operation';
import { TASKS, externalProjectNumber, LIST } from './common';

export const getAllByExternalProjectNumber: RequestOperation = {
	name: 'Get Many by External Project Number',
	value: 'getAllByExternalProjectNumber',
	action: 'List work orders by your own project number',
	description: 'List the work orders of the project(s) with this project number from your own system',
	fields: [externalProjectNumber, ...LIST],
	request: { method: 'GET', path: `${TASKS}/by-external-project-number/{externalProjectNumber}`, list: true },
};
