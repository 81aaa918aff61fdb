import type { INodeParameters } from 'n8n-workflow';

import { html, json, redirect, text, type Reply } from './fake';
import { expectNoSecrets } from './no-secrets';
import { PROJECT_ID, documentUpload } from './request-routes';
import { useFakeFieldOps, rl, runNode, type Outcome } from './setup';

/**
 * Rule 6: dates are real calendar dates in ISO 8601 (or the v4 formats where the spec allows them); Limit is a
 * whole number of at least 1; empty ids are refused; an Upload succeeds only on a 2xx JSON answer. Refusals
 * happen before anything is sent.
 */
describe('Rule 6 — input', () => {
	const env = useFakeFieldOps();

	const run = async (parameters: INodeParameters, continueOnFail = false): Promise<Outcome> =>
		await runNode(env, parameters, { continueOnFail });
	const apiRequests = () => env.fake.seen.filter((e) => e.host !== 'identity');
	const report = (extra: INodeParameters) => ({
		resource: 'report',
		operation: 'timeRegistrations',
		syncMode: 'window',
		fromDateTime: '2026-01-01',
		toDateTime: '2026-01-02',
		returnAll: true,
		...extra,
	});

	describe('dates', () => {
		it.each([
			['Report From', report({ fromDateTime: 'foo 1' }), 'From is not a valid date: "foo 1"'],
			['Report To', report({ toDateTime: '2026-02-30' }), 'To is not a valid date: "2026-02-30"'],
			[
				'Report Modified Since',
				report({ syncMode: 'modifiedSince', modifiedSince: '23.11.2026' }),
				'Modified Since "23.11.2026" is written day first: Field Ops needs year-month-day, here 2026-11-23',
			],
			[
				'Project → Create, Start Date (body)',
				{
					resource: 'project',
					operation: 'create',
					companyId: 'c-1',
					projectNumber: 'P9',
					additionalFields: { startDate: '2026-02-30' },
				},
				'Start Date is not a valid date: "2026-02-30"',
			],
			[
				'Machine-state → Create, Start Time (required)',
				{
					resource: 'machineState',
					operation: 'create',
					companyId: 'c-1',
					projectId: 'p',
					machineId: 'm',
					state: 'x',
					startTime: 'next Tuesday',
					endTime: '2026-01-01',
				},
				'Start Time is not a valid date: "next Tuesday"',
			],
			[
				'Employee → Create, Birth Date (v5)',
				{
					resource: 'employee',
					operation: 'create',
					employeeNumber: 'E1',
					firstName: 'A',
					lastName: 'B',
					phone: '+4790000001',
					birthDate: '1990-13-01',
				},
				'Birth Date is not a valid date: "1990-13-01"',
			],
			[
				'User → Create, Birth Date (v4: dd.MM.yyyy allowed, but 31 February is not a date)',
				{
					resource: 'user',
					operation: 'create',
					companyId: 'c-1',
					employeeNumber: 'U1',
					firstName: 'A',
					lastName: 'B',
					mobileWork: '+4790000002',
					birthDate: '31.02.1990',
					employmentStartDate: '2026-01-01',
				},
				'Birth Date is not a valid date: "31.02.1990"',
			],
		])('%s: refused before sending', async (_name, parameters, message) => {
			const outcome = await run(parameters as INodeParameters);
			expect(outcome.message).toBe(message);
			expect(apiRequests()).toEqual([]);
		});

		it('sends a v4 date given as dd.MM.yyyy in the chosen format', async () => {
			env.fake.on('core', 'POST', '/api/v4/integration/users', json(200, { identityId: 'auth0|1' }));
			const outcome = await run({
				resource: 'user',
				operation: 'create',
				companyId: 'c-1',
				employeeNumber: 'U1',
				firstName: 'A',
				lastName: 'B',
				mobileWork: '+4790000002',
				birthDate: '15.08.1990',
				employmentStartDate: '2026-01-01',
			});
			expect(outcome.message).toBeUndefined();
			expect(JSON.parse(env.fake.requests('core', 'POST')[0].body)).toMatchObject({
				birthDate: '1990-08-15',
				employmentStartDate: '2026-01-01',
			});
		});

		it('sends a body date as ISO 8601 (a date alone is midnight)', async () => {
			env.fake.on('core', 'POST', '/api/v4/integration/projects', json(200, { id: 'p-9' }));
			await run({
				resource: 'project',
				operation: 'create',
				companyId: 'c-1',
				projectNumber: 'P9',
				additionalFields: { startDate: '2026-02-28' },
			});
			expect(JSON.parse(env.fake.requests('core', 'POST')[0].body)).toMatchObject({
				startDate: '2026-02-28T00:00:00',
			});
		});
	});

	describe('Limit', () => {
		it.each([
			[0, '0'],
			[-5, '-5'],
			[2.5, '2.5'],
			['={{ "abc" }}', 'abc'],
			['={{ "" }}', ''],
		])('Limit %j is refused before sending', async (limit, shown) => {
			const outcome = await run({ resource: 'project', operation: 'getAll', returnAll: false, limit });
			expect(outcome.message).toBe(`Limit must be a whole number of 1 or more: "${shown}"`);
			expect(apiRequests()).toEqual([]);
		});

		it('Report: Limit 0 is refused before sending', async () => {
			const outcome = await run(report({ returnAll: false, limit: 0 }));
			expect(outcome.message).toBe('Limit must be a whole number of 1 or more: "0"');
			expect(apiRequests()).toEqual([]);
		});

		it('Limit 1 gives one item', async () => {
			env.fake.on('core', 'GET', '/api/v4/integration/projects', json(200, [{ id: 'a' }, { id: 'b' }]));
			const outcome = await run({ resource: 'project', operation: 'getAll', returnAll: false, limit: 1 });
			expect(outcome.items.map((i) => i.json.id)).toEqual(['a']);
		});
	});

	describe('empty ids', () => {
		it.each([
			[
				'User → Get',
				{ resource: 'user', operation: 'get', user: rl('employeeNumber', '={{ "" }}') },
				'User is empty',
			],
			[
				'Document → Download',
				{
					resource: 'document',
					operation: 'download',
					project: rl('id', PROJECT_ID),
					fileReferenceId: '={{ "" }}',
				},
				'File Reference ID is empty',
			],
			[
				'Document → Download, no project',
				{ resource: 'document', operation: 'download', project: rl('id', ' '), fileReferenceId: 'f-1' },
				'Project is empty',
			],
			[
				'Lookup → Download File',
				{ resource: 'lookup', operation: 'downloadFile', fileReferenceId: '   ' },
				'File Reference ID is empty',
			],
			[
				'Project → Delete',
				{ resource: 'project', operation: 'delete', project: rl('id', '={{ " " }}') },
				'Project is empty',
			],
			[
				'Employee → Delete',
				{ resource: 'employee', operation: 'delete', employee: rl('employeeNumber', '={{ $json.missing }}') },
				'Employee is empty',
			],
		])('%s with an empty id is refused before sending', async (_name, parameters, message) => {
			const outcome = await run(parameters as INodeParameters, true);
			expect(outcome.items[0].json.error).toBe(message);
			expect(env.fake.seen).toEqual([]);
		});
	});

	describe('Upload succeeds only on a 2xx JSON answer', () => {
		const upload = async (reply: Reply) => {
			env.fake.on('core', 'POST', documentUpload.main.path, reply);
			return await documentUpload.run(env, {
				continueOnFail: true,
			});
		};

		it.each([
			[
				'a 302 to a login page',
				redirect(302, '/login'),
				/redirect to 127\.0\.0\.1:\d+; the request was not sent there/,
			],
			['a 303 See Other', redirect(303, '/documents/1'), /redirect .* not sent there/],
			[
				'a 304 without a redirect',
				(_request, res) => void res.writeHead(304).end(),
				/answered 304 without saying where to go/,
			],
			['a 200 web page', html(200), /does not point at the Field Ops API/],
			['a 200 that is not JSON', text(200, 'Upload OK'), /not readable JSON/],
			['a 200 with nothing', text(200, '', 'application/json'), /answered the document request with nothing/],
			[
				'a 204',
				(_request, res) => void res.writeHead(204).end(),
				/answered the document request with nothing/,
			],
			[
				'a 200 JSON list',
				json(200, [{ name: 'a.pdf' }]),
				/answered the upload with something other than an upload result/,
			],
		] as Array<[string, Reply, RegExp]>)('%s is an error', async (_name, reply, message) => {
			const outcome = await upload(reply);
			expect(outcome.items).toHaveLength(1);
			expect(outcome.items[0].json.error).toMatch(message);
			expect(env.fake.requests('core', 'POST')).toHaveLength(1);
			expectNoSecrets(outcome);
		});

		it('a 201 with the upload result is a success', async () => {
			const outcome = await upload(json(201, { successful: true, files: [] }));
			expect(outcome.items[0].json).toEqual({
				fileName: 'a.pdf',
				binaryPropertyName: 'data',
				successful: true,
				files: [],
			});
		});
	});
});
