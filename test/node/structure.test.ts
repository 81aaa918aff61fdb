import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { FieldOps } from '../../nodes/FieldOps/FieldOps.node';
import { FieldOpsTrigger } from '../../nodes/FieldOpsTrigger/FieldOpsTrigger.node';
import { RESOURCES } from '../../nodes/FieldOps/resources';
import { LOOKUP_PATHS } from '../../nodes/FieldOps/lookups/records';
import type { Field } from '../../nodes/FieldOps/parameters/field';
import { fieldsOf, requestsOf, type Operation } from '../../nodes/FieldOps/operations/operation';
import { REPORT_FEEDS } from '../../nodes/FieldOps/reporting/feeds';
import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';
import { operationSamples } from './operation-samples';

const RESOURCES_DIR = join(__dirname, '..', '..', 'nodes', 'FieldOps', 'resources');
const isOperation = (value: unknown): value is Operation =>
	typeof value === 'object' &&
	value !== null &&
	'value' in value &&
	('request' in value || 'execute' in value);
/** `GET /api/projects/{id}` and `GET /api/projects/{projId}` name the same URL. */
const route = (method: string, path: string) => `${method} ${path.replace(/\{\w+\}/g, '{}')}`;
const ALL = RESOURCES.flatMap((resource) =>
	resource.operations.map((operation) => ({ resource, operation })),
);

describe('Field Ops node structure', () => {
	it('has exactly one module per operation; a module holds one operation', () => {
		for (const resource of RESOURCES) {
			const holders = new Map<Operation, string[]>();
			for (const file of readdirSync(join(RESOURCES_DIR, resource.value)).filter(
				(f) => f.endsWith('.ts') && f !== 'index.ts',
			)) {
				// eslint-disable-next-line @typescript-eslint/no-require-imports -- every module of the folder, by file name
				const exported = Object.values(require(join(RESOURCES_DIR, resource.value, file)) as object).filter(
					isOperation,
				);
				expect({ file, operations: exported.length }).toEqual({
					file,
					operations: Math.min(exported.length, 1),
				});
				for (const operation of exported) holders.set(operation, [...(holders.get(operation) ?? []), file]);
			}
			for (const operation of resource.operations) {
				// Reports are the one exception: export.ts builds one operation per row of the feeds table.
				const expected = resource.value === 'report' ? [] : [expect.any(String)];
				expect({
					operation: `${resource.value}.${operation.value}`,
					modules: holders.get(operation) ?? [],
				}).toEqual({
					operation: `${resource.value}.${operation.value}`,
					modules: expected,
				});
			}
		}
		expect(RESOURCES.find((r) => r.value === 'report')?.operations.map((o) => o.value)).toEqual(
			REPORT_FEEDS.map((f) => f.value),
		);
	});

	it('runs every option it offers: each is an operation with a request or an implementation', () => {
		const properties = new FieldOps().description.properties;
		for (const resource of RESOURCES) {
			const list = properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === resource.value,
			);
			const offered = (list?.options as Array<{ value: string }>).map((option) => option.value).sort();
			expect(offered).toEqual(resource.operations.map((o) => o.value).sort());
			expect(resource.operations.map((o) => o.value)).toContain(list?.default);
			for (const operation of resource.operations) {
				const kinds = [
					'request' in operation,
					typeof (operation as { execute?: unknown }).execute === 'function',
				];
				expect({ operation: operation.value, kinds }).toEqual({
					operation: operation.value,
					kinds: expect.arrayContaining([true, false]),
				});
			}
		}
	});

	it('writes where each field shows at the field: exactly the operations that use it', () => {
		for (const resource of RESOURCES) {
			const usage = new Map<Field, string[]>();
			for (const operation of resource.operations)
				for (const field of fieldsOf(operation))
					usage.set(field, [...(usage.get(field) ?? []), operation.value]);
			for (const [field, operations] of usage) {
				const show = field.property.displayOptions?.show ?? {};
				const where = `${resource.value}.${field.property.name}`;
				expect({ where, resource: show.resource, operations: [...(show.operation ?? [])].sort() }).toEqual({
					where,
					resource: [resource.value],
					operations: [...operations].sort(),
				});
			}
		}
	});

	it('shows every field of an operation with that operation, and nowhere else', () => {
		const properties = new FieldOps().description.properties;
		const shownFor = (p: INodeProperties, resource: string) =>
			p.displayOptions?.show?.resource?.includes(resource)
				? ((p.displayOptions.show.operation as string[]) ?? [])
				: [];
		// A field split by node version (Report's Simplify) or by being an agent's tool (Report's Return All) is one
		// parameter per case, told apart by `@version` and `@tool`.
		const versions = (p: INodeProperties) =>
			JSON.stringify([
				p.displayOptions?.show?.['@version'] ?? null,
				p.displayOptions?.show?.['@tool'] ?? null,
			]);
		for (const { resource, operation } of ALL) {
			for (const field of fieldsOf(operation)) {
				const matching = properties.filter(
					(p) =>
						p.name === field.property.name &&
						versions(p) === versions(field.property) &&
						shownFor(p, resource.value).includes(operation.value),
				);
				expect({
					field: `${resource.value}.${operation.value}.${field.property.name}`,
					shown: matching.length,
				}).toEqual({
					field: `${resource.value}.${operation.value}.${field.property.name}`,
					shown: 1,
				});
			}
		}
	});

	// n8n 1.x orders a level's parameters by the names their displayOptions use and refuses the whole node ("Could
	// not resolve parameter dependencies") when one names neither a parameter of its level, nor `/root`, nor `@…`.
	it.each([
		['Field Ops', new FieldOps().description.properties],
		['Field Ops Trigger', new FieldOpsTrigger().description.properties],
	])(
		'%s: every displayOptions name is a parameter of its level, a /root path or @special (n8n 1.x)',
		(_node, top) => {
			interface Parameter {
				name: string;
				displayName?: string;
				displayOptions?: IDisplayOptions;
				options?: Parameter[];
				values?: Parameter[];
			}
			const unresolvable: string[] = [];
			const check = (level: Parameter[], at: string) => {
				const names = new Set(level.map((p) => p.name));
				for (const p of level) {
					for (const rule of Object.values(p.displayOptions ?? {}))
						for (const key of Object.keys(rule ?? {}))
							if (!/^[@/]/.test(key) && !names.has(key)) unresolvable.push(`${at}${p.name} → ${key}`);
					// A collection's options are parameters; a fixedCollection's hold them in `values`; plain options neither.
					const children = (p.options ?? [])
						.filter((o) => o.displayName !== undefined)
						.flatMap((o) => o.values ?? [o]);
					if (children.length > 0) check(children, `${at}${p.name}.`);
				}
			};
			check(top as unknown as Parameter[], '');
			expect(unresolvable).toEqual([]);
		},
	);
});

/**
 * How n8n's node creator matches a search (editor-ui nodeCreator.utils `searchNodes` → `sublimeSearch`): a node by its
 * display name or a codex alias, an action by its action text, each when every letter of the search appears in it in
 * order (case-insensitive; n8n then ranks the matches).
 */
const fuzzyMatches = (search: string, text: string) => {
	let at = 0;
	for (const char of text.toLowerCase()) if (char === search[at]?.toLowerCase()) at++;
	return at === search.length;
};

describe('Field Ops in the node creator: the words people use', () => {
	const codex = JSON.parse(
		readFileSync(join(__dirname, '..', '..', 'nodes', 'FieldOps', 'FieldOps.node.json'), 'utf8'),
	) as { alias: string[] };
	const action = (key: string) => {
		const [resource, operation] = key.split('.');
		return (
			RESOURCES.find((r) => r.value === resource)?.operations.find((o) => o.value === operation)?.action ?? ''
		);
	};
	it.each([
		['work orders', 'workOrder.getAll'],
		['workorders', 'workOrder.getAll'],
		['work order', 'workOrder.create'],
		['timesheets', 'report.timeRegistrations'],
		['timesheet', 'report.timeRegistrations'],
		['time registrations', 'report.timeRegistrations'],
		['hours', 'report.timeRegistrations'],
		['hour', 'report.timeRegistrations'],
		['excavator', 'machineState.create'],
		['excavators', 'machineState.create'],
		['attachments', 'document.upload'],
		['attachment', 'document.upload'],
		['documents', 'document.upload'],
		['document', 'document.upload'],
	])('"%s" finds the node by an alias and the action %s by its name', (word, key) => {
		expect(codex.alias.some((alias) => fuzzyMatches(word, alias))).toBe(true);
		expect({ word, action: action(key), matches: fuzzyMatches(word, action(key)) }).toEqual({
			word,
			action: action(key),
			matches: true,
		});
	});

	it('lists the common resources first: Work Order and Report before Lookup', () => {
		const order = RESOURCES.map((r) => r.value);
		expect(order.slice(0, 2)).toEqual(['workOrder', 'report']);
		expect(order[order.length - 1]).toBe('lookup');
		for (const resource of RESOURCES.filter((r) =>
			['workOrder', 'project', 'machine', 'employee', 'user'].includes(r.value),
		))
			expect(resource.operations.slice(0, 2).map((o) => o.value)).toEqual(['create', 'update']);
	});
});

describe('Field Ops operations send the requests they declare', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const stats = async () =>
		(await call(sb().coreUrl, '/__sandbox/stats')).body as { requests: Record<string, number> };
	const lookups = Object.values(LOOKUP_PATHS).map((path) => route('GET', path));

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
	});

	it('has a sample for every operation (the test below runs each)', () => {
		expect(Object.keys(operationSamples(sb())).sort()).toEqual(
			ALL.map(({ resource, operation }) => `${resource.value}.${operation.value}`).sort(),
		);
	});

	it.each(
		ALL.map(
			({ resource, operation }) =>
				[`${resource.value}.${operation.value}`, resource.value, operation] as const,
		),
	)('%s', async (key, resource, operation) => {
		const sample = operationSamples(sb())[key];
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		const result = await harness.run(
			fieldOpsWorkflow(
				{ resource, operation: operation.value, ...sample.parameters },
				{ continueOnFail: true },
			),
			{
				triggerItems: sample.items,
			},
		);
		expect(result.status).toBe('success');
		const received = Object.keys((await stats()).requests)
			.filter((request) => request !== 'POST /connect/token')
			.map((request) => route(request.split(' ')[0], request.split(' ')[1]));
		const declared = requestsOf(operation).map((request) => route(request.method, request.path));
		// The declared request is what the sandbox received; anything else is a lookup of a number the user gave.
		expect({ received, sentDeclared: received.some((request) => declared.includes(request)) }).toMatchObject({
			sentDeclared: true,
		});
		for (const request of received) expect([...declared, ...lookups]).toContain(request);
	});
});
