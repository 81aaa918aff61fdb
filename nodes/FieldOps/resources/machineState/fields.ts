import { requiredField, type Field } from '../../shared/fields';
import { on, shown } from '../../shared/display';

export const MACHINE_STATES = '/api/external-excavator-state';

const text = (displayName: string, name: string, description: string) =>
	requiredField(displayName, name, 'string', description);

export const companyId = shown(
	on('machineState', 'create', 'getAggregated', 'import'),
	text('Company ID', 'companyId', 'ID of the company the machine works for'),
);
export const projectId = shown(
	on('machineState', 'create', 'getAggregated', 'import'),
	text('Project ID', 'projectId', 'ID of the project the machine works on'),
);

/** One machine-state record (spec: Machine-state record): Create sends one, Import one per item. */
const RECORD = on('machineState', 'create', 'import');

export const RECORD_FIELDS: Field[] = [
	companyId,
	projectId,
	shown(RECORD, text('Machine ID', 'machineId', 'ID of the machine (in Field Ops)')),
	shown(
		RECORD,
		text(
			'State',
			'state',
			'The machine’s state during this period, as your machine system names it (e.g. working, idle, off)',
		),
	),
	shown(RECORD, requiredField('Start Time', 'startTime', 'dateTime', 'When the state began')),
	shown(
		RECORD,
		requiredField('End Time', 'endTime', 'dateTime', 'When the state ended (not before the start)'),
	),
];
