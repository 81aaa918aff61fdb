/** What the document operations have in common: their paths and the fields they share. */
import { requiredField, type Field, on, shown } from '../../parameters/field';
import type { PathParam } from '../../transport/transport';
import type { Item } from '../../items/items';
import { projectLocator, workOrderLocator } from '../../parameters/locators';
import { timeoutField } from '../../parameters/limits';

export const PROJECT_DOCUMENTS = '/api/v4/integration/projects/{project}/documents';
export const WORK_ORDER_DOCUMENTS = '/api/v4/integration/tasks/{workOrder}/documents';

export const target: Field = {
	property: {
		displayName: 'Attach To',
		name: 'documentTarget',
		type: 'options',
		options: [
			{ name: 'Project', value: 'project' },
			{
				name: 'Work Order',
				value: 'workOrder',
				description:
					'Documents land in the project’s folder, by default in a section Field Ops names after the work order',
			},
		],
		default: 'project',
	},
};
const project = projectLocator({ to: 'none' });
const workOrder = workOrderLocator({
	to: 'none',
	extra: { displayOptions: { show: { documentTarget: ['workOrder'] } } },
});

/** The fields that choose where the documents are: a project, or a work order of a project. */
export const TARGET_FIELDS = [target, project, workOrder].map((field) =>
	shown(on('document', 'delete', 'download', 'list', 'upload'), field),
);

/** The documents path of the item's project or work order, with its resolved ID. */
export async function documentsOf(item: Item): Promise<{ path: string; params: Record<string, PathParam> }> {
	const onWorkOrder = item.param('documentTarget') === 'workOrder';
	const [field, path] = onWorkOrder ? [workOrder, WORK_ORDER_DOCUMENTS] : [project, PROJECT_DOCUMENTS];
	const id = await field.value?.(item.param(field.property.name), item);
	return { path, params: { [field.property.name]: { label: field.property.displayName, value: id } } };
}

/** One parameter for both file operations, so its value survives a switch between them. */
export const fileTimeout = shown(on('document', 'download', 'upload'), timeoutField);

export const fileReferenceId = shown(
	on('document', 'delete', 'download'),
	requiredField(
		'File Reference ID',
		'fileReferenceId',
		'string',
		'The ID of the document (fileReference.ID of an upload, or fileReferenceId from List)',
		{},
		'path',
	),
);

export const DOCUMENT_REQUESTS = (method: 'GET' | 'DELETE' | 'POST', suffix = '') => [
	{ method, path: `${PROJECT_DOCUMENTS}${suffix}` },
	{ method, path: `${WORK_ORDER_DOCUMENTS}${suffix}` },
];
