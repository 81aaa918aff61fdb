import type { IDataObject } from 'n8n-workflow';

import { type Field, on, shown } from '../../parameters/field';
import { asItems, forEachItem } from '../../items/items';
import { asRecords, type CodeOperation } from '../../operations/operation';
import { sendJson } from '../../transport/transport';
import { DOCUMENT_REQUESTS, documentsOf, TARGET_FIELDS } from './common';

const splitIntoFiles: Field = shown(on('document', 'list'), {
	property: {
		displayName: 'Split Into Files',
		name: 'splitIntoFiles',
		type: 'boolean',
		default: false,
		description: 'Whether to output one item per file instead of one per page',
	},
});

/** List: one item per section page, or one per file with "Split Into Files". */
export const list: CodeOperation = {
	name: 'List',
	value: 'list',
	action: 'List documents',
	description: 'List the document pages (sections) of a project or work order',
	fields: [...TARGET_FIELDS, splitIntoFiles],
	requests: DOCUMENT_REQUESTS('GET'),
	execute: async (context) =>
		await forEachItem(context, async (item) => {
			const documents = await documentsOf(item);
			const pages = asRecords(
				await sendJson(context, { method: 'GET', ...documents, what: 'document', itemIndex: item.index }),
			);
			if (item.param('splitIntoFiles') !== true) return asItems(pages);
			return asItems(
				pages.flatMap((page) =>
					((page.files as IDataObject[] | undefined) ?? []).map((file) => ({
						section: page.section,
						pageExternalId: page.pageExternalId,
						...file,
					})),
				),
			);
		}),
};
