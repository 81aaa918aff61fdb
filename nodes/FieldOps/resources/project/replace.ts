import type { INodeProperties } from 'n8n-workflow';

export const projectReplaceDescription: INodeProperties[] = [
	{
		displayName:
			'Replace sends the complete project: every field you do not set here is reset to its default (for example Active becomes false). To change only some fields, use Update.',
		name: 'replaceNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['project'], operation: ['replace'] } },
	},
];
