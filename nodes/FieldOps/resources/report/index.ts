import type { Resource } from '../../operations/operation';
import { REPORT_FEEDS } from '../../reporting/feeds';
import { exportOperation } from './export';
import { PERIODS, type PeriodName } from './period';

const operations = REPORT_FEEDS.map(exportOperation);

/** `$now` in the report's Time Zone (the workflow's unless another is chosen), as the editor evaluates it. */
const NOW = `(typeof $parameter["timeZone"] === "string" && $now.setZone($parameter["timeZone"]).isValid ? $now.setZone($parameter["timeZone"]) : $now)`;
/** "16–22 Nov 2026", "27 Oct – 2 Nov 2026", "29 Dec 2025 – 4 Jan 2026" (Luxon, weeks start on Monday). */
function span(start: string, end: string): string {
	const [from, to] = [`${NOW}${start}`, `${NOW}${end}`];
	return `(${from}.hasSame(${to}, "month") ? ${from}.toFormat("d") + "–" : ${from}.hasSame(${to}, "year") ? ${from}.toFormat("d LLL") + " – " : ${from}.toFormat("d LLL yyyy") + " – ") + ${to}.toFormat("d LLL yyyy")`;
}
/** Each named period's days in words, for the subtitle: the dates a run will read, before it runs. */
const PERIOD_DAYS: Record<Exclude<PeriodName, 'custom'>, string> = {
	today: `${NOW}.toFormat("d LLL yyyy")`,
	yesterday: `${NOW}.minus({ days: 1 }).toFormat("d LLL yyyy")`,
	thisWeek: span('.startOf("week")', '.endOf("week")'),
	lastWeek: span('.minus({ weeks: 1 }).startOf("week")', '.minus({ weeks: 1 }).endOf("week")'),
	thisMonth: `${NOW}.toFormat("LLLL yyyy")`,
	lastMonth: `${NOW}.minus({ months: 1 }).toFormat("LLLL yyyy")`,
};
const periodText = Object.entries(PERIOD_DAYS)
	.map(
		([period, days]) =>
			`$parameter["period"] === "${period}" ? "${PERIODS[period as PeriodName]}, " + ${days} : `,
	)
	.join('');

/**
 * What a Report node will read, on the canvas without opening it, its days first (the canvas shows about 30
 * characters): "Last Week, 16–22 Nov 2026 · all" (a new node's defaults, in its time zone), "Changed Since ·
 * first 50". The node's name says which report.
 */
const SUBTITLE = `($parameter["syncMode"] === "modifiedSince" || $parameter["listMode"] === "modifiedSince" ? "Changed Since" : $parameter["listMode"] ? "All Records" : ${periodText}"From–To") + " · " + ($parameter["returnAll"] ? "all" : "first " + $parameter["limit"])`;

/** One operation per reporting export, each defined by its row of the feeds table (reporting/feeds.ts). */
export const reportResource: Resource = {
	name: 'Report',
	value: 'report',
	description: 'Export reporting data: time, absence, payroll, machines, images, checklists, incidents',
	what: 'report',
	operations,
	defaultOperation: operations.find((operation) => operation.value === 'timeRegistrations') ?? operations[0],
	operationLabel: 'Report',
	subtitle: SUBTITLE,
};
