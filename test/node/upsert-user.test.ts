/**
 * Issue #32: User (Legacy, v4) → Create or Update by employee number, updated through the company profile ID, through
 * n8n's engine against the sandbox (both variants).
 */
import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../helpers/sandbox';
import { results, rows, upsertRunner } from '../helpers/upsert';
import type { Person } from '../sandbox/state';

const USERS = '/api/v4/integration/users';
const BY_NUMBER = `${USERS}/by-employee-number/{employeeNumber}`;
const PATCH = `PATCH ${USERS}/{companyProfileId}`;

/** The HR system's columns mapped onto the operation; its dates are written day.month.year. */
const MAPPING = {
	employeeNumber: '={{ $json.number }}',
	firstName: '={{ $json.first }}',
	lastName: '={{ $json.last }}',
	mobileWork: '={{ $json.mobile }}',
	birthDate: '={{ $json.born }}',
	employmentStartDate: '={{ $json.start }}',
	dateFormat: 'dd.MM.yyyy',
	additionalFields: { email: '={{ $json.email }}' },
};

const dotted = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;

describe('User (Legacy) → Create or Update (issue #32)', () => {
	const sb = useSandbox();
	const node = upsertRunner(sb, 'user');
	const own = () => sb().clients[0].companyId;
	const people = () => [...sb().sandbox.world.people.values()];
	const ownPeople = () => people().filter((p) => p.companyId === own());
	const person = (number: string) => people().find((p) => p.employeeNumber === number);
	/** [U2] Whether the user answer shows more than the fields the spec lists. */
	const full = () => sb().sandbox.world.variant.v4UserAnswer === 'full';
	const rowOf = (p: Person): IDataObject => ({
		number: p.employeeNumber,
		first: p.firstName,
		last: p.lastName,
		mobile: p.phone,
		born: p.birthDate.slice(0, 10),
		start: p.employments[0].startDate.slice(0, 10),
	});
	const newRow = (number: string, extra: IDataObject = {}): IDataObject => ({
		number,
		first: 'Åse',
		last: 'Bø',
		mobile: '+4799112233',
		born: '1990-04-01',
		start: '2026-01-05',
		...extra,
	});
	const warm = async () => {
		await node.run(MAPPING, rows(newRow('W-0')));
		await node.clear();
	};

	it('creates the new, updates the changed through the profile ID, leaves the rest: one list read', async () => {
		await warm();
		const existing = ownPeople().slice(0, 11);
		const items = rows(
			...existing.map((p, i) => (i === 5 ? { ...rowOf(p), last: 'Nyberg' } : rowOf(p))),
			newRow('U-NEW'),
		);
		const run = await node.run({ ...MAPPING, dateFormat: 'yyyy-MM-dd' }, items, true);
		expect(run.error).toBeUndefined();
		expect(results(run)).toEqual([...existing.map((_, i) => (i === 5 ? 'updated' : 'unchanged')), 'created']);
		expect(run.items['Field Ops'][5].json).toMatchObject({
			result: 'updated',
			id: existing[5].companyProfileId,
			employeeNumber: existing[5].employeeNumber,
			changedFields: ['lastName'],
		});
		expect(run.items['Field Ops'][11].json).toMatchObject({
			result: 'created',
			id: person('U-NEW')?.companyProfileId,
		});
		expect(person('U-NEW')).toMatchObject({ companyId: own(), firstName: 'Åse', phone: '+4799112233' });
		expect(person(existing[5].employeeNumber)?.lastName).toBe('Nyberg');
		expect(await node.requests()).toEqual({ [`GET ${USERS}`]: 1, [`POST ${USERS}`]: 1, [PATCH]: 1 });
	});

	it('reads dates written day.month.year as the same day Field Ops answers; a few users are read one by one', async () => {
		const [a, b] = ownPeople();
		const run = await node.run(
			MAPPING,
			rows(
				{ ...rowOf(a), born: dotted(a.birthDate), start: dotted(a.employments[0].startDate) },
				{ ...rowOf(b), born: '01.01.1950', start: dotted(b.employments[0].startDate) },
			),
		);
		expect(run.error).toBeUndefined();
		expect(results(run)).toEqual(['unchanged', 'updated']);
		expect(run.items['Field Ops'][1].json.changedFields).toEqual(['birthDate']);
		expect(person(b.employeeNumber)?.birthDate).toMatch(/^1950-01-01/);
		expect(await node.requests()).toEqual({ [`GET ${BY_NUMBER}`]: 2, [PATCH]: 1 });
	});

	it('never calls unchanged a field the answer does not show: it is written [U2]', async () => {
		const [a] = ownPeople();
		const run = await node.run(
			MAPPING,
			rows({
				...rowOf(a),
				born: dotted(a.birthDate),
				start: dotted(a.employments[0].startDate),
				email: a.email,
			}),
		);
		expect(run.error).toBeUndefined();
		// The full answer shows the e-mail, which is the same; the answer of the spec's fields does not show it.
		expect(results(run)).toEqual([full() ? 'unchanged' : 'updated']);
		expect(run.items['Field Ops'][0].json.changedFields).toEqual(full() ? [] : ['email']);
	});

	it('fails a repeated and a missing employee number alone', async () => {
		const [a] = ownPeople();
		const run = await node.run(
			MAPPING,
			rows(
				newRow('U-1'),
				newRow(''),
				{ ...rowOf(a), born: dotted(a.birthDate), start: dotted(a.employments[0].startDate) },
				newRow('U-1'),
			),
			true,
		);
		expect(results(run)).toEqual(['created', 'failed', 'unchanged', 'failed']);
		expect(run.items['Field Ops'][1].json.error).toMatch(/^Employee Number to Match On is empty/);
		expect(run.items['Field Ops'][3].json.error).toMatch(/^User U-1: the same user is in item 1 too/);
	});

	it('a refusal in the middle of a batch fails that user in the service’s words; a new user’s required fields are checked first', async () => {
		const run = await node.run(
			MAPPING,
			rows(newRow('U-1'), newRow('U-2', { mobile: '12' }), newRow('U-3', { last: '' }), newRow('U-4')),
			true,
		);
		expect(results(run)).toEqual(['created', 'failed', 'failed', 'created']);
		expect(run.items['Field Ops'][1].json.error).toMatch(
			/^User U-2: Field Ops refused the request: Mobile \(Work\)/,
		);
		expect(run.items['Field Ops'][2].json.error).toMatch(/^User U-3: Last Name is empty/);
		expect(await node.requests()).toMatchObject({ [`POST ${USERS}`]: 3 });
	});
});
