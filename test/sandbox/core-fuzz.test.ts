import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { buildRouter } from './server';
import { COMPANY_IDS } from './seed';

/** Bodies no core route accepts where it expects one JSON object. */
const BAD_BODIES: [string, string][] = [
	['malformed JSON', '{"companyId": '],
	['trailing garbage', '{"companyId": "x"} and more'],
	['an empty body', ''],
	['null', 'null'],
	['a bare string', '"hello"'],
	['a number', '42'],
	['an array instead of an object', '[{"companyId": "x"}]'],
	[
		'wrong types',
		JSON.stringify({
			companyId: 5,
			projectNumber: [],
			projectId: {},
			externalId: true,
			machineNumber: null,
			fuelType: 'diesel',
		}),
	],
	[
		'a huge string in every key field',
		JSON.stringify({
			companyId: COMPANY_IDS.main,
			projectNumber: 'x'.repeat(1_000_000),
			projectId: 'y'.repeat(1_000_000),
			externalId: 'z'.repeat(1_000_000),
			machineNumber: 'w'.repeat(1_000_000),
			fuelType: 1,
		}),
	],
	[
		'a huge name',
		JSON.stringify({
			companyId: COMPANY_IDS.main,
			projectNumber: 'F-1',
			externalId: 'F-1',
			machineNumber: 'F-1',
			name: 'n'.repeat(2_000_000),
		}),
	],
	[
		'an infinite number',
		`{"companyId": "${COMPANY_IDS.main}", "projectNumber": "F-2", "externalId": "F-2", "machineNumber": "F-2", "estimatedHourQty": 1e400, "weight": 1e400, "fuelConsumptionRate": 1e400}`,
	],
	['deep nesting', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
	['a __proto__ key', `{"__proto__": {"administrator": true}, "companyId": "${COMPANY_IDS.main}"}`],
];

describe('sandbox core: fuzzed bodies', () => {
	const sb = useSandbox();
	let token: string;
	const ids: Record<string, string> = {};

	beforeAll(async () => {
		token = await tokenFor(sb());
		const world = sb().sandbox.world;
		const project = [...world.projects.values()].find((p) => p.companyId === COMPANY_IDS.main)!;
		ids.projects = project.id;
		ids.tasks = [...world.tasks.values()].find((t) => t.projectId === project.id)!.id;
		ids.machines = [...world.machines.values()].find((m) => m.companyId === COMPANY_IDS.main)!.id;
	});

	/** Every route of the core module that reads a JSON object body, with real ids so the body is what gets checked. */
	const bodyRoutes = () =>
		buildRouter()
			.list()
			.filter((route) => route.api === 'core' && ['POST', 'PUT', 'PATCH'].includes(route.method))
			.filter(
				(route) =>
					/^\/api\/v4\/integration\/(projects|tasks|machines)\b/.test(route.template) ||
					route.template === '/__sandbox/template',
			)
			.filter((route) => !route.template.endsWith('/array'))
			.map((route) => ({
				...route,
				path: route.template.replace(
					/\/(projects|tasks|machines)\/\{id\}/,
					(_, kind: string) => `/${kind}/${ids[kind]}`,
				),
			}));

	it('answers every bad body on every core write route with a 400, never a 500, and changes nothing', async () => {
		const world = sb().sandbox.world;
		const before = { projects: world.projects.size, tasks: world.tasks.size, machines: world.machines.size };
		const routes = bodyRoutes();
		expect(routes.map((r) => `${r.method} ${r.template}`)).toEqual(
			expect.arrayContaining([
				'POST /api/v4/integration/projects',
				'PATCH /api/v4/integration/machines/{id}/esg',
				'POST /api/v4/integration/tasks/{id}/documents',
				'POST /__sandbox/template',
			]),
		);
		const wrong: string[] = [];
		for (const route of routes) {
			for (const [what, body] of BAD_BODIES) {
				const res = await call(sb().coreUrl, route.path, {
					method: route.method,
					token,
					body,
					headers: { 'content-type': 'application/json' },
				});
				if (res.status !== 400)
					wrong.push(
						`${route.method} ${route.template} with ${what}: ${res.status} ${res.raw.toString().slice(0, 100)}`,
					);
			}
		}
		expect(wrong).toEqual([]);
		expect({ projects: world.projects.size, tasks: world.tasks.size, machines: world.machines.size }).toEqual(
			before,
		);
		expect((await call(sb().coreUrl, '/api/v4/integration/projects', { token })).status).toBe(200);
	});

	it('answers bodies that are not arrays on the bulk routes with a 400, and bad elements one by one', async () => {
		for (const [method, path] of [
			['POST', '/api/v4/integration/machines/create/array'],
			['PUT', '/api/v4/integration/machines/update/array'],
		]) {
			for (const body of ['{"companyId": "x"}', '{', '"x"', 'null', '']) {
				expect(
					(
						await call(sb().coreUrl, path, {
							method,
							token,
							body,
							headers: { 'content-type': 'application/json' },
						})
					).status,
				).toBe(400);
			}
			const elements = [
				null,
				42,
				'x',
				[],
				{ companyId: 5 },
				{ id: 'x'.repeat(100_000), machineNumber: 'y'.repeat(100_000), companyId: COMPANY_IDS.main },
			];
			const res = await call(sb().coreUrl, path, { method, token, json: elements });
			expect(res.status).toBe(200);
			expect(res.body.map((r: { index: number; success: boolean }) => [r.index, r.success])).toEqual(
				elements.map((_, index) => [index, false]),
			);
		}
	});

	it('keeps answering after a body over the size limit', async () => {
		const huge = JSON.stringify({
			companyId: COMPANY_IDS.main,
			projectNumber: 'H-1',
			description: 'd'.repeat(6 * 1024 * 1024),
		});
		const res = await call(sb().coreUrl, '/api/v4/integration/projects', {
			method: 'POST',
			token,
			body: huge,
			headers: { 'content-type': 'application/json' },
		});
		expect(res.status).toBeGreaterThanOrEqual(400);
		expect(res.status).toBeLessThan(500);
		expect((await call(sb().coreUrl, '/api/v4/integration/projects', { token })).status).toBe(200);
	});
});
