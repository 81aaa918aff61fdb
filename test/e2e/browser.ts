/**
 * What the editor test needs around Playwright: Debian's Chromium (never a downloaded browser), console and page
 * errors collected with a short allow-list, and choosing from n8n's dropdowns the way a user does.
 */
import { existsSync } from 'node:fs';

import {
	chromium,
	selectors,
	type Browser,
	type ConsoleMessage,
	type Locator,
	type Page,
} from 'playwright-core';

/** n8n marks its elements with `data-test-id` (not Playwright's default `data-testid`). */
selectors.setTestIdAttribute('data-test-id');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const INSTALL_HINT =
	'install it with `apt-get install -y chromium` (Debian), or point CHROMIUM_PATH at a Chromium';

/** Headless Debian Chromium; throws (so the test fails, never skips) when it is missing or does not start. */
export async function launchChromium(): Promise<Browser> {
	if (!existsSync(CHROMIUM_PATH))
		throw new Error(`The editor test needs Chromium, and ${CHROMIUM_PATH} does not exist: ${INSTALL_HINT}.`);
	try {
		return await chromium.launch({
			executablePath: CHROMIUM_PATH,
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-dev-shm-usage',
				'--disable-background-networking',
				'--disable-extensions',
				'--no-first-run',
			],
		});
	} catch (error) {
		throw new Error(
			`Chromium at ${CHROMIUM_PATH} did not start (${INSTALL_HINT}):\n${error instanceof Error ? error.message : String(error)}`,
		);
	}
}

interface Allowed {
	/** Why this error is not ours. */
	why: string;
	text: RegExp;
	/** The URL the console attributes the message to (for "Failed to load resource" the failed request). */
	url: RegExp;
}

/**
 * Console errors n8n 2.41.1 itself logs in this setting, seen in runs of this test; nothing caused by our package.
 * Everything else fails the test.
 */
const ALLOWED: Allowed[] = [
	{
		why: 'the sign-in page first asks whether a session exists; before signing in the answer is 401',
		text: /^Failed to load resource: the server responded with a status of 401/,
		url: /\/rest\/login$/,
	},
	{
		why: "the node creator looks our community package up on npm (not published, and offline here); n8n's own request",
		text: /^Failed to load resource:/,
		url: /^https:\/\/registry\.npmjs\.org\/n8n-nodes-fieldops$/,
	},
];

export interface ConsoleWatch {
	/** Errors not allowed, collected since the last `take()`, and then forgets them. */
	take(): string[];
	/** Allowed errors seen so far (for the log). */
	allowed: string[];
}

/** Collects console errors and uncaught page errors of a page. */
export function watchConsole(page: Page): ConsoleWatch {
	let errors: string[] = [];
	const allowed: string[] = [];
	const describe = (message: ConsoleMessage) => {
		const { url, lineNumber } = message.location();
		return `console.error: ${message.text()}${url ? ` (${url}${lineNumber ? `:${lineNumber}` : ''})` : ''}`;
	};
	page.on('console', (message) => {
		if (message.type() !== 'error') return;
		const url = message.location().url ?? '';
		if (ALLOWED.some((a) => a.text.test(message.text()) && a.url.test(url))) allowed.push(describe(message));
		else errors.push(describe(message));
	});
	page.on('pageerror', (error) => errors.push(`page error: ${error.stack ?? error.message}`));
	return {
		take() {
			const taken = errors;
			errors = [];
			return taken;
		},
		allowed,
	};
}

/** The input of parameter `name` inside `scope` (the parameter panel, or a credential form). */
export function parameterInput(scope: Locator, name: string): Locator {
	return scope.getByTestId(`parameter-input-${name}`).locator('input').first();
}

/**
 * Opens the dropdown of parameter `name` and clicks the option whose headline is exactly `label` (as a user does),
 * then waits until the input shows it.
 */
export async function chooseOption(page: Page, scope: Locator, name: string, label: string): Promise<void> {
	const input = parameterInput(scope, name);
	await input.click();
	// The option list is rendered into a popper elsewhere in the page; the input names it.
	const listId = await input.getAttribute('aria-controls');
	if (!listId) throw new Error(`The "${name}" parameter is not a dropdown`);
	const list = page.locator(`[id="${listId}"]`);
	await list
		.getByTestId('parameter-input-item')
		.filter({ has: page.getByText(label, { exact: true }) })
		.first()
		.click();
	await waitForValue(input, label);
}

/**
 * Waits until an input shows `value` (Vue sets the value property, which CSS selectors do not see); polls in the
 * page, so it costs one round trip.
 */
export async function waitForValue(input: Locator, value: string, timeout = 10_000): Promise<void> {
	const shown = await input.evaluate(
		(element, [wanted, ms]) =>
			new Promise<string>((resolve) => {
				const until = Date.now() + ms;
				const check = () => {
					const current = (element as unknown as { value: string }).value;
					if (current === wanted || Date.now() > until) resolve(current);
					else setTimeout(check, 20);
				};
				check();
			}),
		[value, timeout] as const,
		{ timeout },
	);
	if (shown !== value) throw new Error(`expected the input to show "${value}", it shows "${shown}"`);
}

/** Opens the "From list" dropdown of resource locator `name` and answers the list's items (their visible text). */
export async function openLocatorList(page: Page, scope: Locator, name: string): Promise<Locator> {
	const locator = scope.getByTestId(`resource-locator-${name}`);
	await locator.getByTestId('rlc-input').click();
	const items = page.getByTestId('rlc-item');
	// The list, or its error or empty state, whichever n8n shows.
	await page
		.locator('[data-test-id="rlc-item"], [data-test-id="rlc-error-container"], :text("No results")')
		.first()
		.waitFor();
	return items;
}

/**
 * Whether a dropdown's input shows its whole value: the text's width in the input's font against the room between its
 * paddings (the right one holds the arrow). n8n's own "From list" takes 48.2 px of the mode selector's 47: a label
 * is cut when it goes more than 2 px further ("By Project Number" showed "By Proje"). Runs in the page.
 */
export async function showsWholeValue(input: Locator): Promise<boolean> {
	return await input.evaluate((element: any) => {
		const style = element.ownerDocument.defaultView.getComputedStyle(element);
		const context = element.ownerDocument.createElement('canvas').getContext('2d');
		context.font = style.font;
		const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
		return context.measureText(element.value).width <= room + 2;
	});
}
