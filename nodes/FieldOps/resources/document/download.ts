import { on, shown } from '../../parameters/field';
import { downloadPerItem, putFileInField } from '../../operations/downloads';
import { fromFields, type CodeOperation } from '../../operations/operation';
import { DOCUMENT_REQUESTS, documentsOf, fileTimeout, fileReferenceId, TARGET_FIELDS } from './common';

const binaryPropertyName = putFileInField('Name of the binary property the document goes to');

/** Download: the raw file into a binary property, named from Content-Disposition; only metadata in json. */
export const download: CodeOperation = {
	name: 'Download',
	value: 'download',
	action: 'Download a document',
	description: 'Download a document into a binary property, with its original name',
	fields: [
		...TARGET_FIELDS,
		fileReferenceId,
		shown(on('document', 'download'), binaryPropertyName),
		fileTimeout,
	],
	requests: DOCUMENT_REQUESTS('GET', '/{fileReferenceId}'),
	execute: async (context) =>
		await downloadPerItem(context, async (item) => {
			const { params } = await fromFields([fileReferenceId], item);
			const documents = await documentsOf(item);
			const id = String(params.fileReferenceId.value);
			return {
				request: {
					path: `${documents.path}/{fileReferenceId}`,
					params: { ...documents.params, ...params },
					what: 'document',
				},
				fallbackName: `document-${id}`,
				json: { fileReferenceId: id },
			};
		}),
};
