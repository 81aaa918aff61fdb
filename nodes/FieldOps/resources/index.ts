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

/**
 * The jobs users come for, first among the node creator's actions (`resource:operation`); one that does not exist
 * (yet) is left out until it does.
 */
export const EVERYDAY = ['report:timeRegistrations', 'document:upload', 'employee:upsert'];

/**
 * What both nodes say of themselves. n8n's node creator shows Field Ops and the Field Ops Trigger as one card,
 * described by the trigger's description: both say the same, so the card says what the node does, whether a
 * workflow is started or an action added.
 */
export const DESCRIPTION =
	'Export hours and reports, upload documents, manage projects, work orders, machines and employees, or start a workflow when records change in Field Ops';
