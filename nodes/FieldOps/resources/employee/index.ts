import type { Resource } from '../../operations/operation';
import { changeEmployeeNumber } from './changeEmployeeNumber';
import { changePhoneNumber } from './changePhoneNumber';
import { checkDeletable } from './checkDeletable';
import { create } from './create';
import { createEmployment } from './createEmployment';
import { deleteEmployee } from './delete';
import { disable } from './disable';
import { enable } from './enable';
import { endEmployment } from './endEmployment';
import { get } from './get';
import { getAll } from './getAll';
import { disableInProjectCompany } from './disableInProjectCompany';
import { enableInProjectCompany } from './enableInProjectCompany';
import { replace } from './replace';
import { search } from './search';
import { setTags } from './setTags';
import { update } from './update';
import { updateEmployment } from './updateEmployment';
import { upsert } from './upsert';

export const employeeResource: Resource = {
	name: 'Employee',
	value: 'employee',
	description: 'Manage employees (v5): profiles, employments, tags',
	what: 'employee',
	operations: [
		create,
		update,
		upsert,
		get,
		getAll,
		search,
		setTags,
		createEmployment,
		updateEmployment,
		endEmployment,
		changePhoneNumber,
		changeEmployeeNumber,
		enable,
		disable,
		enableInProjectCompany,
		disableInProjectCompany,
		replace,
		checkDeletable,
		deleteEmployee,
	],
	defaultOperation: get,
};
