/**
 * Report → Output: Items, One Item per Page, and File (CSV or JSON Lines streamed into n8n's binary store, here
 * in filesystem mode, n8n's default outside queue mode).
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IBinaryData, IDataObject, INodeParameters } from 'n8n-workflow';

import { flatten } from '../../nodes/FieldOps/resources/report/output/csv';
import { N8nHarness } from '../harness';
import { csvRecords } from '../helpers/csv';
import { readFeed } from '../helpers/reporting';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

const STORAGE = mkdtempSync(join(tmpdir(), 'fieldops-report-files-'));
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
process.env.N8N_BINARY_DATA_STORAGE_PATH = STORAGE;

const DAY = 86_400_000;

/** A cell as n8n's Convert to File writes it. */
const cell = (value: unknown) =>
	value === null || value === undefined
		? ''
		: typeof value === 'boolean'
			? value
				? 'TRUE'
				: 'FALSE'
			: String(value);

/** Every file below a folder (n8n's binary store). */
const filesUnder = (dir: string): string[] =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
	);

describe('Field Ops → Report → Output', () => {
	const sb = useSandbox({ scale: 300 });
	let harness: N8nHarness;
	const from = new Date(Date.now() - 90 * DAY).toISOString();
	const to = new Date(Date.now() + DAY).toISOString();
	const windowed = (operation: string) => ({
		operation,
		syncMode: 'window',
		fromDateTime: from,
		toDateTime: to,
		returnAll: true,
	});
	const run = async (parameters: INodeParameters, continueOnFail = false) => {
		const workflow = fieldOpsWorkflow({ resource: 'report', ...parameters }, { continueOnFail });
		workflow.nodes[1].typeVersion = 1.1;
		workflow.settings = { timezone: 'Europe/Oslo' };
		return await harness.run(workflow);
	};
	const only = async (parameters: INodeParameters) => {
		const result = await run(parameters);
		expect(result.error).toBeUndefined();
		expect(result.items['Field Ops']).toHaveLength(1);
		return result.items['Field Ops'][0];
	};
	const text = async (binary: IBinaryData | undefined) =>
		(await harness.binaryBuffer(binary as IBinaryData)).toString('utf8');
	/** Pages the sandbox answers in place of the feed, in order (the last one ends the export). */
	const servePages = async (path: string, pages: IDataObject[][]) =>
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: pages.map((data, index) => ({
				path,
				status: 200,
				body: { data, continuationToken: index + 1 < pages.length ? `t${index + 1}` : '' },
			})),
		});

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it('One Item per Page: each page’s records in one item, the same records in the same order as Items', async () => {
		// In one sequence, so every page but the last is full (time slices end with short pages).
		const params = {
			...windowed('timeRegistrations'),
			simplify: false,
			options: { pageSize: 40, parallelRequests: 1 },
		};
		const items = (await run(params)).items['Field Ops'].map((item) => item.json);
		const pages = (await run({ ...params, output: 'pages' })).items['Field Ops'];
		expect(items.length).toBeGreaterThan(80);
		expect(pages).toHaveLength(Math.ceil(items.length / 40));
		expect(pages.map((page) => page.json.page)).toEqual(pages.map((_page, index) => index + 1));
		expect(pages.every((page) => (page.json.records as IDataObject[]).length <= 40)).toBe(true);
		expect(pages.flatMap((page) => page.json.records as IDataObject[])).toEqual(items);
		expect(pages.every((page) => (page.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('File, CSV: every record one row, flattened like Convert to File, in n8n’s binary store on disk', async () => {
		const raw = await readFeed(sb(), '/v1/images', { FromDateTime: from, ToDateTime: to });
		const item = await only({
			...windowed('images'),
			simplify: false,
			output: 'file',
			options: { pageSize: 25 },
		});
		const binary = item.binary?.data as IBinaryData;
		expect(binary).toMatchObject({
			id: expect.stringMatching(/^filesystem/),
			fileName: 'images.csv',
			mimeType: 'text/csv',
		});
		const { header, records } = csvRecords(await text(binary));
		// Image pages count parent records (one parent can give several rows), so there are several, not n / 25.
		expect(item.json).toEqual({
			fileName: 'images.csv',
			fileFormat: 'csv',
			records: raw.length,
			pages: expect.any(Number),
			columns: header,
			// What the file covers: the window in words and ISO, in the report's time zone; the Limit did not cut it.
			window: expect.stringMatching(/^Custom: \d{4}-\d\d-\d\d \d\d:\d\d – .* \(Europe\/Oslo\)$/),
			windowFrom: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00$/),
			windowTo: expect.stringMatching(/\+0[12]:00$/),
			timeZone: 'Europe/Oslo',
			moreExist: false,
		});
		expect(item.json.pages).toBeGreaterThan(2);

		const flat = raw.map((record) => flatten(record as IDataObject));
		// The header is the union of the fields, in the order first seen; nested objects give dot columns.
		expect(new Set(header)).toEqual(new Set(flat.flatMap((record) => Object.keys(record))));
		expect(header).toEqual(
			expect.arrayContaining(['roadReference.provider', 'roadReference.meterFromStart']),
		);
		expect(records).toEqual(
			flat.map((record) => Object.fromEntries(header.map((name) => [name, cell(record[name])]))),
		);
	});

	it('File, CSV options: semicolon, byte order mark, file name, binary property, Limit; Simplify’s columns', async () => {
		const item = await only({
			...windowed('timeRegistrations'),
			returnAll: false,
			limit: 25,
			output: 'file',
			fileOptions: {
				delimiter: ';',
				addBom: true,
				fileName: 'uke 47; timer.csv',
				binaryPropertyName: 'hours',
			},
		});
		const body = await text(item.binary?.hours);
		expect(body.startsWith('\uFEFF')).toBe(true);
		const { header, records } = csvRecords(body.slice(1), ';');
		expect(header.slice(0, 12)).toEqual([
			'Employee',
			'Employee Number',
			'Project Number',
			'Project',
			'Work Order',
			'Date',
			'Start',
			'End',
			'Hours',
			'Approved',
			'Comment',
			'Last Changed',
		]);
		expect(records).toHaveLength(25);
		expect(records[0].Start).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
		// Semicolon: the locales whose decimal mark is a comma, so half hours are 7,5 (Excel there reads 7.5 as a date).
		const hours = records.map((record) => record.Hours);
		expect(hours.every((value) => /^\d+(,\d+)?$/.test(value))).toBe(true);
		expect(hours.some((value) => value.includes(','))).toBe(true);
		expect(item.json).toMatchObject({ fileName: 'uke 47; timer.csv', records: 25 });
	});

	it('File, CSV: a column first seen on a later page joins the header; earlier rows get empty cells', async () => {
		await servePages('/v1/time-registrations', [
			[{ id: 'a', name: 'Åse' }],
			[{ id: 'b', name: 'Comma, "quote"\r\nand line', extra: { deep: { er: 1 } }, list: [1, 2] }],
			[{ id: 'c', flag: true, nothing: null, empty: {} }],
		]);
		const item = await only({
			...windowed('timeRegistrations'),
			simplify: false,
			output: 'file',
			fileOptions: { addBom: true },
		});
		expect(await text(item.binary?.data)).toBe(
			'\uFEFFid,name,extra.deep.er,list.0,list.1,flag,nothing\r\n' +
				'a,Åse,,,,,\r\n' +
				'b,"Comma, ""quote""\r\nand line",1,1,2,,\r\n' +
				'c,,,,,TRUE,\r\n',
		);
		expect(item.json).toMatchObject({
			records: 3,
			pages: 3,
			columns: ['id', 'name', 'extra.deep.er', 'list.0', 'list.1', 'flag', 'nothing'],
		});
	});

	it('File, JSON Lines: one record per line, nested fields kept; Simplify shapes each line', async () => {
		const raw = await readFeed(sb(), '/v1/machine-registrations', { FromDateTime: from, ToDateTime: to });
		const file = await only({
			...windowed('machineRegistrations'),
			simplify: false,
			output: 'file',
			fileFormat: 'jsonl',
		});
		expect(file.binary?.data).toMatchObject({
			fileName: 'machine-registrations.jsonl',
			mimeType: 'application/x-ndjson',
		});
		const body = await text(file.binary?.data);
		expect(body.endsWith('\n')).toBe(true);
		expect(
			body
				.trimEnd()
				.split('\n')
				.map((line) => JSON.parse(line)),
		).toEqual(raw);

		const simple = await only({ ...windowed('machineRegistrations'), output: 'file', fileFormat: 'jsonl' });
		const lines = (await text(simple.binary?.data))
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line) as IDataObject);
		expect(lines).toHaveLength(raw.length);
		expect(lines[0]).toMatchObject({ Machine: raw[0].machineName, Driver: raw[0].driverName });
	});

	it('File with no records: an empty file and a count of 0', async () => {
		await servePages('/v1/time-registrations', [[]]);
		const item = await only({ ...windowed('timeRegistrations'), output: 'file' });
		expect(await text(item.binary?.data)).toBe('');
		expect(item.json).toMatchObject({ records: 0, pages: 1, columns: [] });
	});

	it('a page that cannot be read fails the item and leaves no file behind', async () => {
		const before = filesUnder(STORAGE).length;
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: {
				path: '/v1/time-registrations',
				status: 500,
				after: 2,
				times: 10,
				headers: { 'Retry-After': '0' },
			},
		});
		// In one sequence, so the faults hit its page 3 (a failing time slice: report-slices).
		const result = await run(
			{ ...windowed('timeRegistrations'), output: 'file', options: { pageSize: 10, parallelRequests: 1 } },
			true,
		);
		await call(sb().coreUrl, '/__sandbox/faults', { method: 'DELETE' });
		const [item] = result.items['Field Ops'];
		expect(item.json.error).toMatch(/Time Registrations, page 3/);
		expect(item.binary).toBeUndefined();
		expect(filesUnder(STORAGE).filter((file) => file.includes('.tmp.'))).toEqual([]);
		expect(filesUnder(STORAGE)).toHaveLength(before);
	});
});
