import { notice, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { additionalFields, companyId, machine, machineNumber, ONE_MACHINE } from './common';

export const replace: RequestOperation = {
	name: 'Replace',
	value: 'replace',
	action: 'Replace a machine',
	description: 'Send the complete machine; fields not set are reset',
	fields: [
		machine,
		companyId,
		machineNumber,
		shown(
			on('machine', 'replace'),
			notice(
				'replaceNotice',
				'Replace sends the complete machine (a PUT): every field you do not set here goes back to Field Ops’ default: Active and Is Equipment become off, the other fields empty. To change only some fields, use Update.',
			),
		),
		additionalFields,
	],
	request: { method: 'PUT', path: ONE_MACHINE },
};
