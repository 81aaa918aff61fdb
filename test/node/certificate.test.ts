import type { INodeExecutionData } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';
import { certificates } from '../sandbox/people/certificates';

const ROUTE = 'POST /api/v4/integration/certificates';

describe('Field Ops → Certificate', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const store = () => certificates(sb().sandbox.world);
	const stats = async () =>
		(await call(sb().coreUrl, '/__sandbox/stats')).body.requests as Record<string, number>;
	const perEntry = () => sb().sandbox.world.variant.certificateAnswer === 'perEntry';
	const employees = () =>
		sb()
			.sandbox.world.peopleOf(sb().clients[0].companyId)
			.map((p) => p.employeeNumber);
	/** Every parameter mapped from the input item, as a user maps columns of a spreadsheet. */
	const mapped = {
		operation: 'upsert',
		employeeNumber: '={{ $json.employee }}',
		certificateType: '={{ $json.type }}',
		issuedDateTime: '={{ $json.issued }}',
		validUntilDateTime: '={{ $json.validUntil }}',
		additionalFields: { certificateNumber: '={{ $json.number }}', notes: '={{ $json.notes }}' },
	};
	const run = async (
		items: Array<Record<string, unknown>>,
		options: { continueOnFail?: boolean; batchSize?: number } = {},
	) =>
		await harness.run(
			fieldOpsWorkflow(
				{
					resource: 'certificate',
					...mapped,
					...(options.batchSize ? { batchSize: options.batchSize } : {}),
				},
				{ continueOnFail: options.continueOnFail },
			),
			{ triggerItems: items.map((json) => ({ json })) as INodeExecutionData[] },
		);
	const cert = (employee: string, type: string, extra: Record<string, unknown> = {}) => ({
		employee,
		type,
		issued: '2025-03-01T00:00:00',
		validUntil: '2030-03-01T00:00:00',
		number: `C-${employee}`,
		notes: '',
		...extra,
	});

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	});

	it('upserts 3 items in ONE request; the item issued after it expires fails alone, before sending', async () => {
		const [a, b, c] = employees();
		const result = await run(
			[
				cert(a, 'Fallsikring'),
				cert(b, 'Fallsikring', { issued: '2031-01-01T00:00:00' }),
				cert(c, 'Truck T1', { notes: 'Fornyet' }),
			],
			{ continueOnFail: true },
		);
		expect((await stats())[ROUTE]).toBe(1);
		const output = result.items['Field Ops'];
		expect(output.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
		// [K1] An id per entry only where the answer itemises them; both created either way (counts say 2 of 2).
		const id = perEntry() ? { id: store().find((s) => s.employeeNumber === a)?.id } : {};
		expect(output[0].json).toMatchObject({
			success: true,
			created: true,
			employeeNumber: a,
			certificateType: 'Fallsikring',
			...id,
		});
		expect(output[1].json.error).toMatch(
			/item 2 \(n8n: item 1\) failed: Issued \(2031-01-01T00:00:00\) must be before Valid Until/,
		);
		expect(output[2].json).toMatchObject({ success: true, employeeNumber: c, notes: 'Fornyet' });
		expect(store().map((s) => [s.employeeNumber, s.certificateType, s.certificateNumber])).toEqual([
			[a, 'Fallsikring', `C-${a}`],
			[c, 'Truck T1', `C-${c}`],
		]);
		expect(store().find((s) => s.employeeNumber === b)).toBeUndefined();
	});

	it('updates a certificate of the same employee and exact type; another spelling creates a new one', async () => {
		const [a] = employees();
		// The certificate to update (the first test leaves the same one, when it ran before).
		const given = await run([cert(a, 'Fallsikring')]);
		if (given.error) throw given.error;
		const id = store().find((s) => s.employeeNumber === a)!.id;
		const result = await run([
			cert(a, 'Fallsikring', { validUntil: '2032-03-01T00:00:00' }),
			cert(a, 'fallsikring'),
		]);
		expect(result.error).toBeUndefined();
		// [K1] Counts of one created and one updated do not say which is which: the node does not guess.
		const created = result.items['Field Ops'].map((i) => i.json.created);
		if (perEntry()) expect(created).toEqual([false, true]);
		else {
			expect(created).toEqual([undefined, undefined]);
			expect(result.items['Field Ops'][0].json.response).toEqual({ created: 1, updated: 1 });
		}
		expect(store().find((s) => s.id === id)?.validUntilDateTime).toBe('2032-03-01T00:00:00');
		expect(store().filter((s) => s.employeeNumber === a)).toHaveLength(2);
	});

	it('the API refuses a whole batch for one unknown employee: that item fails, the others are sent again once', async () => {
		const [, , , d, e] = employees();
		const result = await run(
			[cert(d, 'Varme arbeider'), cert('NO-SUCH-1', 'Varme arbeider'), cert(e, 'Varme arbeider')],
			{ continueOnFail: true },
		);
		const output = result.items['Field Ops'];
		expect(output[1].json.error).toMatch(
			/item 2 \(n8n: item 1\) failed: employeeNumber — No user with employee number NO-SUCH-1/,
		);
		expect(output[0].json).toMatchObject({ success: true, employeeNumber: d });
		expect(output[2].json).toMatchObject({ success: true, employeeNumber: e });
		// [K2] The refused request may have saved them already: the second answer cannot tell created from updated.
		expect(output[0].json.created).toBeUndefined();
		expect(
			store()
				.filter((s) => s.certificateType === 'Varme arbeider')
				.map((s) => s.employeeNumber),
		).toEqual([d, e]);
		expect((await stats())[ROUTE]).toBe(2);
	});

	it('sends one request per batch of the chosen size', async () => {
		const five = employees()
			.slice(0, 5)
			.map((employee) => cert(employee, 'HMS-kort'));
		const result = await run(five, { batchSize: 2 });
		expect(result.error).toBeUndefined();
		expect((await stats())[ROUTE]).toBe(3);
		expect(store().filter((s) => s.certificateType === 'HMS-kort')).toHaveLength(5);
	});

	it('without Continue On Fail, stops naming the failed item and how many others were saved', async () => {
		const [a] = employees();
		const result = await run([cert(a, 'Stillas'), cert(a, 'Kran', { validUntil: '2025-03-01T00:00:00' })]);
		expect(result.error?.message).toMatch(
			/Certificate of item 2 \(n8n: item 1\) failed: Issued .* must be before Valid Until/,
		);
		expect((result.error as { description?: string }).description).toMatch(/other 1 item/);
		// The user's number in the words, n8n's own index (from 0) for n8n.
		expect((result.error as unknown as { context: { itemIndex: number } }).context.itemIndex).toBe(1);
		expect(store().some((s) => s.certificateType === 'Stillas')).toBe(true);
		expect(store().some((s) => s.certificateType === 'Kran')).toBe(false);
	});

	it('refuses an item with no employee number or an unreadable date before sending', async () => {
		const result = await run([cert('', 'Stillas'), cert(employees()[0], 'Stillas', { issued: '1. mars' })], {
			continueOnFail: true,
		});
		expect(result.items['Field Ops'][0].json.error).toMatch(/Employee Number is empty/);
		expect(result.items['Field Ops'][1].json.error).toMatch(/Issued is not a valid date: "1. mars"/);
		expect((await stats())[ROUTE]).toBeUndefined();
	});
});
