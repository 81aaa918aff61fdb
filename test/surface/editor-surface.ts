/**
 * The editor surface of the package, held against a snapshot so that saved workflows keep working. The snapshot
 * (`editor-surface.snapshot.json`) is the nodes' and the credential's descriptions as n8n loaded them from dist/
 * before issue #29 moved the code. Both it and the current build are read as flat facts: `"<node> v<version>
 * <context> <path>" → what the editor shows there`, where a context is one choice of the node's selectors
 * (Resource and Operation, or the trigger's Trigger On). A parameter is a fact in every version and context it
 * shows in, with its display rules on those selectors and on `@version` resolved and its other rules kept as they
 * are; each option, collection entry and locator mode is a fact of its own. So work that adds an operation, an
 * option, a parameter or a node version adds facts; removing, renaming, retyping, re-defaulting, relabelling or
 * showing under other conditions changes one.
 *
 * `npx tsx test/surface/editor-surface.ts --write` (after `npm run build`) takes the snapshot anew: only for a
 * change of the surface that is meant, and read its diff.
 */
import 'reflect-metadata';

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import type {
	ICredentialType,
	IDisplayOptions,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

export type Surface = Record<string, unknown>;

export const SNAPSHOT = join(__dirname, 'editor-surface.snapshot.json');
const PACKAGE_ROOT = resolve(__dirname, '..', '..');

/**
 * The parameters whose choice decides which others show, per node (in the order they are chosen); a selector a
 * version does not have (the trigger's node-creator entry before 1.1) is no part of its contexts.
 */
const SELECTORS: Record<string, string[]> = {
	fieldOps: ['resource', 'operation'],
	fieldOpsTrigger: ['entry', 'feed'],
};

type Choice = Record<string, unknown>;
type Condition = Record<string, unknown>;

function conditionHolds(condition: Condition, value: unknown): boolean {
	const [[operator, target]] = Object.entries(condition);
	const number = value as number;
	switch (operator) {
		case 'eq':
			return value === target;
		case 'not':
			return value !== target;
		case 'gte':
			return number >= (target as number);
		case 'lte':
			return number <= (target as number);
		case 'gt':
			return number > (target as number);
		case 'lt':
			return number < (target as number);
		case 'between': {
			const { from, to } = target as { from: number; to: number };
			return number >= from && number <= to;
		}
		case 'startsWith':
			return typeof value === 'string' && value.startsWith(target as string);
		case 'endsWith':
			return typeof value === 'string' && value.endsWith(target as string);
		default:
			throw new Error(`editor-surface: display condition ${operator} is not known here; add it`);
	}
}

const allows = (listed: unknown, value: unknown) =>
	(Array.isArray(listed) ? listed : [listed]).some((entry) =>
		entry !== null && typeof entry === 'object' && '_cnd' in entry
			? conditionHolds((entry as { _cnd: Condition })._cnd, value)
			: entry === value,
	);

/**
 * Whether a parameter shows for `choice` (the selectors and `@version`), and the rules left on other parameters.
 * Inside a collection a root parameter is written with a leading slash.
 */
function resolveDisplay(
	display: IDisplayOptions | undefined,
	choice: Choice,
	nested: boolean,
): { shows: boolean; rest?: IDisplayOptions } {
	const rest: IDisplayOptions = {};
	let shows = true;
	for (const kind of ['show', 'hide'] as const) {
		for (const [key, listed] of Object.entries(display?.[kind] ?? {})) {
			// n8n reads `@feature` from the node's declared features; these nodes declare none: never a match.
			if (key === '@feature') {
				if (kind === 'show') shows = false;
				continue;
			}
			// `@version` and `@tool` everywhere; a selector at the root, or from inside a collection with its slash.
			const root = key.startsWith('/') ? key.slice(1) : nested && !key.startsWith('@') ? undefined : key;
			if (root === undefined || !(root in choice)) {
				(rest[kind] ??= {})[key] = listed;
				continue;
			}
			const hit = allows(listed, choice[root]);
			if (kind === 'show' ? !hit : hit) shows = false;
		}
	}
	return { shows, rest: Object.keys(rest).length > 0 ? rest : undefined };
}

const defined = (fact: Record<string, unknown>) =>
	Object.fromEntries(Object.entries(fact).filter(([, value]) => value !== undefined));

const isCollectionGroup = (option: unknown): option is INodePropertyCollection =>
	typeof option === 'object' && option !== null && 'values' in option;
const isProperty = (option: unknown): option is INodeProperties =>
	typeof option === 'object' && option !== null && 'type' in option && 'displayName' in option;

/** The facts of one parameter (and of its options, entries and modes) under `prefix`. */
function parameterFacts(
	into: Surface,
	prefix: string,
	property: INodeProperties,
	choice: Choice,
	nested: boolean,
): void {
	const { shows, rest } = resolveDisplay(property.displayOptions, choice, nested);
	if (!shows) return;
	const path = `${prefix}${property.name}`;
	const fact = defined({
		displayName: property.displayName,
		type: property.type,
		default: property.default,
		required: property.required || undefined,
		noDataExpression: property.noDataExpression || undefined,
		typeOptions: property.typeOptions,
		displayOptions: rest,
	});
	if (path in into && JSON.stringify(into[path]) !== JSON.stringify(fact))
		throw new Error(`editor-surface: two different parameters ${path} show together; tell them apart here`);
	into[path] = fact;
	for (const mode of property.modes ?? [])
		into[`${path} mode ${mode.name}`] = defined({ displayName: mode.displayName, type: mode.type });
	for (const option of property.options ?? []) {
		if (isProperty(option)) parameterFacts(into, `${path}.`, option, choice, true);
		else if (isCollectionGroup(option)) {
			into[`${path}.${option.name}`] = { displayName: option.displayName };
			for (const value of option.values) parameterFacts(into, `${path}.${option.name}.`, value, choice, true);
		} else {
			const { name, value } = option as INodePropertyOptions;
			into[`${path} = ${JSON.stringify(value)}`] = name;
		}
	}
}

/** Every choice of the selectors that the node offers in one version, e.g. `{ resource, operation }`. */
function choicesOf(properties: INodeProperties[], selectors: string[], version: number): Choice[] {
	// The editor's node (an AI agent's tool shows the `@tool` variants instead).
	let choices: Choice[] = [{ '@version': version, '@tool': false }];
	for (const selector of selectors)
		choices = choices.flatMap((choice) => {
			const shown = properties.filter(
				(p) => p.name === selector && resolveDisplay(p.displayOptions, choice, false).shows,
			);
			if (shown.length === 0) return [choice];
			return shown
				.flatMap((p) => (p.options ?? []) as INodePropertyOptions[])
				.map((option) => ({ ...choice, [selector]: option.value }));
		});
	return choices;
}

export function nodeSurface(description: PackageSurface['nodes'][number]): Surface {
	const surface: Surface = {};
	const node = description.name;
	const versions = Array.isArray(description.version) ? description.version : [description.version];
	const selectors = SELECTORS[node] ?? [];
	surface[`${node}`] = { displayName: description.displayName };
	for (const version of versions) {
		surface[`${node} v${version}`] = true;
		for (const choice of choicesOf(description.properties, selectors, version)) {
			const context = selectors
				.filter((selector) => selector in choice)
				.map((selector) => String(choice[selector]))
				.join(':');
			const facts: Surface = {};
			for (const property of description.properties) parameterFacts(facts, '', property, choice, false);
			for (const [path, fact] of Object.entries(facts))
				surface[`${node} v${version} ${context || '-'} ${path}`] = fact;
		}
	}
	for (const credential of description.credentials ?? [])
		surface[`${node} credential ${credential.name}`] = defined({ required: credential.required });
	return surface;
}

export function credentialSurface(credential: PackageSurface['credentials'][number]): Surface {
	const facts: Surface = {};
	for (const property of credential.properties) parameterFacts(facts, '', property, {}, false);
	const surface: Surface = { [credential.name]: { displayName: credential.displayName } };
	for (const [path, fact] of Object.entries(facts)) surface[`${credential.name} ${path}`] = fact;
	return surface;
}

/** What the snapshot keeps of the package: each node's and credential's description as n8n loaded it. */
export interface PackageSurface {
	nodes: Array<Pick<INodeTypeDescription, 'name' | 'displayName' | 'version' | 'properties' | 'credentials'>>;
	credentials: Array<Pick<ICredentialType, 'name' | 'displayName' | 'properties'>>;
}

/** The package as n8n loads it from dist/ (build first). */
export async function builtPackage(): Promise<PackageSurface> {
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'fieldops-surface-'));
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const core = require('n8n-core') as typeof import('n8n-core');
	const loader = new core.PackageDirectoryLoader(PACKAGE_ROOT);
	await loader.loadAll();
	const nodes = Object.values(loader.nodeTypes).map(({ type }) => {
		const { name, displayName, version, properties, credentials } = (
			type as { description: INodeTypeDescription }
		).description;
		return { name, displayName, version, properties, credentials };
	});
	const credentials = Object.values(loader.credentialTypes).map(({ type }) => ({
		name: type.name,
		displayName: type.displayName,
		properties: type.properties,
	}));
	// Through JSON, as the editor receives it (and as the snapshot holds it).
	return JSON.parse(JSON.stringify({ nodes, credentials })) as PackageSurface;
}

export function surfaceOf(pkg: PackageSurface): Surface {
	const surface: Surface = {};
	for (const node of pkg.nodes) Object.assign(surface, nodeSurface(node));
	for (const credential of pkg.credentials) Object.assign(surface, credentialSurface(credential));
	return surface;
}

/**
 * What of `snapshot` the current surface lost or changed, one line each; empty when every fact of the snapshot
 * is still there as it was (facts the snapshot does not know, such as a new operation or version, are allowed).
 */
export function surfaceChanges(snapshot: Surface, current: Surface): string[] {
	const changes: string[] = [];
	for (const [key, was] of Object.entries(snapshot)) {
		if (!(key in current)) changes.push(`gone: ${key}`);
		else if (JSON.stringify(current[key]) !== JSON.stringify(was))
			changes.push(`changed: ${key}: ${JSON.stringify(was)} → ${JSON.stringify(current[key])}`);
	}
	return changes;
}

if (require.main === module && process.argv.includes('--write')) {
	void (async () => {
		const pkg = await builtPackage();
		const prettier = await import('prettier');
		const options = await prettier.resolveConfig(SNAPSHOT);
		const text = await prettier.format(JSON.stringify(pkg), { ...options, filepath: SNAPSHOT });
		writeFileSync(SNAPSHOT, text);
		console.log(`${Object.keys(surfaceOf(pkg)).length} facts of the surface written to ${SNAPSHOT}`);
	})();
}
