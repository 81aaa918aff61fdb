import { buildRouter } from './server';
import { call, tokenFor, useSandbox } from '../helpers/sandbox';

/**
 * Bad input never gets a 500 and never takes the sandbox down: every route gets malformed JSON, wrong types,
 * a huge body, broken multipart, odd path values and malformed query values.
 */
const BODIES: Array<[string, string, string]> = [
	['malformed JSON', '{"companyId": ', 'application/json'],
	['an array of numbers', '[1, 2, 3]', 'application/json'],
	[
		'wrong types',
		'{"companyId": 5, "employeeNumber": [], "startDate": true, "projectId": {}}',
		'application/json',
	],
	['a bare string', '"hello"', 'application/json'],
	['null', 'null', 'application/json'],
	['a huge string field', JSON.stringify({ name: 'x'.repeat(1_000_000) }), 'application/json'],
	[
		'broken multipart',
		'--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nno end',
		'multipart/form-data; boundary=b',
	],
	['form data', 'a=1&b=2', 'application/x-www-form-urlencoded'],
];
const PATH_VALUES = ['x', '..', 'a/b', 'a|b', '%', ' ', 'ø'];
const QUERY = {
	ChunkLimit: 'lots',
	ModifiedSince: 'yesterday',
	ModifiedBefore: '2020-13-45',
	FromDateTime: '1.1.2020',
	Sources: 'camera',
	activeInactiveAll: '7',
	includeEquipmentDetails: 'maybe',
	MaxDimension: 'big',
	include: 'everything',
	changedSince: '-',
	employmentLookbackDays: '-3',
};

describe('sandbox: bad input', () => {
	const sb = useSandbox({ split: false });
	const routes = buildRouter()
		.list()
		.filter((route) => !route.template.startsWith('/__sandbox'));
	let token: string;

	beforeAll(async () => {
		token = await tokenFor(sb());
	});

	it('answers every route and every kind of bad input with a 4xx, never a 500', async () => {
		const failures: string[] = [];
		const statuses = new Set<number>();
		for (const route of routes) {
			for (const value of PATH_VALUES) {
				const path = route.template.replace(/\{[^}]+\}/g, encodeURIComponent(value));
				const bodies = route.method === 'GET' || route.method === 'DELETE' ? [['no body', '', '']] : BODIES;
				for (const [what, body, contentType] of bodies) {
					const res = await call(sb().coreUrl, path, {
						method: route.method,
						token,
						query: route.method === 'GET' ? QUERY : undefined,
						body: body || undefined,
						headers: contentType ? { 'content-type': contentType } : {},
					});
					statuses.add(res.status);
					if (res.status >= 500)
						failures.push(
							`${route.method} ${path} with ${what}: ${res.status} ${res.raw.toString().slice(0, 120)}`,
						);
				}
			}
		}
		expect(failures).toEqual([]);
		// The requests reached the handlers: validation (400), access (403), unknown ids (404).
		expect([...statuses].sort()).toEqual(expect.arrayContaining([400, 403, 404]));
		expect(routes.length).toBeGreaterThan(60);
		expect((await call(sb().coreUrl, '/__sandbox/clock')).status).toBe(200);
	});
});
