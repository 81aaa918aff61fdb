/** What the machine-state operations have in common: their paths and the fields they share. */
import { requiredField, type Field, on, shown } from '../../parameters/field';
import { companyLocator, machineLocator, projectLocator } from '../../parameters/locators';

export const MACHINE_STATES = '/api/external-excavator-state';

const text = (displayName: string, name: string, description: string) =>
	requiredField(displayName, name, 'string', description);

/**
 * The company, project and machine of a record: picked from lists (or By ID, as the fields were typed before; a
 * saved ID stays that ID). The machine-state API takes the core API's IDs (assumptions N9).
 */
export const company = (to: 'body' | 'path') =>
	companyLocator({
		to,
		extra: { description: 'The company the machine works for: your own (leave empty), or a subsidiary' },
	});
export const project = (to: 'body' | 'path') =>
	projectLocator({ to, extra: { name: 'projectId', description: 'The project the machine works on' } });

export const companyId = shown(on('machineState', 'create', 'getAggregated', 'import'), company('body'));
export const projectId = shown(on('machineState', 'create', 'getAggregated', 'import'), project('body'));

/** One machine-state record (spec: Machine-state record): Create sends one, Import one per item. */
const RECORD = on('machineState', 'create', 'import');

export const RECORD_FIELDS: Field[] = [
	companyId,
	projectId,
	shown(RECORD, machineLocator({ to: 'body', extra: { name: 'machineId' } })),
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
