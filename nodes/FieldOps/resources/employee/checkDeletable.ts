import type { RequestOperation } from '../../operations/operation';
import { ONE_EMPLOYEE, employee } from './common';

export const checkDeletable: RequestOperation = {
	name: 'Check Deletable',
	value: 'checkDeletable',
	action: 'Check whether an employee can be deleted',
	description: 'Answers isDeletable and, when not, the reasons in validationErrors',
	returns: 'isDeletable, and the reasons in validationErrors when it is false',
	fields: [employee],
	request: { method: 'GET', path: `${ONE_EMPLOYEE}/deletable` },
};
