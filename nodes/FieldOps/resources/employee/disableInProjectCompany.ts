import type { RequestOperation } from '../../operations/operation';
import { employee, ONE_EMPLOYEE, projectCompanyId } from './common';

export const disableInProjectCompany: RequestOperation = {
	name: 'Disable in Project Company',
	value: 'disableInProjectCompany',
	action: 'Disable an employee in a project company',
	description: 'Remove the employee from one company of your structure',
	returns: 'Field Ops’ answer (success: true when it answers nothing)',
	fields: [employee, projectCompanyId],
	request: { method: 'POST', path: `${ONE_EMPLOYEE}/disable-employee-in-project-company` },
};
