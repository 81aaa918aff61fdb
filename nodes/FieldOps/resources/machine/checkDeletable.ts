import type { RequestOperation } from '../../shared/operation';
import { machine, MACHINES } from './fields';

export const checkDeletable: RequestOperation = {
	name: 'Check Deletable',
	value: 'checkDeletable',
	action: 'Check whether a machine can be deleted',
	description: 'Answers whether the machine can be deleted (a machine with linked equipment cannot)',
	fields: [machine],
	request: {
		method: 'GET',
		path: `${MACHINES}/is-machine-deletable/{machine}`,
		// The API answers a bare true/false: name it, so the next node can test `deletable`.
		output: (body, item) => [
			{
				machine: (item.param<{ value?: string }>('machine')?.value ?? '') as string,
				deletable: body === true,
			},
		],
	},
};
