/**
 * The first hour of an office user (issue #34), in real n8n with Chromium, from a fresh demo (`startDemo()`, as
 * `npm run demo` sets it up): each job is found in the node creator by the words people type, the three examples
 * run, and each result is checked where a user looks: the rows of the spreadsheet the node made (downloaded from
 * the node's output and read with a spreadsheet library), the drawings on the project (Document → List in the
 * editor), the incident's e-mail in the demo inbox. The screenshots, cropped to the panel that shows the result,
 * are the README's (docs/images/).
 * Needs `npm run build`, n8n in `.e2e/n8n`, Chromium and Dovecot (`npx tsx scripts/n8n/system-packages.ts`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';

import { startDemo, type Demo } from '../../scripts/demo';
import { READ_THE_MAIL } from '../../scripts/demo-mailbox';
import { ROOT } from '../../scripts/n8n/install';
import { CREDENTIAL_TYPE, freePort, NODE_TYPE } from '../../scripts/n8n/run';
import { REPORT_FEEDS } from '../../nodes/FieldOps/reporting/feeds';
import { periodDays } from '../../nodes/FieldOps/resources/report/period';
import { isoDay } from '../../nodes/FieldOps/parameters/zones';
import { feedStore, kindDefinition } from '../sandbox/reporting/feeds';
import { launchChromium, watchConsole, type ConsoleWatch } from './browser';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const XLSX = require('@e965/xlsx') as typeof import('@e965/xlsx');

/** Files the test downloads and its screenshots (kept by CI, ignored by git). */
const ARTIFACTS = join(ROOT, 'test-artifacts', 'first-hour');
/**
 * The README's pictures are these screenshots: `README_PICTURES=1` writes them to docs/images/ too, so a test run
 * leaves tracked files alone unless asked.
 */
const IMAGES = process.env.README_PICTURES === '1' ? join(ROOT, 'docs', 'images') : ARTIFACTS;
const SPREADSHEET = 'weekly-hours-to-spreadsheet.json';
const MAIL = 'email-attachments-to-project-documents.json';
const INCIDENT = 'new-incident-notify.json';
const LABELS = REPORT_FEEDS.find((feed) => feed.value === 'timeRegistrations')!.columns.map((c) => c.label);
/** The everyday jobs, first among the node's actions. */
const EVERYDAY_ACTIONS = [
	'Export hours and timesheets (time registrations)',
	'Upload documents or e-mail attachments',
	'Create or update an employee',
];
// A minute between the trigger's checks, on a loaded machine; n8n's IMAP client sees new mail after ~15 s.
const MAIL_WAIT_MS = 150_000;

interface Execution {
	id: string;
	status: string;
	stoppedAt?: string;
	data: { resultData: { runData: Record<string, any[]> } };
}

jest.setTimeout(10 * 60_000);

describe('the first hour of an office user, in the editor of a fresh demo', () => {
	let demo: Demo;
	let browser: Browser | undefined;
	let page: Page;
	let consoleWatch: ConsoleWatch;
	const lines: string[] = [];
	let running: Promise<string> | undefined;
	/** The examples started once (mail delivered, incident registered), by whichever test needs them first. */
	const examplesRunning = () => (running ??= demo.runExamples());

	beforeAll(async () => {
		mkdirSync(IMAGES, { recursive: true });
		mkdirSync(ARTIFACTS, { recursive: true });
		const [started, chromium] = await Promise.allSettled([
			startDemo({ n8nPort: await freePort(), log: (line) => lines.push(line) }),
			launchChromium(),
		]);
		if (chromium.status === 'fulfilled') browser = chromium.value;
		if (started.status === 'rejected') throw started.reason;
		demo = started.value;
		if (chromium.status === 'rejected') throw chromium.reason;
		// The README's pictures: a laptop's window, no transitions (Playwright waits for elements to stand still).
		const context = await browser!.newContext({
			viewport: { width: 1440, height: 860 },
			acceptDownloads: true,
		});
		await context.addInitScript(`document.addEventListener('DOMContentLoaded', () => {
			const style = document.createElement('style');
			style.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; }';
			document.head.appendChild(style);
		});`);
		page = await context.newPage();
		page.setDefaultTimeout(30_000);
		page.setDefaultNavigationTimeout(120_000);
		consoleWatch = watchConsole(page);
		await page.goto(`${demo.url}/signin`);
		await page.getByTestId('emailOrLdapLoginId').locator('input').fill(demo.login.email);
		await page.getByTestId('password').locator('input').fill(demo.login.password);
		await page.getByTestId('form-submit-button').click();
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	}, 300_000);

	afterAll(async () => {
		await browser?.close();
		await demo?.stop();
		console.log(`demo log:\n${lines.join('\n')}`);
	});

	afterEach(async () => {
		const errors = consoleWatch?.take() ?? [];
		if (errors.length) throw new Error(`The editor logged ${errors.length} error(s):\n${errors.join('\n')}`);
	});

	/** A screenshot of one part of the page for the README, its top `height` pixels (n8n's toasts closed first). */
	const picture = async (name: string, part: Locator, height?: number) => {
		for (const close of await page.locator('.el-notification__closeBtn').all())
			await close.click().catch(() => undefined);
		await page
			.locator('.el-notification')
			.first()
			.waitFor({ state: 'hidden' })
			.catch(() => undefined);
		const box = (await part.boundingBox())!;
		await page.screenshot({
			path: join(IMAGES, `${name}.png`),
			clip: { ...box, height: Math.min(box.height, height ?? box.height) },
		});
	};
	const creator = () => page.getByTestId('node-creator');
	const ndv = () => page.getByTestId('ndv');
	const output = () =>
		ndv().locator('[data-test-id="output-panel"], [data-test-id="ndv-output-panel"]').first();
	const canvasNode = (name: string) => page.getByTestId('canvas-node').filter({ hasText: name }).first();

	/** Finished executions of a workflow, oldest first, once `enough` accepts them. */
	const executions = (workflowId: string, enough: (found: Execution[]) => boolean) =>
		demo.n8n.finishedExecutions(workflowId, enough, MAIL_WAIT_MS).catch((error: Error) => {
			throw new Error(`${error.message}\n${lines.join('\n')}`);
		});

	/** n8n's production checklist covers the executions list the first time a published workflow is opened. */
	const closeChecklist = async () => {
		const close = page.getByTestId('suggested-actions-close');
		if (await close.isVisible().catch(() => false)) await close.click();
	};

	/** Searches the node creator for `word`; answers the Field Ops card's description, and opens the card. */
	const openFieldOpsBy = async (word: string) => {
		await page.getByTestId('node-creator-search-bar').fill(word);
		const card = creator()
			.getByTestId('node-creator-item-name')
			.filter({ hasText: /^Field Ops$/ })
			.first();
		await card.waitFor({ timeout: 5_000 });
		const description = await card
			.locator(
				'xpath=ancestor::*[@data-test-id="node-creator-action-item" or @data-test-id="node-creator-node-item"][1]',
			)
			.innerText();
		await card.click();
		await creator().getByTestId('node-creator-category-item').first().waitFor();
		return description;
	};
	/** The actions and triggers the opened card lists, in order, with the headers n8n puts between them. */
	const listed = async () =>
		(await creator().innerText())
			.split('\n')
			.map((line) => line.trim())
			.filter(Boolean);

	it('finds each job by the words people type, the job first', async () => {
		// Adding a step after a trigger: n8n shows a node's actions first.
		const created = await demo.n8n.rest('POST', '/workflows', {
			name: 'My first workflow',
			nodes: [
				{
					id: 'manual',
					name: 'When clicking ‘Execute workflow’',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
			active: false,
		});
		await page.goto(`${demo.url}/workflow/${created.body.id as string}`);
		await page.getByTestId('canvas-node').first().waitFor();
		const actionJobs: Array<[string, string]> = [
			['hours', 'Export hours and timesheets (time registrations)'],
			['timesheet', 'Export hours and timesheets (time registrations)'],
			['payroll', 'Export hours and timesheets (time registrations)'],
			['attachment', 'Upload documents or e-mail attachments'],
			['documents', 'Upload documents or e-mail attachments'],
			['employee', 'Create or update an employee'],
		];
		const found: Record<string, string[]> = {};
		for (const [word] of actionJobs) {
			await page.getByTestId('node-creator-plus-button').click();
			const description = await openFieldOpsBy(word);
			// The card says what the node does, not only what its trigger does.
			expect(description).toMatch(/Export hours .* upload documents/);
			const lines = await listed();
			const everyday = lines.findIndex((line) => /^Everyday Actions$/i.test(line));
			found[word] = lines.slice(everyday + 1, everyday + 1 + EVERYDAY_ACTIONS.length);
			if (word === 'hours') await picture('find-hours', creator(), 500);
			await page.keyboard.press('Escape');
			await creator().waitFor({ state: 'hidden' });
		}
		expect(found).toEqual(Object.fromEntries(actionJobs.map(([word]) => [word, EVERYDAY_ACTIONS])));
		for (const [, job] of actionJobs) expect(EVERYDAY_ACTIONS).toContain(job);

		// A new workflow starts with a trigger: the incident entry first, opening with New incidents only.
		await page.goto(`${demo.url}/workflow/new`);
		await page.getByTestId('canvas-plus-button').click();
		await openFieldOpsBy('incident');
		const triggers = await listed();
		expect(triggers.slice(triggers.findIndex((line) => /^Triggers/.test(line)) + 1)[0]).toBe(
			'On New Incident Registration',
		);
		expect(triggers).toContain('On Incident Registration Changed');
		await picture('find-incident', creator(), 480);
		await creator()
			.getByTestId('item-iterator-item')
			.filter({ hasText: /^On New Incident Registration$/ })
			.first()
			.click();
		await ndv().waitFor();
		const events = ndv().getByTestId('parameter-input-events').locator('.el-tag');
		await events.first().waitFor();
		expect((await events.allInnerTexts()).map((tag) => tag.trim())).toEqual(['New']);
		expect(await ndv().getByTestId('parameter-input-feed').locator('input').first().inputValue()).toBe(
			'Incident Registrations',
		);
		await ndv().getByTestId('ndv-close-button').click();

		// Other words find the node too (their actions further down its list).
		for (const word of ['work order', 'excavator', 'timesheets']) {
			await page.goto(`${demo.url}/workflow/new`);
			await page.getByTestId('canvas-plus-button').click();
			await openFieldOpsBy(word);
		}
	});

	it('weekly hours: the canvas says which week; a run makes one spreadsheet of last week’s hours', async () => {
		const zone = demo.n8n.env.GENERIC_TIMEZONE ?? 'America/New_York';
		const [monday, sunday] = periodDays('lastWeek', Date.now(), zone);
		await page.goto(`${demo.url}/workflow/${demo.workflows[SPREADSHEET]}`);
		const node = canvasNode("Last week's hours as a spreadsheet");
		await node.waitFor();
		// Before a run: the days it will read, under the node's name.
		const day = (d: typeof monday) => String(d.day);
		expect(await node.innerText()).toContain(`Last Week, ${day(monday)}`);
		expect(await node.innerText()).toContain(`${sunday.year}`);

		await page.getByTestId('execute-workflow-button').first().click();
		await node.getByTestId('canvas-node-status-success').waitFor({ timeout: 120_000 });
		await node.dblclick();
		await ndv().waitFor();
		const download = output().getByTestId('ndv-download-binary-data').first();
		await download.waitFor();
		// The summary once, above the file: which week, in which zone, how many registrations.
		const summary = (await output().getByTestId('node-hint').first().innerText()).trim();
		expect(summary).toMatch(
			new RegExp(`^Last Week: Monday .* \\(${zone.replace('/', '\\/')}\\): \\d+ time registrations$`),
		);
		// Plain settings: the workflow's zone by name, every row.
		expect(await ndv().getByTestId('parameter-input-timeZone').locator('input').first().inputValue()).toBe(
			`The workflow’s time zone (now: ${zone})`,
		);
		await picture('weekly-hours', ndv());
		const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
		expect(file.suggestedFilename()).toMatch(/^time-registrations-\d{4}-W\d\d\.xlsx$/);
		const path = join(ARTIFACTS, file.suggestedFilename());
		await file.saveAs(path);
		await ndv().getByTestId('ndv-close-button').click();

		// The spreadsheet as payroll opens it: a header of readable columns, a row per registration of last week.
		const book = XLSX.readFile(path, { cellNF: true, cellDates: false });
		const sheet = book.Sheets[book.SheetNames[0]];
		const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(sheet, {
			raw: false,
			dateNF: 'yyyy-mm-dd',
		});
		const header = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1 })[0];
		expect(header.slice(0, LABELS.length)).toEqual(LABELS);
		expect(book.SheetNames[0]).toBe(`${isoDay(monday)} – ${isoDay(sunday)}`);
		const { world } = demo.sandbox.sandbox;
		const visible = new Set(world.companyTree(world.clients[0].companyId));
		const expected = feedStore(demo.sandbox.sandbox, kindDefinition('time-registrations')!)
			.records.filter((record) => visible.has(record.companyId) && record.deletedMs === null)
			.filter(
				(record) => String(record.data.date) >= isoDay(monday) && String(record.data.date) <= isoDay(sunday),
			)
			.map((record) => `${String(record.data.date)} | ${Number(record.data.hours)}`)
			.sort();
		expect(expected.length).toBeGreaterThan(0);
		expect(rows.map((row) => `${String(row.Date)} | ${Number(row.Hours)}`).sort()).toEqual(expected);
	});

	it('e-mail attachments: the sample mail’s drawings are documents on the project', async () => {
		await examplesRunning();
		const project = demo.project.projectNumber;
		// The mail example's run of the sample mails (green).
		const [run] = await executions(demo.workflows[MAIL], (found) =>
			found.some((e) => e.status === 'success'),
		);
		expect(run.status).toBe('success');

		// Where an office user looks: the project's documents, listed by the node in the editor.
		const listing = await demo.n8n.rest('POST', '/workflows', {
			name: `Documents of project ${project}`,
			nodes: [
				{
					id: 'manual',
					name: 'When clicking ‘Execute workflow’',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'documents',
					name: 'Documents on the project',
					type: NODE_TYPE,
					typeVersion: 1.3,
					position: [260, 0],
					parameters: {
						resource: 'document',
						operation: 'list',
						documentTarget: 'project',
						project: { __rl: true, mode: 'projectNumber', value: project },
						splitIntoFiles: true,
					},
					credentials: { [CREDENTIAL_TYPE]: { id: demo.credential.id, name: demo.credential.name } },
				},
			],
			connections: {
				'When clicking ‘Execute workflow’': {
					main: [[{ node: 'Documents on the project', type: 'main', index: 0 }]],
				},
			},
			settings: { executionOrder: 'v1' },
			active: false,
		});
		await page.goto(`${demo.url}/workflow/${listing.body.id as string}`);
		const node = canvasNode('Documents on the project');
		await node.waitFor();
		await page.getByTestId('execute-workflow-button').first().click();
		await node.getByTestId('canvas-node-status-success').waitFor({ timeout: 60_000 });
		await node.dblclick();
		await ndv().waitFor();
		await output().getByTestId('radio-button-table').click();
		const table = output().getByTestId('ndv-data-container');
		await table.getByText('Tegning A – fasade.pdf').first().waitFor();
		const shown = await table.innerText();
		await ndv().getByTestId('ndv-close-button').click();
		expect(shown).toContain('Tegning B – snitt.pdf');
		expect(shown).toContain('E-post');
		// The mail for a project that does not exist left nothing behind.
		expect(shown).not.toContain('Tegning C.pdf');

		// The run as the user finds it under the example's Executions: each file attached, one line each.
		await page.goto(`${demo.url}/workflow/${demo.workflows[MAIL]}/executions/${run.id}`);
		await closeChecklist();
		const attach = canvasNode('Attach to the project');
		await attach.waitFor();
		await attach.dblclick();
		await ndv().waitFor();
		await output().getByTestId('radio-button-json').click();
		await output().getByText('Tegning A – fasade.pdf').first().waitFor();
		await picture('email-attachments', output(), 290);
		await ndv().getByTestId('ndv-close-button').click();
	});

	it('new incident: the safety team’s e-mail is in the demo inbox', async () => {
		const incidentId = await examplesRunning();
		const mail = await demo.mailbox.sentMail(
			(sent) => sent.message.toString('utf8').includes(`Incident id: ${incidentId}`),
			MAIL_WAIT_MS,
		);
		const incident = (
			(await (await fetch(`${demo.sandbox.coreUrl}/__sandbox/records/incident-registrations`)).json()) as {
				records: { id: string; title: string; severity: string }[];
			}
		).records.find((record) => record.id === incidentId)!;
		expect(mail.subject).toBe(
			`Incident (${incident.severity}): ${incident.title} – project ${demo.project.projectNumber}`,
		);
		// The trigger (1.1, Simplify) gave the mail the incident's readable columns, its id kept.
		const [sent] = await executions(demo.workflows[INCIDENT], (found) => found.length > 0);
		expect(sent.status).toBe('success');
		expect(sent.data.resultData.runData['New incident'][0].data.main[0][0].json).toMatchObject({
			id: incidentId,
			Title: incident.title,
			'Project Number': demo.project.projectNumber,
			_event: 'new',
		});

		// Where the README sends the user: the "Demo inbox" workflow's executions, the mail in "Read the mail".
		const inbox = demo.mailbox.inboxWorkflowId!;
		const read = await executions(inbox, (found) =>
			found.some((e) =>
				JSON.stringify(e.data.resultData.runData[READ_THE_MAIL] ?? null).includes(mail.subject),
			),
		);
		const shown = read.find((e) =>
			JSON.stringify(e.data.resultData.runData[READ_THE_MAIL] ?? null).includes(mail.subject),
		)!;
		await page.goto(`${demo.url}/workflow/${inbox}/executions/${shown.id}`);
		await closeChecklist();
		await canvasNode(READ_THE_MAIL).waitFor();
		await canvasNode(READ_THE_MAIL).dblclick();
		await ndv().waitFor();
		await output().getByTestId('radio-button-schema').click();
		await output().getByText(mail.subject).first().waitFor();
		const text = await output().innerText();
		await picture('incident-mail', output(), 250);
		await ndv().getByTestId('ndv-close-button').click();
		expect(text).toContain(`Title: ${incident.title}`);
		expect(text).toContain('safety@example.com');
	});
});
