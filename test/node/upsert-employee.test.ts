/**
 * Issue #32: Employee → Create or Update by employee number, through n8n's engine against the sandbox (both
 * variants): new, changed, unchanged, a repeated number, a missing number, a refusal in the middle of a batch, and
 * the requests it costs.
 */
import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../helpers/sandbox';
import { results, rows, upsertRunner } from '../helpers/upsert';
import type { Person } from '../sandbox/state';

const EMPLOYEES = '/api/v5/integration/employees';
const ONE = `${EMPLOYEES}/{employeeNumber}`;

/** The HR system's columns mapped onto the operation, as a user maps a CSV's columns. */
const MAPPING = {
	employeeNumber: '={{ $json.number }}',
	firstName: '={{ $json.firstName }}',
	lastName: '={{ $json.lastName }}',
	phone: '={{ $json.phone }}',
	birthDate: '={{ $json.birthDate }}',
	employment: { details: { startDate: '={{ $json.startDate }}', department: '={{ $json.department }}' } },
	additionalFields: { email: '={{ $json.email }}', workTitle: '={{ $json.workTitle }}' },
};

describe('Employee → Create or Update (issue #32)', () => {
	const sb = useSandbox();
	const node = upsertRunner(sb, 'employee');
	const people = () => [...sb().sandbox.world.people.values()];
	const own = () => sb().clients[0].companyId;
	const person = (number: string) => people().find((p) => p.employeeNumber === number);
	/** The row the HR system exports for an employee Field Ops has, as it has it. */
	const rowOf = (p: Person): IDataObject => ({
		number: p.employeeNumber,
		firstName: p.firstName,
		lastName: p.lastName,
		phone: p.phone,
		// The HR system's day, where Field Ops answers a date-time at midnight UTC.
		birthDate: p.birthDate.slice(0, 10),
		email: p.email ?? '',
		workTitle: (p.workTitle as string | undefined) ?? '',
	});
	const newRow = (number: string, extra: IDataObject = {}): IDataObject => ({
		number,
		firstName: 'Åse',
		lastName: 'Bø',
		phone: `+4799${number.replace(/\D/g, '').padStart(6, '0')}`,
		birthDate: '1990-04-01',
		startDate: '2026-01-05',
		department: 'Anlegg',
		...extra,
	});
	const ownPeople = () => people().filter((p) => p.companyId === own());

	it('creates the new, updates only what changed, leaves the rest: one list read for the batch', async () => {
		const existing = ownPeople().slice(0, 11);
		// 11 employees as Field Ops has them, the fourth with a new e-mail and title, and one new employee.
		const items = rows(
			...existing.map((p, i) =>
				i === 3 ? { ...rowOf(p), email: 'changed@example.com', workTitle: 'Formann' } : rowOf(p),
			),
			newRow('HR-NEW'),
		);
		const before = person(existing[0].employeeNumber)?.modifiedDateTime;

		const run = await node.run(MAPPING, items, true);
		expect(run.error).toBeUndefined();
		expect(results(run)).toEqual([
			...Array(3).fill('unchanged'),
			'updated',
			...Array(7).fill('unchanged'),
			'created',
		]);
		const [first] = run.items['Field Ops'];
		expect(first.json).toMatchObject({
			result: 'unchanged',
			id: existing[0].employeeNumber,
			employeeNumber: existing[0].employeeNumber,
			changedFields: [],
			record: { employeeNumber: existing[0].employeeNumber, firstName: existing[0].firstName },
		});
		expect(run.items['Field Ops'][3].json).toMatchObject({
			result: 'updated',
			id: existing[3].employeeNumber,
			changedFields: ['email', 'workTitle'],
		});
		expect(run.items['Field Ops'][11].json).toMatchObject({ result: 'created', id: 'HR-NEW' });
		expect(person('HR-NEW')).toMatchObject({ firstName: 'Åse', companyId: own() });
		expect(person('HR-NEW')?.employments).toEqual([
			expect.objectContaining({ startDate: '2026-01-05T00:00:00', department: 'Anlegg' }),
		]);
		expect(person(existing[3].employeeNumber)).toMatchObject({
			email: 'changed@example.com',
			workTitle: 'Formann',
		});
		expect(person(existing[0].employeeNumber)?.modifiedDateTime).toBe(before);
		// One read for 12 items, one create, one update: nothing for the 10 unchanged.
		expect(await node.requests()).toEqual({
			[`GET ${EMPLOYEES}`]: 1,
			[`POST ${EMPLOYEES}`]: 1,
			[`PATCH ${ONE}`]: 1,
		});
		expect(run.items['Field Ops'].map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	});

	it('reads a few employees one by one with the employee-number filter, subsidiaries included', async () => {
		const subsidiary = people().find(
			(p) => p.companyId !== own() && sb().sandbox.world.canAccessCompany(own(), p.companyId),
		)!;
		const mine = ownPeople()[0];
		const run = await node.run(MAPPING, rows({ ...rowOf(subsidiary), lastName: 'Nytt-Navn' }, rowOf(mine)));
		expect(run.error).toBeUndefined();
		expect(results(run)).toEqual(['updated', 'unchanged']);
		// The subsidiary's employee is updated, not created again in the own company.
		expect(people().filter((p) => p.employeeNumber === subsidiary.employeeNumber)).toHaveLength(1);
		expect(person(subsidiary.employeeNumber)?.lastName).toBe('Nytt-Navn');
		expect(await node.requests()).toEqual({ [`GET ${EMPLOYEES}`]: 2, [`PATCH ${ONE}`]: 1 });
	});

	it('writes every field set when Only Write What Changed is off', async () => {
		const mine = ownPeople()[0];
		const run = await node.run({ ...MAPPING, onlyChanges: false }, rows(rowOf(mine)));
		expect(results(run)).toEqual(['updated']);
		// Nothing differed, yet every field set was written.
		expect(run.items['Field Ops'][0].json).toMatchObject({
			changedFields: [],
			writtenFields: ['birthDate', 'email', 'firstName', 'lastName', 'phone', 'workTitle'],
		});
		expect(await node.requests()).toMatchObject({ [`PATCH ${ONE}`]: 1 });
	});

	it('sends the first employment only when creating; a field PATCH cannot change is reported, not written', async () => {
		const mine = ownPeople()[0];
		const employments = structuredClone(mine.employments);
		const run = await node.run(
			{ ...MAPPING, additionalFields: { workCardId: '={{ $json.card }}' } },
			rows({ ...rowOf(mine), startDate: '2030-01-01', department: 'Ny', card: 'HMS-77' }),
		);
		expect(run.error).toBeUndefined();
		expect(run.items['Field Ops'][0].json).toMatchObject({
			result: 'unchanged',
			changedFields: [],
			notUpdatedFields: ['workCardId'],
			note: expect.stringMatching(/Replace/),
		});
		expect(person(mine.employeeNumber)?.employments).toEqual(employments);
		expect(await node.requests()).toEqual({ [`GET ${EMPLOYEES}`]: 1 });
	});

	it('fails a repeated number and a missing number alone; the others are written', async () => {
		const mine = ownPeople()[0];
		const run = await node.run(
			MAPPING,
			rows(
				newRow('HR-1'),
				{ ...newRow(''), firstName: 'Uten' },
				{ ...rowOf(mine), workTitle: 'Bas' },
				{ ...newRow('HR-1'), firstName: 'Dobbel' },
			),
			true,
		);
		expect(results(run)).toEqual(['created', 'failed', 'updated', 'failed']);
		const [, missing, , twice] = run.items['Field Ops'];
		expect(missing.json.error).toMatch(/^Employee Number to Match On is empty \[item 2/);
		expect(twice.json.details).toMatchObject({ result: 'failed', employeeNumber: 'HR-1' });
		expect(twice.json.error).toMatch(/^Employee HR-1: the same employee is in item 1 too \[item 4/);
		expect(person('HR-1')?.firstName).toBe('Åse');
		expect(people().filter((p) => p.firstName === 'Uten')).toHaveLength(0);
	});

	it('uses a repeated number’s later item when the first is refused before sending', async () => {
		const run = await node.run(
			MAPPING,
			rows(newRow('HR-3', { birthDate: 'not a date' }), newRow('HR-3', { firstName: 'Andre' })),
			true,
		);
		expect(results(run)).toEqual(['failed', 'created']);
		expect(run.items['Field Ops'][0].json.error).toMatch(/Birth Date/);
		expect(person('HR-3')?.firstName).toBe('Andre');
	});

	it('checks a new employee’s required fields before sending, as Create does', async () => {
		const run = await node.run(MAPPING, rows({ ...newRow('HR-2'), firstName: '', startDate: '' }), true);
		expect(results(run)).toEqual(['failed']);
		expect(run.items['Field Ops'][0].json.error).toMatch(/^Employee HR-2: First Name is empty/);
		expect(await node.requests()).toEqual({ [`GET ${EMPLOYEES}`]: 1 });
	});

	it('a refusal in the middle of a batch fails that item in the service’s words; the others are written', async () => {
		const items = rows(newRow('HR-1'), newRow('HR-2', { phone: '12' }), newRow('HR-3'));
		const run = await node.run(MAPPING, items, true);
		expect(results(run)).toEqual(['created', 'failed', 'created']);
		expect(run.items['Field Ops'][1].json.error).toMatch(
			/^Employee HR-2: Field Ops refused the request: Phone/,
		);
		expect(person('HR-3')).toBeDefined();

		// Without Continue On Fail: the others are written, then the node stops naming the item and what was done.
		const again = await node.run(
			MAPPING,
			rows(newRow('HR-4'), newRow('HR-5', { phone: '12' }), { ...newRow('HR-1'), workTitle: 'Bas' }),
		);
		const error = again.error as Error & { description?: string };
		expect(error.message).toMatch(/^Employee HR-5: .*\[item 2 \(n8n: item 1\)\]$/);
		expect(error.description).toMatch(/The other items: 1 created, 1 updated, 0 unchanged/);
		expect(person('HR-4')).toBeDefined();
		expect(person('HR-1')?.workTitle).toBe('Bas');
	});

	it('without Continue On Fail, a missing number stops the node before anything is written', async () => {
		const run = await node.run(MAPPING, rows(newRow('HR-1'), newRow('')));
		expect(run.error?.message).toMatch(/Employee Number to Match On is empty/);
		expect((run.error as { description?: string }).description).toMatch(/Nothing was written/);
		expect(person('HR-1')).toBeUndefined();
		expect(await node.requests()).toEqual({ [`GET ${EMPLOYEES}`]: 1 });
	});
});
