import type { Resource } from '../../operations/operation';
import { deleteDocument } from './delete';
import { download } from './download';
import { list } from './list';
import { upload } from './upload';

export const documentResource: Resource = {
	name: 'Document',
	value: 'document',
	description: 'Upload, list, download and delete documents of projects and work orders',
	what: 'document',
	operations: [deleteDocument, download, list, upload],
	defaultOperation: upload,
};
