import { requiredField, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';

export const getResource: RequestOperation = {
	name: 'Get Resource',
	value: 'getResource',
	action: 'Look up a resource',
	description: 'Get the details of a resource (machine, equipment or person)',
	fields: [
		shown(
			on('lookup', 'getResource'),
			requiredField(
				'Resource ID',
				'resourceId',
				'string',
				'The ID of the machine, equipment or person',
				{},
				'path',
			),
		),
	],
	request: { method: 'GET', path: '/api/resources/details/{resourceId}' },
};
