import { requiredField, type Field } from '../../shared/fields';

export const MACHINE_STATES = '/api/external-excavator-state';

const text = (displayName: string, name: string, description: string) =>
	requiredField(displayName, name, 'string', description);

export const companyId = text('Company ID', 'companyId', 'ID of the company the machine works for');
export const projectId = text('Project ID', 'projectId', 'ID of the project the machine works on');

/** One machine-state record (spec: Machine-state record): Create sends one, Import one per item. */
export const RECORD_FIELDS: Field[] = [
	companyId,
	projectId,
	text('Machine ID', 'machineId', 'ID of the machine (in Field Ops)'),
	text(
		'State',
		'state',
		'The machine’s state during this period, as your machine system names it (e.g. working, idle, off)',
	),
	requiredField('Start Time', 'startTime', 'dateTime', 'When the state began'),
	requiredField('End Time', 'endTime', 'dateTime', 'When the state ended (not before the start)'),
];
