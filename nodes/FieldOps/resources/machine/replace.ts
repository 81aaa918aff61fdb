import { notice } from '../../shared/fields';
import type { RequestOperation } from '../../shared/operation';
import { additionalFields, companyId, machine, machineNumber, ONE_MACHINE } from './fields';

export const replace: RequestOperation = {
	name: 'Replace',
	value: 'replace',
	action: 'Replace a machine',
	description: 'Send the complete machine; fields not set are reset',
	fields: [
		machine,
		companyId,
		machineNumber,
		notice(
			'replaceNotice',
			'Replace sends the complete machine: every field you do not set here is reset. To change only some fields, use Update.',
		),
		additionalFields,
	],
	request: { method: 'PUT', path: ONE_MACHINE },
};
