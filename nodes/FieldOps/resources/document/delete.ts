import { asItems, forEachItem } from '../../items/items';
import { asRecords, fromFields, type CodeOperation } from '../../operations/operation';
import { sendJson } from '../../transport/transport';
import { DOCUMENT_REQUESTS, documentsOf, fileReferenceId, TARGET_FIELDS } from './common';

export const deleteDocument: CodeOperation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a document',
	description: 'Delete a document from a project or work order',
	fields: [...TARGET_FIELDS, fileReferenceId],
	requests: DOCUMENT_REQUESTS('DELETE', '/{fileReferenceId}'),
	execute: async (context) =>
		await forEachItem(
			context,
			async (item) => {
				const { params } = await fromFields([fileReferenceId], item);
				const documents = await documentsOf(item);
				const body = await sendJson(context, {
					method: 'DELETE',
					path: `${documents.path}/{fileReferenceId}`,
					params: { ...documents.params, ...params },
					what: 'document',
					itemIndex: item.index,
				});
				return asItems(asRecords(body));
			},
			{ writes: { what: 'document', done: 'deleted' } },
		),
};
