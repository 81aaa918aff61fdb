import type { Resource } from '../../operations/operation';
import { REPORT_FEEDS } from '../../reporting/feeds';
import { exportOperation } from './export';
import { PERIODS } from './period';

const operations = REPORT_FEEDS.map(exportOperation);

/**
 * What a Report node will read, on the canvas without opening it: " · Last Week · first 50" (a new node's
 * defaults), " · Changed Since · all".
 */
const SUBTITLE = `" · " + ($parameter["syncMode"] === "modifiedSince" || $parameter["listMode"] === "modifiedSince" ? "Changed Since" : $parameter["listMode"] ? "All Records" : (${JSON.stringify({ ...PERIODS, custom: 'From–To' })})[$parameter["period"]] || "From–To") + " · " + ($parameter["returnAll"] ? "all" : "first " + $parameter["limit"])`;

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
