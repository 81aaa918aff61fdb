import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { downloadPerItem } from '../../shared/files';
import { itemContext } from '../../shared/locators';
import { apiBaseUrl } from '../../shared/transport';
import { documentsPath } from './target';

/** Download: the raw file into a binary property, named from Content-Disposition; only metadata in json. */
export async function downloadDocuments(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const baseURL = await apiBaseUrl(this, 'core');
	return await downloadPerItem(this, async (itemIndex) => {
		const fileReferenceId = String(this.getNodeParameter('fileReferenceId', itemIndex)).trim();
		const path = `${await documentsPath(itemContext(this, itemIndex))}/${encodeURIComponent(fileReferenceId)}`;
		return { url: `${baseURL}${path}`, fallbackName: `document-${fileReferenceId}`, what: 'document', json: { fileReferenceId } };
	});
}
