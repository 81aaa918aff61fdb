import type { RequestOperation } from '../../operations/operation';
import { employee, ONE_EMPLOYEE, projectCompanyId, userGroupId } from './common';

export const enableInProjectCompany: RequestOperation = {
	name: 'Enable in Project Company',
	value: 'enableInProjectCompany',
	action: 'Enable an employee in a project company',
	description: 'Give the employee access to another company of your structure',
	returns: 'Field Ops’ answer (success: true when it answers nothing)',
	fields: [employee, projectCompanyId, userGroupId],
	request: { method: 'POST', path: `${ONE_EMPLOYEE}/enable-employee-in-project-company` },
};
