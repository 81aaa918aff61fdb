/**
 * The node in n8n's editor, driven by a browser (playwright-core with Debian's Chromium): signs in, adds Field Ops
 * through the node creator, switches the parameter panel through every resource and every operation n8n lists for
 * it, opens the credential and the trigger, and fails on any console or page error. Screenshots of a few panels go
 * to test-artifacts/editor/ (kept by CI, ignored by git).
 * Needs `npm run build`, `npx tsx scripts/n8n/install.ts` and Chromium (`apt-get install -y chromium`).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { useSandbox } from '../helpers/sandbox';
import { ROOT } from '../../scripts/n8n/install';
import { CREDENTIAL_TYPE, NODE_TYPE, OWNER, TRIGGER_NODE_TYPE, startN8n, type N8nInstance } from '../../scripts/n8n/run';
import { chooseOption, launchChromium, parameterInput, waitForValue, watchConsole, type ConsoleWatch } from './browser';
import { sandboxCredentialData } from './fixtures';

const ARTIFACTS = join(ROOT, 'test-artifacts', 'editor');
const CREDENTIAL_NAME = 'Field Ops sandbox';
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';
/** Panels saved as screenshots, `resource/operation`. */
const SCREENSHOTS: Record<string, string> = {
	'project/create': 'project-create',
	'report/timeRegistrations': 'report-time-registrations',
	'document/upload': 'document-upload',
};
/** Texts n8n shows when a panel or its options fail to load. */
const PANEL_ERRORS = [
	/There was a problem loading the parameters/i,
	/is not valid as its type .* is unknown/i,
	/Install this node to use it/i,
	/Error fetching options/i,
	/This node does not have any parameters/i,
];

interface Property {
	name: string;
	displayName: string;
	type: string;
	options?: { name: string; value: string; action?: string }[];
	displayOptions?: { show?: Record<string, unknown[]>; hide?: Record<string, unknown[]> };
}
interface NodeDescription {
	name: string;
	properties: Property[];
}

interface Operation {
	value: string;
	name: string;
	action?: string;
}
interface Resource {
	value: string;
	name: string;
	operations: Operation[];
}

/** Every resource and its operations as n8n serves the node to the editor (custom API call included). */
function resourcesOf(node: NodeDescription): Resource[] {
	const resource = node.properties.find((p) => p.name === 'resource');
	if (!resource?.options) throw new Error(`${node.name} has no resource options`);
	return resource.options.map((option) => ({
		value: option.value,
		name: option.name,
		operations: node.properties
			.filter((p) => p.name === 'operation' && (p.displayOptions?.show?.resource ?? []).includes(option.value))
			.flatMap((p) => p.options ?? []),
	}));
}

/**
 * Top-level parameters that depend only on resource and operation, so the panel must show them: visible as
 * `parameter-input-<name>`, or for collections their label.
 */
function expectedParameters(node: NodeDescription, resource: string, operation: string): Property[] {
	return node.properties.filter((p) => {
		const show = p.displayOptions?.show;
		if (!show || p.displayOptions?.hide || p.type === 'hidden' || p.type === 'notice') return false;
		if (Object.keys(show).some((key) => key !== 'resource' && key !== 'operation')) return false;
		return show.resource?.includes(resource) === true && (show.operation === undefined || show.operation.includes(operation));
	});
}

jest.setTimeout(180_000);

describe('Field Ops in the n8n editor (Chromium)', () => {
	const sb = useSandbox();
	let n8n: N8nInstance | undefined;
	let browser: Browser | undefined;
	let page: Page;
	let consoleWatch: ConsoleWatch;
	let node: NodeDescription;
	let trigger: NodeDescription;
	let credential: NodeDescription;
	const timings: Record<string, number> = {};

	beforeAll(async () => {
		// A fresh folder: no screenshot of an earlier failure stays behind.
		rmSync(ARTIFACTS, { recursive: true, force: true });
		mkdirSync(ARTIFACTS, { recursive: true });
		const started = Date.now();
		// n8n (package install + start) and the browser start side by side.
		const [n8nStart, browserStart] = await Promise.allSettled([
			(async () => {
				const instance = await startN8n();
				n8n = instance;
				await instance.setupOwner();
				await instance.createCredential(CREDENTIAL_NAME, CREDENTIAL_TYPE, sandboxCredentialData(sb()));
				return instance;
			})(),
			launchChromium(),
		]);
		if (browserStart.status === 'fulfilled') browser = browserStart.value;
		if (n8nStart.status === 'rejected') throw n8nStart.reason;
		if (browserStart.status === 'rejected') throw browserStart.reason;
		timings['n8n + Chromium start'] = (Date.now() - started) / 1000;

		const types = await n8nStart.value.get<NodeDescription[]>('/types/nodes.json');
		const find = (name: string) => {
			const found = types.body.find((n) => n.name === name);
			if (!found) throw new Error(`n8n does not list ${name}`);
			return found;
		};
		node = find(NODE_TYPE);
		trigger = find(TRIGGER_NODE_TYPE);
		const credentialTypes = await n8nStart.value.get<NodeDescription[]>('/types/credentials.json');
		const ours = credentialTypes.body.find((c) => c.name === CREDENTIAL_TYPE);
		if (!ours) throw new Error(`n8n does not list the credential type ${CREDENTIAL_TYPE}`);
		credential = ours;

		const context = await browser!.newContext({ viewport: { width: 1600, height: 1000 } });
		// No CSS transitions or animations: Playwright waits for an element to stand still before clicking it, and
		// each dropdown's opening transition would cost ~0.3 s on every one of ~100 choices.
		await context.addInitScript(`document.addEventListener('DOMContentLoaded', () => {
			const style = document.createElement('style');
			style.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; }';
			document.head.appendChild(style);
		});`);
		page = await context.newPage();
		page.setDefaultTimeout(20_000);
		consoleWatch = watchConsole(page);
	}, 240_000);

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
		if (consoleWatch?.allowed.length) console.log(`allowed console errors:\n${consoleWatch.allowed.join('\n')}`);
		console.log(`editor test timings (s): ${JSON.stringify(timings)}`);
	});

	const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });

	/** A step: timed, with a screenshot and n8n's log on failure, and failing on console errors it caused. */
	const step = (name: string, fn: () => Promise<void>, timeout?: number) =>
		it(
			name,
			async () => {
				const started = Date.now();
				try {
					await fn();
					const errors = consoleWatch.take();
					if (errors.length) throw new Error(`The editor logged ${errors.length} error(s):\n${errors.join('\n')}`);
				} catch (error) {
					await page?.screenshot({ path: join(ARTIFACTS, `failed-${name.replace(/\W+/g, '-').slice(0, 60)}.png`) }).catch(() => undefined);
					throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- n8n log ---\n${n8n?.logTail(20) ?? ''}`);
				} finally {
					timings[name] = (Date.now() - started) / 1000;
				}
			},
			timeout,
		);

	const ndv = () => page.getByTestId('ndv');
	const panel = () => ndv().getByTestId('node-parameters');

	interface PanelState {
		resource: string;
		/** `data-test-id`s of the parameter inputs shown. */
		inputs: string[];
		/** Labels of the parameters shown (first line, without the required mark). */
		labels: string[];
		text: string;
		toasts: string[];
	}

	/**
	 * What the parameter panel shows, in one round trip (runs in the page; tsconfig has no DOM types). n8n loads
	 * some parameter components (collections) asynchronously: with `expected` it polls up to `ms` until each of
	 * those parameters is there, by its input or its label.
	 */
	const panelState = (expected: Property[] = [], ms = 5_000) =>
		panel().evaluate(
			(root: any, [wanted, timeout]): Promise<PanelState> => {
				const all = (scope: any, selector: string): any[] => Array.from(scope.querySelectorAll(selector));
				const read = (): PanelState => ({
					resource: root.querySelector('[data-test-id="parameter-input-resource"] input')?.value ?? '',
					inputs: all(root, '[data-test-id^="parameter-input-"]').map((e) => e.getAttribute('data-test-id')),
					labels: all(root, '[data-test-id="input-label"]').map((e) => e.innerText.split('\n')[0].replace(/\s*\*$/, '').trim()),
					text: root.innerText,
					toasts: all(root.ownerDocument, '.el-notification')
						.filter((e) => e.checkVisibility())
						.map((e) => e.innerText.replace(/\s+/g, ' ')),
				});
				const until = Date.now() + timeout;
				return new Promise((resolve) => {
					const poll = () => {
						const state = read();
						const complete = wanted.every((p) => state.inputs.includes(`parameter-input-${p.name}`) || state.labels.includes(p.displayName));
						if (complete || Date.now() > until) resolve(state);
						else setTimeout(poll, 25);
					};
					poll();
				});
			},
			[expected.map(({ name, displayName }) => ({ name, displayName })), ms] as const,
		);

	/** n8n's error states in the parameter panel, and any toast on screen. */
	const problemsIn = (state: PanelState) => [
		...PANEL_ERRORS.filter((pattern) => pattern.test(state.text)).map((pattern) => `panel shows ${pattern}`),
		...state.toasts.map((toast) => `toast: ${toast}`),
	];
	const problemsOnScreen = async () => problemsIn(await panelState());

	step('signs in through the sign-in page', async () => {
		await page.goto(`${n8n!.url}/signin`);
		await page.getByTestId('emailOrLdapLoginId').locator('input').fill(OWNER.email);
		await page.getByTestId('password').locator('input').fill(OWNER.password);
		await page.getByTestId('form-submit-button').click();
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	});

	step('adds Field Ops through the node creator and opens its first action', async () => {
		await page.goto(`${n8n!.url}/workflow/new`);
		await page.getByTestId('canvas-plus-button').click();
		await page.getByTestId('node-creator-search-bar').fill('Field Ops');
		// Node and trigger are one entry ("Field Ops"); it opens the node's details with triggers and actions.
		await page.getByTestId('node-creator-item-name').filter({ hasText: /^Field Ops$/ }).first().click();
		const creator = page.getByTestId('node-creator');
		const actionsHeader = creator.getByTestId('node-creator-category-item').filter({ hasText: /^Actions/ });
		const [first] = resourcesOf(node);
		const firstAction = first.operations[0].action ?? first.operations[0].name;
		const firstItem = creator.getByTestId('item-iterator-item').filter({ hasText: firstAction });
		// On an empty canvas n8n shows the triggers and folds the actions away (header and items render together).
		await actionsHeader.waitFor();
		if (!(await firstItem.isVisible())) await actionsHeader.click();
		await firstItem.waitFor();
		const actionCount = node.properties.filter((p) => p.name === 'operation').flatMap((p) => p.options ?? []).filter((o) => o.value !== CUSTOM_API_CALL).length;
		await actionsHeader.filter({ hasText: `(${actionCount})` }).waitFor();
		await shot('node-creator');
		await firstItem.click();

		await ndv().waitFor();
		await waitForValue(parameterInput(panel(), 'resource'), first.name);
		await waitForValue(parameterInput(panel(), 'operation'), first.operations[0].name);
		// The credential saved before is picked by itself.
		await page.getByTestId('node-credentials-select').locator('input').first().waitFor();
		expect(await page.getByTestId('node-credentials-select').locator('input').first().inputValue()).toBe(CREDENTIAL_NAME);
		expect(await problemsOnScreen()).toEqual([]);
	});

	step(
		'switches the panel through every resource and every operation',
		async () => {
			const failures: string[] = [];
			let count = 0;
			for (const resource of resourcesOf(node)) {
				await chooseOption(page, panel(), 'resource', resource.name);
				const operations = resource.operations.length ? resource.operations : [undefined];
				for (const operation of operations) {
					const where = `${resource.name} → ${operation?.name ?? '(no operation)'}`;
					const failuresBefore = failures.length;
					try {
						if (operation) await chooseOption(page, panel(), 'operation', operation.name);
						if (resource.value === CUSTOM_API_CALL || operation?.value === CUSTOM_API_CALL) {
							// n8n's own panel for it: a pointer to the HTTP Request node, which takes our credential.
							await panel().getByText('HTTP Request', { exact: false }).first().waitFor();
						}
						const expected = operation && operation.value !== CUSTOM_API_CALL ? expectedParameters(node, resource.value, operation.value) : [];
						const state = await panelState(expected);
						if (state.resource !== resource.name) failures.push(`${where}: the resource shows "${state.resource}"`);
						const missing = expected
							.filter((p) => !state.inputs.includes(`parameter-input-${p.name}`) && !state.labels.includes(p.displayName))
							.map((p) => `${p.displayName} (${p.name})`);
						if (missing.length) failures.push(`${where}: the panel lacks ${missing.join(', ')}`);
						for (const problem of problemsIn(state)) failures.push(`${where}: ${problem}`);
						const errors = consoleWatch.take();
						if (errors.length) failures.push(`${where}: ${errors.join('\n')}`);
						const screenshot = SCREENSHOTS[`${resource.value}/${operation?.value}`];
						if (screenshot) await shot(screenshot);
					} catch (error) {
						failures.push(`${where}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
					}
					// The first failing panel as it looked.
					if (failuresBefore === 0 && failures.length > 0) await shot(`failed-${resource.value}-${operation?.value ?? 'none'}`);
					count++;
				}
			}
			console.log(`switched through ${count} resource/operation panels`);
			expect(failures).toEqual([]);
			expect(count).toBeGreaterThan(60);
		},
		240_000,
	);

	step('opens the Field Ops credential with its fields, and its connection test passes', async () => {
		await ndv().getByTestId('credential-edit-button').click();
		const modal = page.getByTestId('editCredential-modal');
		await modal.waitFor();
		// Opening a saved credential tests it: the sandbox grants the token.
		await modal.getByTestId('credentials-config-container-test-success').waitFor();
		// Our own fields (those always shown), and the client's id and secret inherited from OAuth2.
		const fields = [
			{ name: 'clientId', displayName: 'Client ID' },
			{ name: 'clientSecret', displayName: 'Client Secret' },
			...credential.properties.filter((p) => p.type !== 'hidden' && !p.displayOptions),
		];
		expect(fields.map((f) => f.displayName)).toEqual(expect.arrayContaining(['Environment', 'Core API URL', 'Token Server URL']));
		for (const field of fields) await modal.getByTestId(`parameter-input-${field.name}`).waitFor();
		const labels = (await modal.getByTestId('credential-connection-parameter').allInnerTexts()).map((t) => t.split('\n')[0].replace(/\s*\*$/, '').trim());
		expect(fields.map((f) => f.displayName).filter((name) => !labels.includes(name))).toEqual([]);
		expect(await parameterInput(modal, 'coreUrl').inputValue()).toBe(sb().coreUrl);
		expect(await parameterInput(modal, 'environment').inputValue()).toBe('Test');
		await shot('credential');
		await page.keyboard.press('Escape');
		await modal.waitFor({ state: 'hidden' });
		// Escape may close the node's panel too.
		if (await ndv().isVisible()) await ndv().getByTestId('ndv-close-button').click();
		await ndv().waitFor({ state: 'hidden' });
	});

	step('adds the Field Ops Trigger and switches through its records', async () => {
		await page.getByTestId('node-creator-plus-button').click();
		await page.getByTestId('node-creator-search-bar').fill('Field Ops');
		await page.getByTestId('node-creator-item-name').filter({ hasText: /^Field Ops$/ }).first().click();
		const creator = page.getByTestId('node-creator');
		const onNew = creator.getByTestId('item-iterator-item').filter({ hasText: /^On new/ });
		// After a first node n8n shows the actions and folds the triggers away.
		const triggersHeader = creator.getByTestId('node-creator-category-item').filter({ hasText: /^Triggers/ });
		await triggersHeader.waitFor();
		if (!(await onNew.isVisible())) await triggersHeader.click();
		await onNew.click();

		await ndv().waitFor();
		await panel().getByTestId('parameter-input-feed').waitFor();
		expect(await panel().getByTestId('parameter-input-events').innerText()).toContain('New');
		await shot('trigger');
		const feed = trigger.properties.find((p) => p.name === 'feed');
		expect(feed?.options?.length).toBeGreaterThan(0);
		const failures: string[] = [];
		for (const option of feed?.options ?? []) {
			try {
				await chooseOption(page, panel(), 'feed', option.name);
				await panel().getByTestId('parameter-input-events').waitFor();
				await panel().getByTestId('parameter-input-startFrom').waitFor();
				for (const problem of await problemsOnScreen()) failures.push(`${option.name}: ${problem}`);
			} catch (error) {
				failures.push(`${option.name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
			}
		}
		expect(failures).toEqual([]);
	});
});
