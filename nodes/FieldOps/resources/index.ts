import type { Resource } from '../operations/operation';
import { certificateResource } from './certificate';
import { documentResource } from './document';
import { employeeResource } from './employee';
import { lookupResource } from './lookup';
import { machineResource } from './machine';
import { machineStateResource } from './machineState';
import { projectResource } from './project';
import { reportResource } from './report';
import { userResource } from './user';
import { workOrderResource } from './workOrder';

/**
 * Every resource of the Field Ops node, in the order of the Resource list and of the node creator's actions: what a
 * site office uses most first (work orders and reports), the read-only lookups last. Each resource lists its own
 * operations so too (create, update, get, list first).
 */
export const RESOURCES: Resource[] = [
	workOrderResource,
	reportResource,
	projectResource,
	documentResource,
	employeeResource,
	machineResource,
	machineStateResource,
	certificateResource,
	userResource,
	lookupResource,
];
