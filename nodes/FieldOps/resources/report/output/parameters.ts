import type { INodeProperties } from 'n8n-workflow';

import type { Field } from '../../../parameters/field';

const field = (property: INodeProperties): Field => ({ property });
const asFile = { show: { output: ['file'] } };

const SIMPLIFY_DESCRIPTION =
	'Whether to return the columns a person reads (who, project, work order, date, hours …) with readable names and times in the workflow’s time zone, instead of the raw records. Fields Simplify does not know follow under their own names.';

/**
 * Simplify: on for nodes added from version 1.1; version 1 (workflows saved before it) keeps the raw records,
 * with the switch there to turn on. Two parameters of one name, one per node version, as n8n's own nodes do.
 */
export const simplifyFields: Field[] = [
	field({
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		displayOptions: { show: { '@version': [1] } },
		description: SIMPLIFY_DESCRIPTION,
	}),
	field({
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
		description: SIMPLIFY_DESCRIPTION,
	}),
];

export const output = field({
	displayName: 'Output',
	name: 'output',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'File',
			value: 'file',
			description:
				'One CSV, Excel or JSON Lines file written as the pages arrive: for spreadsheets, and for exports too large to hold as items (100,000 records and more)',
		},
		{ name: 'Items', value: 'items', description: 'One item per record' },
		{
			name: 'One Item per Page',
			value: 'pages',
			description: 'One item per page of records (up to Page Size), the records in its "records" list',
		},
	],
	default: 'items',
});

export const fileFormat = field({
	displayName: 'File Format',
	name: 'fileFormat',
	type: 'options',
	noDataExpression: true,
	displayOptions: asFile,
	options: [
		{
			name: 'CSV',
			value: 'csv',
			description:
				'A header row, then one row per record; nested fields as dot columns (roadReference.provider)',
		},
		{
			name: 'Excel (.xlsx)',
			value: 'xlsx',
			description:
				'One sheet: a header row, then one row per record; days and times are date cells and numbers numbers, so Excel sums, sorts and filters them',
		},
		{ name: 'JSON Lines', value: 'jsonl', description: 'One JSON record per line, nested fields kept' },
	],
	default: 'csv',
});

export interface FileOptions {
	fileName?: string;
	delimiter?: string;
	addBom?: boolean;
	binaryPropertyName?: string;
}

export const fileOptions = field({
	displayName: 'File Options',
	name: 'fileOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: asFile,
	options: [
		{
			displayName: 'Add Byte Order Mark (BOM)',
			name: 'addBom',
			type: 'boolean',
			default: false,
			displayOptions: { show: { '/fileFormat': ['csv'] } },
			description:
				'Whether to start the file with a UTF-8 byte order mark, so Excel shows æ, ø and å correctly',
		},
		{
			displayName: 'Delimiter',
			name: 'delimiter',
			type: 'options',
			default: ',',
			displayOptions: { show: { '/fileFormat': ['csv'] } },
			options: [
				{ name: 'Comma', value: ',' },
				{
					name: 'Semicolon',
					value: ';',
					description:
						'What Excel expects where the decimal mark is a comma: numbers are written with a decimal comma (7,5)',
				},
				{ name: 'Tab', value: '\t' },
				{ name: 'Vertical Bar', value: '|' },
			],
			description: 'The character between the cells of a row',
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. hours-2026-W47.csv',
			description:
				'Name of the file. Empty: the report and its period, e.g. time-registrations-2026-W47.xlsx (nodes added before version 1.3: the report’s name alone).',
		},
		{
			displayName: 'Put File In Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			description: 'Name of the binary property the file goes to',
		},
	],
});

/** Simplify, Output and the file's settings, in the order shown after Return All / Limit. */
export const outputFields: Field[] = [...simplifyFields, output, fileFormat, fileOptions];
