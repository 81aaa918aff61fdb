import type { RequestOperation } from '../../operations/operation';
import { TASKS, externalProjectNumber, workOrderExternalId } from './common';

export const getByExternalProjectNumber: RequestOperation = {
	name: 'Get by External Project Number and External ID',
	value: 'getByExternalProjectNumber',
	action: 'Find a work order by your own system’s numbers',
	description: 'Get one work order using only numbers from your own system',
	fields: [externalProjectNumber, workOrderExternalId],
	request: {
		method: 'GET',
		path: `${TASKS}/by-external-project-number/{externalProjectNumber}/by-external-id/{workOrderExternalId}`,
	},
};
