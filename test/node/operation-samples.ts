import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { REPORT_FEEDS } from '../../nodes/FieldOps/reporting/feeds';
import type { RunningSandbox } from '../helpers/sandbox';

export interface Sample {
	parameters: INodeParameters;
	items?: INodeExecutionData[];
}

const rl = (mode: string, value: string) => ({ __rl: true, mode, value });
const DAY = '2026-11-16T07:00:00';
const file = {
	data: Buffer.from('%PDF-1 sample').toString('base64'),
	mimeType: 'application/pdf',
	fileName: 'sample.pdf',
};

/**
 * Parameters that run each operation once against a freshly seeded sandbox, so the request it sends can be
 * compared with the path it declares. The answer may be an error (a document that does not exist): what matters
 * is the URL the sandbox receives.
 */
export function operationSamples(sb: RunningSandbox): Record<string, Sample> {
	const client = sb.clients[0];
	const companyId = client.companyId;
	const world = sb.sandbox.world;
	const project = [...world.projects.values()].find((p) => p.companyId === companyId)!;
	const task = [...world.tasks.values()].find((t) => t.projectId === project.id)!;
	const machine = [...world.machines.values()].find((m) => m.companyId === companyId)!;
	const person = [...world.people.values()].find((p) => p.companyId === companyId)!;
	const employee = rl('employeeNumber', person.employeeNumber);
	const user = rl('employeeNumber', person.employeeNumber);
	const report = (operation: string): [string, Sample] => [
		`report.${operation}`,
		{ parameters: { operation, returnAll: false, limit: 1 } },
	];
	return {
		'certificate.upsert': {
			parameters: {
				employeeNumber: person.employeeNumber,
				certificateType: 'Fallsikring',
				issuedDateTime: '2025-01-01',
				validUntilDateTime: '2027-01-01',
			},
		},
		'document.delete': { parameters: { project: rl('id', project.id), fileReferenceId: 'no-such-file' } },
		'document.download': { parameters: { project: rl('id', project.id), fileReferenceId: 'no-such-file' } },
		'document.list': { parameters: { project: rl('id', project.id) } },
		'document.upload': {
			parameters: { project: rl('id', project.id) },
			items: [{ json: {}, binary: { data: file } }],
		},
		'employee.changeEmployeeNumber': {
			parameters: { employee, newEmployeeNumber: `${person.employeeNumber}-N` },
		},
		'employee.changePhoneNumber': { parameters: { employee, newPhoneNumber: '+4799999999' } },
		'employee.checkDeletable': { parameters: { employee } },
		'employee.create': {
			parameters: {
				employeeNumber: 'S-1',
				firstName: 'Sample',
				lastName: 'Person',
				phone: '+4790000001',
				birthDate: '1990-01-01',
				employment: { details: { startDate: '2026-01-01' } },
			},
		},
		'employee.createEmployment': {
			parameters: { employee, employment: { details: { startDate: '2027-01-01' } } },
		},
		'employee.delete': { parameters: { employee } },
		'employee.disable': { parameters: { employee } },
		'employee.disableInProjectCompany': { parameters: { employee, projectCompanyId: companyId } },
		'employee.enable': { parameters: { employee } },
		'employee.enableInProjectCompany': { parameters: { employee, projectCompanyId: companyId } },
		'employee.endEmployment': { parameters: { employee, endDate: '2027-01-01' } },
		'employee.get': { parameters: { employee } },
		'employee.getAll': { parameters: { returnAll: true } },
		'employee.replace': {
			parameters: {
				employee,
				firstName: 'A',
				lastName: 'B',
				phone: String(person.phone),
				birthDate: '1990-01-01',
			},
		},
		'employee.search': { parameters: { query: person.lastName, returnAll: true } },
		'employee.setTags': { parameters: { employee, tags: { assignment: [{ tagName: 'Førstehjelp' }] } } },
		'employee.update': { parameters: { employee, updateFields: { workTitle: 'Foreman' } } },
		'employee.updateEmployment': { parameters: { employee, employmentUpdate: { department: 'Nord' } } },
		'employee.upsert': {
			parameters: { employeeNumber: person.employeeNumber, additionalFields: { workTitle: 'Foreman' } },
		},
		'lookup.downloadFile': { parameters: { fileReferenceId: 'no-such-file' } },
		'lookup.getMachineTypes': { parameters: {} },
		'lookup.getProject': { parameters: { project: rl('id', project.id) } },
		'lookup.getProjectWorkOrders': { parameters: { project: rl('id', project.id), returnAll: true } },
		'lookup.getProjects': { parameters: { returnAll: true } },
		'lookup.getResource': { parameters: { resourceId: machine.id } },
		'lookup.getResourceTypes': { parameters: {} },
		'lookup.searchProjects': { parameters: { searchString: project.projectNumber, returnAll: true } },
		'machine.checkDeletable': { parameters: { machine: rl('id', machine.id) } },
		'machine.create': { parameters: { companyId, machineNumber: 'S-M1' } },
		'machine.createMany': { parameters: { companyId, machineNumber: 'S-M2' } },
		'machine.delete': { parameters: { machine: rl('id', machine.id) } },
		'machine.get': { parameters: { machine: rl('id', machine.id) } },
		'machine.getAll': { parameters: { returnAll: true } },
		'machine.replace': {
			parameters: { machine: rl('id', machine.id), companyId, machineNumber: machine.machineNumber },
		},
		'machine.update': { parameters: { machine: rl('id', machine.id), updateFields: { note: 'x' } } },
		'machine.updateEsg': { parameters: { machine: rl('id', machine.id), esgFields: { fuelType: 1 } } },
		'machine.updateMany': { parameters: { machine: rl('id', machine.id), updateFields: { note: 'y' } } },
		'machine.upsert': {
			parameters: { machineNumber: machine.machineNumber, additionalFields: { note: 'z' } },
		},
		'machineState.create': {
			parameters: {
				companyId,
				projectId: project.id,
				machineId: machine.id,
				state: 'working',
				startTime: DAY,
				endTime: '2026-11-16T08:00:00',
			},
		},
		'machineState.getAggregated': { parameters: { companyId, projectId: project.id } },
		'machineState.getLatestTimestamp': { parameters: { companyId, projectId: project.id } },
		'machineState.import': {
			parameters: {
				companyId,
				projectId: project.id,
				machineId: machine.id,
				state: 'idle',
				startTime: DAY,
				endTime: '2026-11-16T09:00:00',
			},
		},
		'project.create': { parameters: { companyId, projectNumber: 'S-P1' } },
		'project.delete': { parameters: { project: rl('id', project.id) } },
		'project.get': { parameters: { project: rl('id', project.id) } },
		'project.getAll': { parameters: { returnAll: true } },
		'project.replace': {
			parameters: { project: rl('id', project.id), companyId, projectNumber: project.projectNumber },
		},
		'project.update': { parameters: { project: rl('id', project.id), updateFields: { description: 'x' } } },
		'project.upsert': {
			parameters: { projectNumber: project.projectNumber, additionalFields: { description: 'y' } },
		},
		...Object.fromEntries(REPORT_FEEDS.map((feed) => report(feed.value))),
		'user.checkDeletable': { parameters: { user } },
		'user.create': {
			parameters: {
				companyId,
				employeeNumber: 'S-U1',
				firstName: 'Sample',
				lastName: 'User',
				mobileWork: '+4790000002',
				birthDate: '1990-01-01',
				employmentStartDate: '2026-01-01',
			},
		},
		'user.delete': { parameters: { user } },
		'user.disable': { parameters: { user: rl('profileId', person.companyProfileId) } },
		'user.enable': { parameters: { user: rl('profileId', person.companyProfileId) } },
		'user.get': { parameters: { user } },
		'user.getAll': { parameters: { returnAll: true } },
		'user.replace': {
			parameters: {
				user,
				companyId,
				employeeNumber: person.employeeNumber,
				firstName: 'A',
				lastName: 'B',
				mobileWork: person.phone,
				birthDate: '1990-01-01',
				employmentStartDate: '2026-01-01',
			},
		},
		'user.update': {
			parameters: { user: rl('profileId', person.companyProfileId), updateFields: { workTitle: 'x' } },
		},
		'user.upsert': {
			parameters: { employeeNumber: person.employeeNumber, additionalFields: { workTitle: 'y' } },
		},
		'workOrder.create': { parameters: { project: rl('id', project.id), externalId: 'S-W1', name: 'Sample' } },
		'workOrder.delete': { parameters: { project: rl('id', project.id), workOrder: rl('id', task.id) } },
		'workOrder.get': { parameters: { project: rl('id', project.id), workOrder: rl('id', task.id) } },
		'workOrder.getAll': { parameters: { project: rl('id', project.id), returnAll: true } },
		'workOrder.getAllByExternalProjectNumber': {
			parameters: { externalProjectNumber: 'ERP-1', returnAll: true },
		},
		'workOrder.getAllByNumber': {
			parameters: { projectNumber: project.projectNumber, workOrderNumber: task.externalId, returnAll: true },
		},
		'workOrder.getByExternalProjectNumber': {
			parameters: { externalProjectNumber: 'ERP-1', workOrderExternalId: task.externalId },
		},
		'workOrder.getByNumber': {
			parameters: { projectNumber: project.projectNumber, workOrderNumber: task.externalId },
		},
		'workOrder.getByProductionCode': { parameters: { productionCode: 'PC-1', returnAll: true } },
		'workOrder.replace': {
			parameters: {
				project: rl('id', project.id),
				workOrder: rl('id', task.id),
				externalId: task.externalId,
				name: 'Sample',
			},
		},
		'workOrder.update': {
			parameters: {
				project: rl('id', project.id),
				workOrder: rl('id', task.id),
				updateFields: { name: 'x' },
			},
		},
		'workOrder.upsert': {
			parameters: {
				projectNumber: project.projectNumber,
				workOrderNumber: task.externalId,
				additionalFields: { workDescriptionShort: 'Sample' },
			},
		},
	};
}
