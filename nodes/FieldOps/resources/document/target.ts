import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { resolveLocator } from '../../shared/locators';

/** `/api/v4/integration/projects/{id}/documents` or `…/tasks/{id}/documents`, by the chosen target. */
export async function documentsPath(context: IExecuteSingleFunctions): Promise<string> {
	const target = context.getNodeParameter('documentTarget', 'project') as string;
	const id = await resolveLocator(context, target === 'workOrder' ? 'workOrder' : 'project');
	return `/api/v4/integration/${target === 'workOrder' ? 'tasks' : 'projects'}/${encodeURIComponent(id)}/documents`;
}
