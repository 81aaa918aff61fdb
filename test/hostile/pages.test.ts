import type { IDataObject } from 'n8n-workflow';

import { TRIGGER, triggerWorkflow } from '../helpers/workflows';
import { json, sequence, text, type Exchange, type Reply } from './fake';
import { expectNoSecrets } from './no-secrets';
import { reportPages } from './request-routes';
import { useFakeFieldOps } from './setup';

/**
 * Rule 4: a report page must be an object with an array `data`. Anything else is an error naming the export,
 * the page number and what was wrong, after the retries, never an empty page; a continuation token seen before
 * in the same read is an error; a page ceiling ends endless reads.
 */
describe('Rule 4 — report pages', () => {
	const env = useFakeFieldOps();

	const PATH = reportPages.main.path;
	// Retry-After 0 keeps the retries of a bad page quick; the page is still asked for 1 + 5 times.
	const quick = { 'retry-after': '0' };
	const page = (data: unknown, continuationToken?: unknown) => json(200, { data, continuationToken }, quick);
	/** Page 1 has a record and the token "p2"; page 2 (asked with ContinuationToken=p2) answers `second`. */
	const twoPages = (second: Reply) =>
		env.fake.on('reporting', 'GET', PATH, (request: Exchange, res) =>
			(request.query.get('ContinuationToken') === 'p2' ? second : page([{ id: 'r-1' }], 'p2'))(request, res),
		);
	const pageRequests = (token: string) =>
		env.fake.requests('reporting').filter((e) => e.query.get('ContinuationToken') === token).length;
	const run = async (continueOnFail = false) => await reportPages.run(env, { continueOnFail });

	const MALFORMED: Array<[string, Reply, RegExp]> = [
		[
			'truncated JSON',
			text(200, '{"data": [{"id": "r-2"}, {"id": "r-', 'application/json', quick),
			/not readable JSON/,
		],
		[
			'a web page',
			text(200, '<!DOCTYPE html><html><body>Gateway</body></html>', 'text/html', quick),
			/does not point at the Field Ops API: it answered with a web page/,
		],
		['a JSON string', json(200, 'ok', quick), /answered text where a page of records was expected/],
		[
			'nothing',
			text(200, '', 'application/json', quick),
			/answered nothing where a page of records was expected/,
		],
		[
			'a bare list',
			json(200, [{ id: 'r-2' }], quick),
			/answered a list where a page of records was expected/,
		],
		['no "data"', json(200, { records: [{ id: 'r-2' }] }, quick), /the page has no "data" list/],
		['"data": null', page(null), /the page has no "data" list/],
		['"data" of the wrong type', page({ id: 'r-2' }), /the page has a malformed "data" list/],
		['"data" of plain values', page([1, 2]), /the page has a "data" list whose entries are not records/],
		['a continuation token that is not text', page([{ id: 'r-2' }], 3), /the continuation token is not text/],
	];

	it.each(MALFORMED)(
		'page 2 as %s: an error naming the export and the page, after 5 retries',
		async (_what, reply, problem) => {
			twoPages(reply);
			const outcome = await run();

			expect(outcome.message).toMatch(/^Time Registrations, page 2: /);
			expect(outcome.message).toMatch(problem);
			expect(outcome.items).toEqual([]);
			expect(pageRequests('p2')).toBe(6);
		},
	);

	it('with Continue On Fail the item is an error, not the records of page 1 alone', async () => {
		twoPages(page(null));
		const outcome = await run(true);
		expect(outcome.items.map((i) => i.json)).toEqual([
			{ error: 'Time Registrations, page 2: the page has no "data" list' },
		]);
		expectNoSecrets(outcome);
	});

	it('a bad page that comes right on a retry loses nothing', async () => {
		twoPages(sequence(page(null), text(200, '{"data": [', 'application/json', quick), page([{ id: 'r-2' }])));
		const outcome = await run();
		expect(outcome.items.map((i) => i.json.id)).toEqual(['r-1', 'r-2']);
		expect(pageRequests('p2')).toBe(3);
	});

	it('refuses a continuation token repeated on the next page', async () => {
		env.fake.on('reporting', 'GET', PATH, page([{ id: 'same' }], 'again'));
		const outcome = await run();
		expect(outcome.message).toBe(
			'Time Registrations, page 2: the service repeated a continuation token it had already given',
		);
		expect(env.fake.requests('reporting')).toHaveLength(2);
	});

	it('refuses continuation tokens that cycle (A, B, A)', async () => {
		const next: Record<string, string> = { '': 'A', A: 'B', B: 'A' };
		env.fake.on('reporting', 'GET', PATH, (request, res) =>
			page(
				[{ id: request.query.get('ContinuationToken') ?? 'first' }],
				next[request.query.get('ContinuationToken') ?? ''],
			)(request, res),
		);
		const outcome = await run();
		expect(outcome.message).toBe(
			'Time Registrations, page 3: the service repeated a continuation token it had already given',
		);
		expect(env.fake.requests('reporting')).toHaveLength(3);
	});

	it('follows an empty page that still has a token (an exhausted image source), then stops on an empty token', async () => {
		const pages: Record<string, Reply> = {
			'': page([{ id: 'a' }], 't1'),
			t1: page([], 't2'),
			t2: page([{ id: 'b' }], ''),
		};
		env.fake.on('reporting', 'GET', PATH, (request, res) =>
			pages[request.query.get('ContinuationToken') ?? ''](request, res),
		);
		const outcome = await run();
		expect(outcome.items.map((i) => i.json.id)).toEqual(['a', 'b']);
	});

	it('stops an endless read at the page ceiling (10 million records’ worth of pages), with an error', async () => {
		// A new token and an empty page every time: without a ceiling this never ends. Pages of 10000 records.
		let n = 0;
		env.fake.on('reporting', 'GET', PATH, (request, res) => page([], `t${++n}`)(request, res));
		const outcome = await run();
		expect(outcome.message).toBe(
			'Time Registrations, page 1001: more than 1000 pages without an end: the service does not stop',
		);
		expect(env.fake.requests('reporting')).toHaveLength(1000);
		expect(env.fake.requests('reporting').every((e) => e.query.get('ChunkLimit') === '10000')).toBe(true);
	}, 120_000);

	it('trigger: a malformed page fails the poll (state untouched), naming the report and the page', async () => {
		env.fake.on('reporting', 'GET', '/v1/machine-registrations', (request, res) =>
			(request.query.get('ContinuationToken') === 'p2'
				? text(200, '{"data": [{"id"', 'application/json', quick)
				: page([{ id: 'mr-1', modifiedDateTime: '2026-01-01T00:00:00Z' }], 'p2'))(request, res),
		);
		const workflow = triggerWorkflow({ feed: 'machineRegistrations', startFrom: 'everything' });
		workflow.nodes[0].credentials = {
			fieldOpsOAuth2Api: { id: env.credential(), name: 'Field Ops' },
		};
		const staticData: IDataObject = {};
		await expect(env.harness.poll(workflow, TRIGGER, { staticData })).rejects.toThrow(
			/^Machine Registrations, page 2: .*not readable JSON/,
		);
		expect(staticData).toEqual({ 'node:Field Ops Trigger': {} });
	});
});
