import type { Resource } from '../../shared/operation';
import { REPORT_FEEDS } from '../../shared/reports';
import { exportOperation } from './export';

const operations = REPORT_FEEDS.map(exportOperation);

/** One operation per reporting export, each defined by its row of the feeds table (shared/reports.ts). */
export const reportResource: Resource = {
	name: 'Report',
	value: 'report',
	description: 'Export reporting data: time, absence, payroll, machines, images, checklists, incidents',
	what: 'report',
	operations,
	defaultOperation: operations.find((operation) => operation.value === 'timeRegistrations') ?? operations[0],
	operationLabel: 'Report',
};
