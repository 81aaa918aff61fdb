import type { INodeProperties } from 'n8n-workflow';

import { before, since, type Field } from '../../parameters/field';
import { WORKFLOW_ZONE } from '../../parameters/zones';
import { PERIODS, type PeriodName } from './period';

/** Which records of a report: a period (or From/To), or those changed since a moment; the time zone of its dates. */

const field = (property: INodeProperties): Field => ({ property });

const syncMode = field({
	displayName: 'Records',
	name: 'syncMode',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Of a Period',
			value: 'window',
			description:
				'Records of a period: last week, this month, or your own dates (full export, ordered by date; deleted records are not reported)',
		},
		{
			name: 'Changed Since',
			value: 'modifiedSince',
			description:
				'Records created, changed (or, where the report says so, deleted) since a moment, ordered by change time',
		},
	],
	default: 'window',
});

const listMode = field({
	displayName: 'Records',
	name: 'listMode',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'All', value: 'all', description: 'Every record of the list' },
		{
			name: 'Changed Since',
			value: 'modifiedSince',
			description: 'Records created or changed since a moment',
		},
	],
	default: 'all',
});

const PERIOD_DESCRIPTION =
	'Whole days in the Time Zone below; weeks run Monday to Sunday. Records that carry their work day (time, payroll, absence) belong to that day wherever n8n runs.';
const periodOptions = (Object.keys(PERIODS) as PeriodName[]).map((value) => ({
	name: PERIODS[value],
	value,
	description:
		value === 'custom'
			? 'From and To below'
			: value === 'lastWeek'
				? 'Monday to Sunday of the week before this one'
				: undefined,
}));
/**
 * Period: Last Week for nodes added from version 1.2; nodes saved before it (1, 1.1) have no value stored and keep
 * their From/To (Custom), so a saved workflow reads exactly the window it always read.
 */
const periods: Field[] = [
	field({
		displayName: 'Period',
		name: 'period',
		type: 'options',
		noDataExpression: true,
		options: periodOptions,
		default: 'custom',
		displayOptions: { show: { syncMode: ['window'], '@version': [1, 1.1] } },
		description: PERIOD_DESCRIPTION,
	}),
	field({
		displayName: 'Period',
		name: 'period',
		type: 'options',
		noDataExpression: true,
		options: periodOptions,
		default: 'lastWeek',
		displayOptions: { show: { syncMode: ['window'], '@version': [{ _cnd: { gte: 1.2 } }] } },
		description: PERIOD_DESCRIPTION,
	}),
];

const ZONE_TEXT =
	"The time zone the period's days and weeks are counted in, dates typed without a zone are read in, and Simplify shows times in. By default this workflow's time zone (set it under Workflow Settings → Timezone; n8n's own default is America/New_York). Write another as Region/City, e.g. Europe/Oslo.";
/**
 * The zone of the period's days, of dates typed without a zone, and of Simplify's times. Nodes saved before 1.3
 * keep their text field (an expression for the workflow's zone by default); from 1.3 it is a choice whose first
 * entry is the workflow's zone by name, so nobody reads an expression (methods: getTimeZones).
 */
export const timeZones: Field[] = [
	field({
		displayName: 'Time Zone',
		name: 'timeZone',
		type: 'string',
		default: '={{ $now.zoneName }}',
		placeholder: 'e.g. Europe/Oslo',
		displayOptions: { show: before(1.3) },
		description: ZONE_TEXT,
	}),
	field({
		displayName: 'Time Zone Name or ID',
		name: 'timeZone',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTimeZones' },
		default: WORKFLOW_ZONE,
		displayOptions: { show: since(1.3) },
		description:
			'The time zone the period’s days and weeks are counted in, dates typed without a zone are read in, and Simplify shows times in: by default this workflow’s (Workflow Settings → Timezone). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
];

const inWindow = { show: { syncMode: ['window'], period: ['custom'] } };
// Both ends optional: the spec lists FromDateTime and ToDateTime as filters, neither as required.
const from = field({
	displayName: 'From',
	name: 'fromDateTime',
	type: 'dateTime',
	default: '={{ $today.minus({ days: 7 }).toISO() }}',
	displayOptions: inWindow,
	description:
		'Start of the window (inclusive); empty for no start. A date without a zone is in the Time Zone below. The default is seven days ago.',
});
const to = field({
	displayName: 'To',
	name: 'toDateTime',
	type: 'dateTime',
	default: '={{ $today.toISO() }}',
	displayOptions: inWindow,
	description: 'End of the window; empty for no end. The default is the start of today.',
});
/** The same date window, optional, alongside Modified Since: the spec lists all four filters together. */
const inChanges = { show: { syncMode: ['modifiedSince'] } };
const datedWindow = [
	field({
		displayName: 'Dated From',
		name: 'datedFrom',
		type: 'dateTime',
		default: '',
		displayOptions: inChanges,
		description: 'Optional: of the changed records, only those dated at or after this moment (FromDateTime)',
	}),
	field({
		displayName: 'Dated To',
		name: 'datedTo',
		type: 'dateTime',
		default: '',
		displayOptions: inChanges,
		description: 'Optional: of the changed records, only those dated up to this moment (ToDateTime)',
	}),
];

/** Modified Since / Before, shown when the report's mode parameter asks for changes. */
const changeWindow = (modeParameter: 'syncMode' | 'listMode'): Field[] => [
	field({
		displayName: 'Modified Since',
		name: 'modifiedSince',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: { show: { [modeParameter]: ['modifiedSince'] } },
		description: 'Only records created or changed at or after this moment',
	}),
	field({
		displayName: 'Modified Before',
		name: 'modifiedBefore',
		type: 'dateTime',
		default: '',
		displayOptions: { show: { [modeParameter]: ['modifiedSince'] } },
		description: 'Optional end of the change window; must be later than Modified Since',
	}),
];

export const windowFields = [syncMode, ...periods, from, to, ...changeWindow('syncMode'), ...datedWindow];
export const listFields = [listMode, ...changeWindow('listMode')];
