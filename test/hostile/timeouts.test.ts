import type { ServerResponse } from 'node:http';

import { sequence, stall, type Reply } from './fake';
import { expectNoSecrets } from './no-secrets';
import {
	documentDelete,
	documentDownload,
	documentUpload,
	lookupDownload,
	reportFiles,
	reportPages,
	type Route,
} from './request-routes';
import { useFakeFieldOps } from './setup';

/**
 * Rule 5: every request has a timeout (60 s unless the operation has a Timeout option: uploads, downloads,
 * report pages); a response that sends its headers and then nothing is retried like a dropped connection on
 * reads. Stalls are tested with a Timeout of 1 s, and the tests assert the error, never the time taken.
 */
describe('Rule 5 — timeouts', () => {
	const env = useFakeFieldOps();
	const held = new Set<ServerResponse>();
	afterEach(() => {
		for (const res of held) res.destroy();
		held.clear();
	});

	/** No answer at all: the request is read, then nothing is sent back. */
	const silence: Reply = (_request, res) => void held.add(res);
	const stalled =
		(contentType?: string): Reply =>
		(request, res) => {
			held.add(res);
			return stall(contentType)(request, res);
		};
	const sent = (route: Route) =>
		env.fake.requests(route.main.host, route.main.method).filter((e) => e.path === route.main.path).length;
	const run = async (route: Route, timeout: number | string | undefined, continueOnFail = false) =>
		await route.run(env, {
			continueOnFail,
			parameters: timeout === undefined ? {} : { timeout },
		});

	it('a write that gets no answer fails after the default 60 s, and is not sent again', async () => {
		documentDelete.serve(env.fake);
		env.fake.on('core', 'DELETE', documentDelete.main.path, silence);
		const outcome = await run(documentDelete, undefined);

		expect(outcome.message).toMatch(/^Could not reach Field Ops at 127\.0\.0\.1:\d+ \(no answer in time\)$/);
		expect(sent(documentDelete)).toBe(1);
	}, 120_000);

	it('Upload: the Timeout option bounds the wait; a write is not retried', async () => {
		documentUpload.serve(env.fake);
		env.fake.on('core', 'POST', documentUpload.main.path, silence);
		const outcome = await run(documentUpload, 1, true);

		expect(outcome.message).toMatch(
			/^"a\.pdf" was not uploaded: Could not reach Field Ops at 127\.0\.0\.1:\d+ \(no answer in time\)$/,
		);
		expect(outcome.description).toMatch(/raise the Timeout option/);
		expect(sent(documentUpload)).toBe(1);
		expectNoSecrets(outcome);
	});

	describe.each([
		['Document → Download', documentDownload, 'drawing.pdf', 'document-f-1'],
		['Lookup → Download File', lookupDownload, 'photo.pdf', 'file-f-1'],
		['Report Download Files', reportFiles, 'incident.pdf', 'incident-registration-i-1.pdf'],
	] as const)('%s', (_name, route, fileName, fallbackName) => {
		it('a file whose bytes stop after the headers is fetched again, then fails naming the file', async () => {
			route.serve(env.fake);
			env.fake.on(route.main.host, 'GET', route.main.path, stalled('application/pdf'));
			const outcome = await run(route, 1);

			// The stalled answer has no Content-Disposition: the file is named as the node names it without one.
			expect(outcome.message).toBe(
				`The download of ${fallbackName} stopped before the end (no answer in time)`,
			);
			expect(sent(route)).toBe(3);
			expectNoSecrets(outcome);
		});

		it('a stalled file that comes whole on the retry is saved', async () => {
			route.serve(env.fake);
			env.fake.on(route.main.host, 'GET', route.main.path, sequence(stalled('application/pdf'), route.reply));
			const outcome = await run(route, 1);

			expect(outcome.message).toBeUndefined();
			const binary = outcome.items[0].binary?.data;
			expect(binary?.fileName).toBe(fileName);
			expect((await env.harness.binaryBuffer(binary!)).toString()).toMatch(/^%PDF-1 /);
			expect(sent(route)).toBe(2);
		});

		it('a server that never answers is tried 3 times within the Timeout', async () => {
			route.serve(env.fake);
			env.fake.on(route.main.host, 'GET', route.main.path, silence);
			const outcome = await run(route, 1);
			expect(outcome.message).toMatch(/Could not reach Field Ops at 127\.0\.0\.1:\d+ \(no answer in time\)$/);
			expect(sent(route)).toBe(3);
		});
	});

	it('Report: a page that stalls after its headers is asked for again (6 times), then fails naming the page', async () => {
		reportPages.serve(env.fake);
		env.fake.on('reporting', 'GET', reportPages.main.path, stalled());
		const outcome = await run(reportPages, 1);

		expect(outcome.message).toMatch(
			/^Time Registrations, page 1: Could not reach Field Ops at 127\.0\.0\.1:\d+ \(no answer in time\)$/,
		);
		expect(sent(reportPages)).toBe(6);
	}, 60_000);

	it('Report: a page that stalls once is read on the retry', async () => {
		reportPages.serve(env.fake);
		env.fake.on('reporting', 'GET', reportPages.main.path, sequence(stalled(), reportPages.reply));
		const outcome = await run(reportPages, 1);
		expect(outcome.items.map((i) => i.json.id)).toEqual(['r-1']);
	});

	it.each([0, -5, 'abc'])('refuses a Timeout of %j before sending', async (timeout) => {
		lookupDownload.serve(env.fake);
		const outcome = await run(lookupDownload, timeout === 'abc' ? '={{ "abc" }}' : timeout);
		expect(outcome.message).toBe(`Timeout must be a number of seconds above 0: "${String(timeout)}"`);
		expect(env.fake.seen).toEqual([]);
	});
});
