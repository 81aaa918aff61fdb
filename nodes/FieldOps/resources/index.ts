import type { Resource } from '../shared/operation';
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

/** Every resource of the Field Ops node, in the order of the Resource list. */
export const RESOURCES: Resource[] = [
	certificateResource,
	documentResource,
	employeeResource,
	lookupResource,
	machineResource,
	machineStateResource,
	projectResource,
	reportResource,
	userResource,
	workOrderResource,
];
