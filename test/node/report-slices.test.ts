/**
 * Report → a period read in parallel time slices (Options → Parallel Requests, reporting/slices.ts): the same
 * records in the same order as a read in one sequence, each once, whatever the service does at the edges; an
 * empty slice costs one request; a 429 halves the requests at once; a failing slice fails the read, naming its
 * window, and leaves no file. Against the sandbox (in both variants: `npm run test:alt`) and, where the sandbox
 * cannot produce the case, a fake reporting API on 127.0.0.1 that follows the spec's paging.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { REPORT_FEEDS } from '../../nodes/FieldOps/reporting/feeds';
import { N8nHarness } from '../harness';
import { json, type Exchange, type Reply } from '../hostile/fake';
import { useFakeFieldOps } from '../hostile/setup';
import { readFeed } from '../helpers/reporting';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

const STORAGE = mkdtempSync(join(tmpdir(), 'fieldops-report-slices-'));
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
process.env.N8N_BINARY_DATA_STORAGE_PATH = STORAGE;

const DAY = 86_400_000;
const SLICED = REPORT_FEEDS.filter((feed) => feed.fullModeDate);
/** Whole records, in order: most feeds' id field is not shown in the spec (R1). */
const records = (items: INodeExecutionData[] | undefined) =>
	(items ?? []).map((item) => JSON.stringify(item.json));
const filesUnder = (dir: string): string[] =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
	);

describe('Report in parallel time slices, against the sandbox', () => {
	const sb = useSandbox({ scale: 600 });
	let harness: N8nHarness;
	const window = {
		syncMode: 'window',
		fromDateTime: new Date(Date.now() - 90 * DAY).toISOString(),
		toDateTime: new Date(Date.now() + DAY).toISOString(),
	};
	const stats = async () =>
		(await call(sb().coreUrl, '/__sandbox/stats')).body as { requests: Record<string, number> };
	const run = async (parameters: INodeParameters) => {
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		const workflow = fieldOpsWorkflow({ resource: 'report', returnAll: true, ...parameters });
		workflow.settings = { timezone: 'Europe/Oslo' };
		const result = await harness.run(workflow);
		expect(result.error).toBeUndefined();
		return result.items['Field Ops'];
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it.each(SLICED.map((feed) => [feed.name, feed] as const))(
		'%s: in slices, the records and order of a read in one sequence',
		async (_name, feed) => {
			const route = `GET ${feed.path}`;
			const sequence = await run({
				operation: feed.value,
				...window,
				options: { pageSize: 40, parallelRequests: 1 },
			});
			const inSequence = (await stats()).requests[route];
			const sliced = await run({ operation: feed.value, ...window, options: { pageSize: 40 } });
			const inSlices = (await stats()).requests[route];

			const expected = await readFeed(
				sb(),
				feed.path,
				{ FromDateTime: window.fromDateTime, ToDateTime: window.toDateTime },
				40,
			);
			expect(expected.length).toBeGreaterThan(200);
			expect(records(sequence)).toEqual(expected.map((record) => JSON.stringify(record)));
			expect(records(sliced)).toEqual(records(sequence));
			// Read in slices indeed: each slice ends with a page of its own.
			expect(inSlices).toBeGreaterThan(inSequence);
		},
	);

	it('a named period (its window widened by two days each side, rows kept by their work day) as in one sequence', async () => {
		const period = { operation: 'timeRegistrations', syncMode: 'window', period: 'lastMonth' };
		const sequence = await run({ ...period, options: { pageSize: 25, parallelRequests: 1 } });
		const sliced = await run({ ...period, options: { pageSize: 25, parallelRequests: 3 } });
		expect(sequence?.length).toBeGreaterThan(25);
		expect(records(sliced)).toEqual(records(sequence));
	});

	it('Output: File writes the slices in order: the same CSV as in one sequence', async () => {
		const file = { operation: 'machineRegistrations', ...window, output: 'file', fileFormat: 'csv' };
		const text = async (items: INodeExecutionData[] | undefined) => {
			const binary = items?.[0]?.binary?.data;
			if (!binary) throw new Error('no file');
			return (await harness.binaryBuffer(binary)).toString('utf8');
		};
		const sequence = await run({ ...file, options: { pageSize: 30, parallelRequests: 1 } });
		const sliced = await run({ ...file, options: { pageSize: 30 } });
		expect(sliced?.[0].json.records).toBe(sequence?.[0].json.records);
		expect(await text(sliced)).toEqual(await text(sequence));
	});

	it('a Limit stops early: the first records of the sequence, a few requests more at most', async () => {
		const limited = { operation: 'payrollLines', ...window, returnAll: false, limit: 130 };
		const sequence = await run({ ...limited, options: { pageSize: 25, parallelRequests: 1 } });
		const inSequence = (await stats()).requests['GET /v1/payroll-lines'];
		const sliced = await run({ ...limited, options: { pageSize: 25, parallelRequests: 4 } });
		const inSlices = (await stats()).requests['GET /v1/payroll-lines'];
		expect(sequence).toHaveLength(130);
		expect(records(sliced)).toEqual(records(sequence));
		expect(inSlices).toBeLessThanOrEqual(inSequence + 4);
	});
});

/** A record of the fake feed: machine registrations, ordered by stop time then id. */
interface FakeRecord {
	id: string;
	stopDateTime: string;
	at: number;
}

interface FeedBehaviour {
	/** Whether ToDateTime / FromDateTime count their own instant in (R4). */
	toInclusive?: boolean;
	fromInclusive?: boolean;
	/** The last page's token: empty (the sandbox) or absent (alt, R8). */
	lastPage?: 'empty' | 'absent';
	/** A full page always gets a token: a slice that ends on a page boundary ends with an empty page and "". */
	tokenOnFullPage?: boolean;
	/** Answers every query as if it had no FromDateTime/ToDateTime. */
	ignoresWindow?: boolean;
	/** Records show only their day (`date`, as time registrations do), the window still counts their time. */
	dayStamped?: boolean;
	/** Delay before each answer (lets requests overlap; nothing is timed). */
	delayMs?: number;
	/** An answer in place of the page for some requests. */
	instead?: (request: Exchange, number: number) => Reply | undefined;
}

interface Answer {
	number: number;
	from: string | null;
	to: string | null;
	token: string | null;
	count: number;
	status: number;
	/** Requests in flight when it came, itself included. */
	inFlight: number;
	/** Order of events: when it came, when it was answered. */
	arrived: number;
	answered: number;
}

/**
 * The spec's paging over `all`: the window's records in (stop time, id) order, ChunkLimit at a time, an opaque
 * token tied to the first page's parameters. Records each request (in the order they came), what it was answered
 * and how many requests were in flight.
 */
function fakeFeed(all: FakeRecord[], behaviour: FeedBehaviour = {}) {
	const answers: Answer[] = [];
	let inFlight = 0;
	let events = 0;
	const sorted = [...all].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
	const page = (request: Exchange): { status: number; body: IDataObject; count: number } => {
		const q = request.query;
		const fromText = q.get('FromDateTime');
		const toText = q.get('ToDateTime');
		const from = fromText ? Date.parse(fromText) : -Infinity;
		const to = toText ? Date.parse(toText) : Infinity;
		const chunk = Number(q.get('ChunkLimit') ?? 2500);
		const inWindow = behaviour.ignoresWindow
			? sorted
			: sorted.filter(
					(r) =>
						(behaviour.fromInclusive === false ? r.at > from : r.at >= from) &&
						(behaviour.toInclusive === false ? r.at < to : r.at <= to),
				);
		const fingerprint = `${fromText}|${toText}|${chunk}`;
		let offset = 0;
		const token = q.get('ContinuationToken');
		if (token) {
			const [print, at] = Buffer.from(token, 'base64url').toString().split('#');
			if (print !== fingerprint)
				return { status: 400, body: { message: 'ContinuationToken belongs to another query' }, count: 0 };
			offset = Number(at);
		}
		const data = inWindow.slice(offset, offset + chunk);
		const more =
			offset + chunk < inWindow.length || (behaviour.tokenOnFullPage === true && data.length === chunk);
		const next = more ? Buffer.from(`${fingerprint}#${offset + chunk}`).toString('base64url') : '';
		const body: IDataObject = {
			data: data.map(({ id, stopDateTime }) =>
				behaviour.dayStamped ? { id, date: stopDateTime.slice(0, 10), qty: 1 } : { id, stopDateTime, qty: 1 },
			),
		};
		if (next || behaviour.lastPage !== 'absent') body.continuationToken = next;
		return { status: 200, body, count: data.length };
	};
	const reply: Reply = async (request, res) => {
		const q = request.query;
		const answer: Answer = {
			number: answers.length + 1,
			from: q.get('FromDateTime'),
			to: q.get('ToDateTime'),
			token: q.get('ContinuationToken'),
			count: 0,
			status: 0,
			inFlight: ++inFlight,
			arrived: ++events,
			answered: 0,
		};
		answers.push(answer);
		try {
			if (behaviour.delayMs) await new Promise((done) => setTimeout(done, behaviour.delayMs));
			const other = behaviour.instead?.(request, answer.number);
			if (other) {
				answer.status = -1;
				return await other(request, res);
			}
			const { status, body, count } = page(request);
			Object.assign(answer, { status, count });
			json(status, body)(request, res);
		} finally {
			inFlight--;
			answer.answered = ++events;
		}
	};
	return { reply, answers, expected: sorted };
}

const START = Date.parse('2026-03-02T06:00:00.000Z');
const FROM = new Date(START).toISOString();
const TO = new Date(START + 3_600_000).toISOString();

/** Records on every half second's edge: at .499 and .500 (three sharing that instant), for `seconds` seconds. */
function edgeRecords(seconds: number, offsetSeconds = 0): FakeRecord[] {
	const made: FakeRecord[] = [];
	for (let s = offsetSeconds; s < offsetSeconds + seconds; s++) {
		const second = START + s * 1000;
		for (const [suffix, at] of [
			['a', second + 499],
			['b1', second + 500],
			['b2', second + 500],
			['b3', second + 500],
		] as const)
			made.push({ id: `${s}-${suffix}`, at, stopDateTime: new Date(at).toISOString() });
	}
	return made;
}

describe('Report in parallel time slices, against a fake reporting API', () => {
	const env = useFakeFieldOps();
	const PATH = '/v1/machine-registrations';
	const run = async (options: INodeParameters, parameters: INodeParameters = {}, continueOnFail = false) => {
		const workflow = fieldOpsWorkflow(
			{
				resource: 'report',
				operation: 'machineRegistrations',
				syncMode: 'window',
				fromDateTime: FROM,
				toDateTime: TO,
				returnAll: true,
				...parameters,
				options,
			},
			{ credentialId: env.credential(), continueOnFail },
		);
		const result = await env.harness.run(workflow);
		return { result, items: result.items['Field Ops'] ?? [], error: result.nodeErrors['Field Ops'] };
	};
	/** The fake feed read in one sequence, then in slices: both outcomes, and the slices' answers. */
	const both = async (
		all: FakeRecord[],
		behaviour: FeedBehaviour,
		options: INodeParameters = { pageSize: 100 },
	) => {
		const feed = fakeFeed(all, behaviour);
		env.fake.on('reporting', 'GET', PATH, feed.reply);
		const sequence = await run({ ...options, parallelRequests: 1 });
		feed.answers.length = 0;
		const sliced = await run(options);
		return { sequence, sliced, answers: feed.answers, expected: feed.expected };
	};
	const ids = (items: INodeExecutionData[]) => items.map((item) => item.json.id as string);

	it.each([
		['both bounds in', { toInclusive: true, fromInclusive: true }],
		['ToDateTime out (the alt sandbox)', { toInclusive: false, fromInclusive: true }],
		['FromDateTime out', { toInclusive: true, fromInclusive: false }],
		['both bounds out', { toInclusive: false, fromInclusive: false }],
	])('records on every slice edge come once, in order: %s', async (_case, bounds) => {
		const { sequence, sliced, answers } = await both(edgeRecords(600), bounds);
		expect(sequence.error).toBeUndefined();
		expect(sliced.error).toBeUndefined();
		expect(ids(sequence.items)).toHaveLength(2400);
		expect(ids(sliced.items)).toEqual(ids(sequence.items));
		// The edges fell where records are: some slice began a millisecond before three records shared an instant.
		const edges = answers.filter((a) => a.from !== FROM && a.token === null);
		expect(edges.length).toBeGreaterThan(5);
		expect(edges.some((a) => a.from?.endsWith('.499Z'))).toBe(true);
	});

	it('an empty slice costs one request; slices around a gap read the rest', async () => {
		// Records in the first and the last five minutes of the hour: slices in between find nothing.
		const all = [...edgeRecords(300), ...edgeRecords(300, 3300)];
		const { sequence, sliced, answers } = await both(all, {}, { pageSize: 200 });
		expect(ids(sliced.items)).toEqual(ids(sequence.items));
		expect(ids(sliced.items)).toHaveLength(all.length);
		const slices = new Map<string, Answer[]>();
		for (const answer of answers.filter((a) => a.from !== FROM))
			slices.set(`${answer.from}|${answer.to}`, [
				...(slices.get(`${answer.from}|${answer.to}`) ?? []),
				answer,
			]);
		const empty = [...slices.values()].filter((requests) => requests[0].count === 0);
		expect(empty.length).toBeGreaterThan(0);
		for (const requests of empty) expect(requests).toHaveLength(1);
	});

	it.each([
		['an empty token on a short last page', { lastPage: 'empty' as const }],
		['no token on the last page (R8)', { lastPage: 'absent' as const }],
		['a token on every full page, then an empty page with ""', { tokenOnFullPage: true }],
	])('a slice ending with %s ends there', async (_case, behaviour) => {
		const { sequence, sliced, answers } = await both(edgeRecords(400), behaviour, { pageSize: 100 });
		expect(sliced.error).toBeUndefined();
		expect(ids(sliced.items)).toEqual(ids(sequence.items));
		expect(ids(sliced.items)).toHaveLength(1600);
		// Every token was one the slice's own query had given.
		expect(answers.filter((a) => a.status !== 200)).toEqual([]);
	});

	it('records that show only their day: a first page within one day still sizes slices smaller than the period', async () => {
		// Three days of 200 time registrations each; a page of 50 holds a quarter of one day.
		const all: FakeRecord[] = Array.from({ length: 600 }, (_, i) => {
			const at = START + Math.floor((i * 3 * DAY) / 600);
			return { id: `t${String(i).padStart(3, '0')}`, at, stopDateTime: new Date(at).toISOString() };
		});
		const feed = fakeFeed(all, { dayStamped: true });
		env.fake.on('reporting', 'GET', '/v1/time-registrations', feed.reply);
		// The period begins long before its records (a year asked for, three days used).
		const parameters = {
			operation: 'timeRegistrations',
			fromDateTime: new Date(START - 365 * DAY).toISOString(),
			toDateTime: new Date(START + 3 * DAY).toISOString(),
		};
		const sequence = await run({ pageSize: 50, parallelRequests: 1 }, parameters);
		feed.answers.length = 0;
		const sliced = await run({ pageSize: 50 }, parameters);
		expect(sliced.error).toBeUndefined();
		expect(ids(sequence.items)).toHaveLength(600);
		expect(ids(sliced.items)).toEqual(ids(sequence.items));
		// Each slice's first request: about a slice a day (a page of one day spans that day), not one for the year.
		const slices = new Set(
			feed.answers
				.slice(1)
				.filter((a) => a.token === null)
				.map((a) => a.from),
		);
		expect(slices.size).toBeGreaterThanOrEqual(3);
	});

	it('a 429 inside a slice: the page is asked again, half as many requests at once from then on', async () => {
		const THROTTLED = 9;
		const feed = fakeFeed(edgeRecords(900), {
			delayMs: 25,
			instead: (_request, number) =>
				number === THROTTLED
					? json(429, { message: 'Too many requests' }, { 'Retry-After': '0' })
					: undefined,
		});
		env.fake.on('reporting', 'GET', PATH, feed.reply);
		const sliced = await run({ pageSize: 100 });
		expect(sliced.error).toBeUndefined();
		expect(ids(sliced.items)).toEqual(feed.expected.map((record) => record.id));
		const { answers } = feed;
		const throttled = answers[THROTTLED - 1];
		expect(throttled.status).toBe(-1);
		// Requests overlapped before the 429 (Parallel Requests 4)…
		expect(Math.max(...answers.slice(0, THROTTLED).map((a) => a.inFlight))).toBeGreaterThanOrEqual(3);
		// …the same page was asked again, after the node had halved its requests at once…
		const again = answers.find(
			(a) =>
				a.number > THROTTLED &&
				a.from === throttled.from &&
				a.to === throttled.to &&
				a.token === throttled.token,
		);
		expect(again?.status).toBe(200);
		// …and once every request that came before that retry was answered, never more than 2 at once.
		const settled = Math.max(
			...answers.filter((a) => a.arrived < (again as Answer).arrived).map((a) => a.answered),
		);
		const later = answers.filter((a) => a.arrived > settled);
		expect(later.length).toBeGreaterThan(5);
		expect(Math.max(...later.map((a) => a.inFlight))).toBeLessThanOrEqual(2);
	});

	it('a failing slice fails the read with its window named; Output: File leaves no file behind', async () => {
		const failFrom = START + 1_800_000;
		const feed = fakeFeed(edgeRecords(3600), {
			instead: (request) =>
				request.query.get('ContinuationToken') === null &&
				Date.parse(request.query.get('FromDateTime') ?? '') > failFrom
					? json(500, { message: 'Database timeout' }, { 'Retry-After': '0' })
					: undefined,
		});
		env.fake.on('reporting', 'GET', PATH, feed.reply);
		const items = await run({ pageSize: 500 });
		expect(items.items).toEqual([]);
		const message = String((items.error as Error | undefined)?.message);
		expect(message).toMatch(
			/^Machine Registrations, records dated \d{4}-\d\d-\d\dT[\d:.]+Z – \d{4}-\d\d-\d\dT[\d:.]+Z \(one of the time slices read in parallel\), page 1: /,
		);
		expect(message).toMatch(/Database timeout/);
		const [, dated] = /records dated (\S+) –/.exec(message) ?? [];
		expect(Date.parse(dated)).toBeGreaterThan(failFrom);

		const before = filesUnder(STORAGE).length;
		const file = await run({ pageSize: 500 }, { output: 'file', fileFormat: 'csv' }, true);
		expect(file.items).toHaveLength(1);
		expect(file.items[0].binary).toBeUndefined();
		expect(String(file.items[0].json.error)).toMatch(/one of the time slices read in parallel/);
		expect(filesUnder(STORAGE)).toHaveLength(before);
	});

	it('a service that does not narrow a query to its window: read in one sequence, each record once', async () => {
		const { sequence, sliced } = await both(edgeRecords(300), { ignoresWindow: true }, { pageSize: 100 });
		expect(sliced.error).toBeUndefined();
		expect(ids(sliced.items)).toEqual(ids(sequence.items));
		expect(ids(sliced.items)).toHaveLength(1200);
	});
});
