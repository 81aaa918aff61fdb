import { REPORT_FEEDS } from '../../shared/reports';
import type { ResourceModule } from '../../shared/types';
import { reportProperties } from './description';
import { exportReport } from './execute';

export const reportResource: ResourceModule = {
	name: 'Report',
	value: 'report',
	description: 'Export reporting data: time, absence, payroll, machines, images, checklists, incidents',
	properties: reportProperties,
	customOperations: Object.fromEntries(REPORT_FEEDS.map((feed) => [feed.value, exportReport(feed)])),
};
