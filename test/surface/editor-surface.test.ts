import { readFileSync } from 'node:fs';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { SNAPSHOT, builtPackage, surfaceChanges, surfaceOf, type PackageSurface } from './editor-surface';

const snapshot = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as PackageSurface;
const copy = () => JSON.parse(JSON.stringify(snapshot)) as PackageSurface;
const fieldOps = (pkg: PackageSurface) => pkg.nodes.find((node) => node.name === 'fieldOps')!;
const trigger = (pkg: PackageSurface) => pkg.nodes.find((node) => node.name === 'fieldOpsTrigger')!;
/** The parameter shown for one operation (first match), e.g. Project → Get Many's Limit. */
const parameterOf = (pkg: PackageSurface, name: string, resource: string, operation: string) =>
	fieldOps(pkg).properties.find(
		(p) =>
			p.name === name &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	)!;
const changesAfter = (change: (pkg: PackageSurface) => void) => {
	const changed = copy();
	change(changed);
	return surfaceChanges(surfaceOf(snapshot), surfaceOf(changed));
};

describe('editor surface against the snapshot taken before issue #29 moved the code', () => {
	it('the build shows every parameter, option and version of the snapshot as it was', async () => {
		const changes = surfaceChanges(surfaceOf(snapshot), surfaceOf(await builtPackage()));
		expect(changes).toEqual([]);
	});

	it('reads the snapshot per version and per operation', () => {
		const surface = surfaceOf(snapshot);
		expect(surface['fieldOps v1.2 report:timeRegistrations period']).toMatchObject({ default: 'lastWeek' });
		expect(surface['fieldOps v1.1 report:timeRegistrations period']).toMatchObject({ default: 'custom' });
		expect(surface['fieldOps v1 report:timeRegistrations simplify']).toMatchObject({ default: false });
		expect(surface['fieldOps v1.2 project:getAll limit']).toMatchObject({
			default: 50,
			displayOptions: { show: { returnAll: [false] } },
		});
		expect(surface['fieldOpsTrigger v1 images options.waitForRoadReference']).toMatchObject({
			type: 'boolean',
		});
		expect(surface['fieldOpsTrigger v1 projects options.waitForRoadReference']).toBeUndefined();
		expect(surface['fieldOpsOAuth2Api clientSecret']).toMatchObject({ type: 'string' });
	});

	it('reads the trigger from 1.1 per node-creator entry, and never a parameter shown only with an @feature', async () => {
		const surface = surfaceOf(await builtPackage());
		expect(surface['fieldOpsTrigger v1.1 timeRegistrations.changed:timeRegistrations events']).toMatchObject({
			default: ['changed'],
		});
		expect(surface['fieldOpsTrigger v1.1 timeRegistrations.changed:images feed']).toMatchObject({
			default: 'timeRegistrations',
		});
		expect(surface['fieldOpsTrigger v1 incidentRegistrations events']).toMatchObject({
			default: ['new', 'changed', 'deleted'],
		});
		expect(surface['fieldOps v1.3 report:timeRegistrations returnAll']).toMatchObject({ default: true });
		// The node creator's everyday entries are no part of what the panel shows.
		expect(Object.keys(surface).filter((key) => key.includes('everyday'))).toEqual([]);
	});

	describe('fails on', () => {
		it('a renamed parameter', () => {
			const changes = changesAfter((pkg) => (parameterOf(pkg, 'limit', 'project', 'getAll').name = 'max'));
			expect(changes).toContain('gone: fieldOps v1 project:getAll limit');
		});

		it('a changed default, in one node version only', () => {
			const changes = changesAfter((pkg) => {
				const period = fieldOps(pkg).properties.find((p) => p.name === 'period' && p.default === 'custom')!;
				period.default = 'lastWeek';
			});
			expect(changes).toContain(
				'changed: fieldOps v1.1 report:timeRegistrations period: {"displayName":"Period","type":"options","default":"custom","noDataExpression":true,"displayOptions":{"show":{"syncMode":["window"]}}} → {"displayName":"Period","type":"options","default":"lastWeek","noDataExpression":true,"displayOptions":{"show":{"syncMode":["window"]}}}',
			);
			expect(changes.some((line) => line.includes(' v1.2 '))).toBe(false);
		});

		it('a relabelled option, a retyped parameter and a removed operation', () => {
			expect(
				changesAfter((pkg) => {
					const sources = trigger(pkg)
						.properties.find((p) => p.name === 'filters')!
						.options!.find((o) => (o as INodeProperties).name === 'sources') as INodeProperties;
					(sources.options![0] as INodePropertyOptions).name = 'Alarms';
				}),
			).toContain('changed: fieldOpsTrigger v1 images filters.sources = "alert": "Alerts" → "Alarms"');
			expect(
				changesAfter((pkg) => (parameterOf(pkg, 'limit', 'project', 'getAll').type = 'string')),
			).toContain(
				'changed: fieldOps v1 project:getAll limit: {"displayName":"Limit","type":"number","default":50,"typeOptions":{"minValue":1},"displayOptions":{"show":{"returnAll":[false]}}} → {"displayName":"Limit","type":"string","default":50,"typeOptions":{"minValue":1},"displayOptions":{"show":{"returnAll":[false]}}}',
			);
			const removed = changesAfter((pkg) => {
				const operation = fieldOps(pkg).properties.find(
					(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('project'),
				)!;
				operation.options = (operation.options as INodePropertyOptions[]).filter((o) => o.value !== 'delete');
			});
			expect(removed).toContain('gone: fieldOps v1.2 project:delete operation');
			expect(removed).toContain('gone: fieldOps v1.2 project:getAll operation = "delete"');
		});

		it('a parameter shown under other conditions', () => {
			const changes = changesAfter((pkg) => {
				const limit = parameterOf(pkg, 'limit', 'project', 'getAll');
				limit.displayOptions = { show: { ...limit.displayOptions!.show, returnAll: [true] } };
			});
			expect(changes).toContain(
				'changed: fieldOps v1.2 project:getAll limit: {"displayName":"Limit","type":"number","default":50,"typeOptions":{"minValue":1},"displayOptions":{"show":{"returnAll":[false]}}} → {"displayName":"Limit","type":"number","default":50,"typeOptions":{"minValue":1},"displayOptions":{"show":{"returnAll":[true]}}}',
			);
			const hidden = changesAfter((pkg) => {
				const waitFor = trigger(pkg)
					.properties.find((p) => p.name === 'options')!
					.options!.find((o) => (o as INodeProperties).name === 'waitForRoadReference') as INodeProperties;
				waitFor.displayOptions = { show: { '/feed': ['projects'] } };
			});
			expect(hidden).toContain('gone: fieldOpsTrigger v1 images options.waitForRoadReference');
		});
	});

	describe('allows', () => {
		it('a new operation with its own parameter, and a new option of an existing parameter', () => {
			const changes = changesAfter((pkg) => {
				const node = fieldOps(pkg);
				const operation = node.properties.find(
					(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('project'),
				)!;
				(operation.options as INodePropertyOptions[]).push({ name: 'Create or Update', value: 'upsert' });
				node.properties.push({
					displayName: 'Match On',
					name: 'matchOn',
					type: 'options',
					default: 'projectNumber',
					options: [{ name: 'Project Number', value: 'projectNumber' }],
					displayOptions: { show: { resource: ['project'], operation: ['upsert'] } },
				});
				const limit = parameterOf(pkg, 'limit', 'project', 'getAll');
				limit.displayOptions!.show!.operation = [...limit.displayOptions!.show!.operation!, 'upsert'];
				const sources = trigger(pkg)
					.properties.find((p) => p.name === 'filters')!
					.options!.find((o) => (o as INodeProperties).name === 'sources') as INodeProperties;
				(sources.options as INodePropertyOptions[]).push({ name: 'Reports', value: 'report' });
			});
			expect(changes).toEqual([]);
		});

		it('a new node version whose new defaults leave the older versions theirs', () => {
			const changes = changesAfter((pkg) => {
				const node = fieldOps(pkg);
				node.version = [1, 1.1, 1.2, 1.3];
				const limit = parameterOf(pkg, 'limit', 'project', 'getAll');
				limit.displayOptions!.show!['@version'] = [{ _cnd: { lte: 1.2 } }];
				node.properties.push({
					...limit,
					default: 100,
					displayOptions: { show: { ...limit.displayOptions!.show, '@version': [{ _cnd: { gte: 1.3 } }] } },
				});
			});
			expect(changes).toEqual([]);
		});
	});
});
