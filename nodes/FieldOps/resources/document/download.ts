import type { IExecuteFunctions, INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../shared/errors';
import { downloadCoreFile } from '../../shared/files';
import { itemContext } from '../../shared/locators';
import { apiBaseUrl } from '../../shared/transport';
import { documentsPath } from './target';

/** Download: the raw file into a binary property, named from Content-Disposition; only metadata in json. */
export async function downloadDocuments(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const output: INodeExecutionData[] = [];
	const baseURL = await apiBaseUrl(this, 'core');
	for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
		try {
			const fileReferenceId = String(this.getNodeParameter('fileReferenceId', itemIndex)).trim();
			const property = this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
			const path = `${await documentsPath(itemContext(this, itemIndex))}/${encodeURIComponent(fileReferenceId)}`;
			const binary = await downloadCoreFile(this, `${baseURL}${path}`, `document-${fileReferenceId}`, itemIndex, 'document');
			output.push({
				json: { fileReferenceId, fileName: binary.fileName, mimeType: binary.mimeType, fileSize: binary.fileSize },
				binary: { [property]: binary },
				pairedItem: { item: itemIndex },
			});
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, itemIndex);
			output.push({ json: { error: (error as Error).message }, error: error as NodeOperationError, pairedItem: { item: itemIndex } });
		}
	}
	return [output];
}
