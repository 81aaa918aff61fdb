import { request as httpRequest } from 'node:http';

import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { COMPANY_IDS } from './seed';

const PROJECTS = '/api/v4/integration/projects';

/** A GET with the path sent byte for byte (a URL object would resolve `..` segments before sending). */
function rawGet(
	baseUrl: string,
	rawPath: string,
	token: string,
): Promise<{ status: number; body: { message?: string } }> {
	const url = new URL(baseUrl);
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			{ host: url.hostname, port: url.port, path: rawPath, headers: { authorization: `Bearer ${token}` } },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						body: JSON.parse(Buffer.concat(chunks).toString() || '{}'),
					}),
				);
			},
		);
		req.on('error', reject);
		req.end();
	});
}

describe('sandbox core: projects', () => {
	const sb = useSandbox();
	let admin: string;
	const api = (path: string, options: Parameters<typeof call>[2] = {}) =>
		call(sb().coreUrl, path, { token: admin, ...options });
	const create = (fields: Record<string, unknown>) =>
		api(PROJECTS, { method: 'POST', json: { companyId: COMPANY_IDS.main, ...fields } });

	beforeAll(async () => {
		admin = await tokenFor(sb());
	});

	it('creates a project: the answer carries id, companyId, projectNumber, name, active (default false) and the clock’s time', async () => {
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { now: '2031-05-01T08:00:00Z' } });
		const res = await create({ projectNumber: 'NEW-1', name: 'Nytt bygg' });
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			companyId: COMPANY_IDS.main,
			projectNumber: 'NEW-1',
			name: 'Nytt bygg',
			active: false,
			requireTaskNumber: false,
			blockedForRegistration: false,
		});
		expect(res.body.id).toEqual(expect.any(String));
		const written = Date.parse(res.body.modifiedDateTime);
		expect(written).toBeGreaterThanOrEqual(Date.parse('2031-05-01T08:00:00Z'));
		expect(written).toBeLessThan(Date.parse('2031-05-01T08:01:00Z'));
		expect(res.body.createdDateTime).toBe(res.body.modifiedDateTime);
		expect(sb().sandbox.world.projects.get(res.body.id)?.name).toBe('Nytt bygg');
	});

	it('requires companyId and projectNumber, naming the missing field', async () => {
		const res = await api(PROJECTS, {
			method: 'POST',
			json: { companyId: COMPANY_IDS.main, name: 'Uten nummer' },
		});
		expect(res.status).toBe(400);
		expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['projectNumber']);
		const noCompany = await api(PROJECTS, { method: 'POST', json: { projectNumber: 'X-1' } });
		expect(noCompany.status).toBe(400);
		expect(noCompany.body.errors[0].field).toBe('companyId');
	});

	it('keeps projectNumber unique within the company, not across companies', async () => {
		expect((await create({ projectNumber: 'DUP-1' })).status).toBe(200);
		const again = await create({ projectNumber: 'DUP-1' });
		expect(again.status).toBe(400);
		expect(again.body.errors[0]).toMatchObject({ field: 'projectNumber', code: 'Duplicate' });
		// The subsidiary is another company of the caller's structure: the same number is fine there.
		expect((await create({ companyId: COMPANY_IDS.subsidiary, projectNumber: 'DUP-1' })).status).toBe(200);
	});

	it.each([
		['startDate', 'tomorrow'],
		['finishedDate', '2026-13-01'],
		['finishedDatePlanned', '01.02.2026'],
		['workBreakLunchStartTime', '25:00'],
		['workBreakDinnerStartTime', '1130'],
		['workBreakLunchLength', 30.5],
		['estimatedHourQty', '12'],
		['active', 'yes'],
		['projectLocationLatitude', 91],
		['name', 42],
		['colour', 'red'],
	])('refuses %s = %j with a 400 naming the field', async (field, value) => {
		const res = await create({ projectNumber: `BAD-${field}`, [field]: value });
		expect(res.status).toBe(400);
		expect(
			res.body.errors.map((e: { field: string; message: string }) => `${e.field} ${e.message}`).join(' '),
		).toContain(field);
		expect([...sb().sandbox.world.projects.values()].some((p) => p.projectNumber === `BAD-${field}`)).toBe(
			false,
		);
	});

	it('accepts ISO 8601 dates with and without time and offset, and HH:mm break times', async () => {
		const res = await create({
			projectNumber: 'TYPES-1',
			startDate: '2026-03-01',
			finishedDatePlanned: '2026-09-30T15:30:00',
			finishedDate: '2026-10-01T12:00:00+02:00',
			workBreakLunchStartTime: '11:30',
			workBreakLunchLength: 30,
			estimatedHourQty: 1250.5,
		});
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			startDate: '2026-03-01',
			workBreakLunchStartTime: '11:30',
			workBreakLunchLength: 30,
			estimatedHourQty: 1250.5,
		});
	});

	it('refuses another company’s companyId and another company’s project with 403, an unknown id with 404', async () => {
		expect((await create({ companyId: COMPANY_IDS.other, projectNumber: 'FOREIGN-1' })).status).toBe(403);
		const foreign = [...sb().sandbox.world.projects.values()].find((p) => p.companyId === COMPANY_IDS.other)!;
		for (const method of ['GET', 'DELETE'])
			expect((await api(`${PROJECTS}/${foreign.id}`, { method })).status).toBe(403);
		expect((await api(`${PROJECTS}/${foreign.id}`, { method: 'PATCH', json: { name: 'x' } })).status).toBe(
			403,
		);
		const missing = await api(`${PROJECTS}/no-such-project`);
		expect(missing.status).toBe(404);
		expect(missing.body.message).toContain('no-such-project');
		expect(sb().sandbox.world.projects.get(foreign.id)?.name).not.toBe('x');
	});

	it('lists the caller’s company’s projects only and finds one by id and by number', async () => {
		const list = await api(PROJECTS);
		expect(list.status).toBe(200);
		const own = [...sb().sandbox.world.projects.values()].filter((p) => p.companyId === COMPANY_IDS.main);
		expect(list.body.map((p: { id: string }) => p.id).sort()).toEqual(own.map((p) => p.id).sort());
		const seeded = own[0];
		expect((await api(`${PROJECTS}/${seeded.id}`)).body).toMatchObject({
			id: seeded.id,
			projectNumber: seeded.projectNumber,
		});
		expect((await api(`${PROJECTS}/by-project-number/${seeded.projectNumber}`)).body.id).toBe(seeded.id);
		const otherNumber = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === COMPANY_IDS.other,
		)!.projectNumber;
		expect((await api(`${PROJECTS}/by-project-number/${otherNumber}`)).status).toBe(404);
	});

	it('reaches the handler with numbers containing / | % and .. as one path segment', async () => {
		const odd = 'P/1|2%3..4';
		const created = await create({ projectNumber: odd });
		expect(created.status).toBe(200);
		const found = await api(`${PROJECTS}/by-project-number/${encodeURIComponent(odd)}`);
		expect(found.status).toBe(200);
		expect(found.body.id).toBe(created.body.id);
		const unknown = 'Z/9|%..';
		const missing = await api(`${PROJECTS}/by-project-number/${encodeURIComponent(unknown)}`);
		expect(missing.status).toBe(404);
		expect(missing.body.message).toBe(`Project with number ${unknown} was not found`);
		// Sent byte for byte: dots inside a segment and encoded separators stay in the one parameter. (A segment
		// that is exactly `..` is resolved by URL parsing in every client and in server.ts, as in any HTTP stack.)
		for (const [segment, number] of [
			['..x', '..x'],
			['a..b%2F..%7C%25', 'a..b/..|%'],
			['%2E%2E%2F', '../'],
		]) {
			const dots = await rawGet(sb().coreUrl, `${PROJECTS}/by-project-number/${segment}`, admin);
			expect(dots.status).toBe(404);
			expect(dots.body.message).toBe(`Project with number ${number} was not found`);
		}
	});

	it('PUT replaces every field: what it does not send goes back to its default', async () => {
		const created = await create({
			projectNumber: 'PUT-1',
			name: 'Før',
			description: 'Lang tekst',
			active: true,
			requireTaskNumber: true,
			estimatedHourQty: 10,
		});
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 3600 } });
		const res = await api(`${PROJECTS}/${created.body.id}`, {
			method: 'PUT',
			json: { companyId: COMPANY_IDS.main, projectNumber: 'PUT-1', name: 'Etter' },
		});
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			id: created.body.id,
			name: 'Etter',
			active: false,
			requireTaskNumber: false,
			blockedForRegistration: false,
		});
		expect(res.body.description).toBeUndefined();
		expect(res.body.estimatedHourQty).toBeUndefined();
		expect(res.body.createdDateTime).toBe(created.body.createdDateTime);
		expect(
			Date.parse(res.body.modifiedDateTime) - Date.parse(created.body.modifiedDateTime),
		).toBeGreaterThanOrEqual(3_600_000);
		expect((await api(`${PROJECTS}/${created.body.id}`)).body).toEqual(res.body);
		const missingNumber = await api(`${PROJECTS}/${created.body.id}`, {
			method: 'PUT',
			json: { companyId: COMPANY_IDS.main, name: 'x' },
		});
		expect(missingNumber.status).toBe(400);
	});

	it('PATCH changes only the fields it sends; explicit null clears; a taken number is refused', async () => {
		await create({ projectNumber: 'PATCH-TAKEN' });
		const created = await create({
			projectNumber: 'PATCH-1',
			name: 'Navn',
			description: 'Beholdes',
			active: true,
		});
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 60 } });
		const res = await api(`${PROJECTS}/${created.body.id}`, {
			method: 'PATCH',
			json: { name: 'Nytt navn', mainContactEmail: null },
		});
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			name: 'Nytt navn',
			description: 'Beholdes',
			active: true,
			projectNumber: 'PATCH-1',
			mainContactEmail: null,
		});
		expect(
			Date.parse(res.body.modifiedDateTime) - Date.parse(created.body.modifiedDateTime),
		).toBeGreaterThanOrEqual(60_000);
		const taken = await api(`${PROJECTS}/${created.body.id}`, {
			method: 'PATCH',
			json: { projectNumber: 'PATCH-TAKEN' },
		});
		expect(taken.status).toBe(400);
		expect(taken.body.errors[0].field).toBe('projectNumber');
		expect(
			(await api(`${PROJECTS}/${created.body.id}`, { method: 'PATCH', json: { startDate: 'soon' } })).status,
		).toBe(400);
		expect(sb().sandbox.world.projects.get(created.body.id)?.projectNumber).toBe('PATCH-1');
	});

	it('links customerNumber to the existing customer, creates a missing one, and keeps the link when omitted', async () => {
		const existing = await create({
			projectNumber: 'CUST-1',
			customerNumber: 'K1000',
			projectCustomerName: 'Ignored for an existing customer',
		});
		expect(existing.body).toMatchObject({
			customerNumber: 'K1000',
			customerName: 'Statens vegvesen',
			projectCustomerName: 'Ignored for an existing customer',
		});
		const fresh = await create({
			projectNumber: 'CUST-2',
			customerNumber: 'K7777',
			projectCustomerName: 'Ny Kunde AS',
		});
		expect(fresh.body).toMatchObject({ customerNumber: 'K7777', customerName: 'Ny Kunde AS' });
		const same = await create({
			projectNumber: 'CUST-3',
			customerNumber: 'K7777',
			projectCustomerName: 'Another name',
		});
		expect(same.body.customerId).toBe(fresh.body.customerId);
		expect(same.body.customerName).toBe('Ny Kunde AS');
		// Omitted on PUT and PATCH: the link stays.
		const put = await api(`${PROJECTS}/${fresh.body.id}`, {
			method: 'PUT',
			json: { companyId: COMPANY_IDS.main, projectNumber: 'CUST-2' },
		});
		expect(put.body).toMatchObject({ customerId: fresh.body.customerId, customerNumber: 'K7777' });
		const patch = await api(`${PROJECTS}/${fresh.body.id}`, { method: 'PATCH', json: { name: 'x' } });
		expect(patch.body.customerNumber).toBe('K7777');
		// Another customer number relinks; null unlinks.
		expect(
			(await api(`${PROJECTS}/${fresh.body.id}`, { method: 'PATCH', json: { customerNumber: 'K1001' } })).body
				.customerName,
		).toBe('Bergen kommune');
		expect(
			(await api(`${PROJECTS}/${fresh.body.id}`, { method: 'PATCH', json: { customerNumber: null } })).body,
		).toMatchObject({ customerId: null, customerNumber: null });
		// Customers belong to a company: the subsidiary's K1000 is its own.
		const subsidiary = await create({
			companyId: COMPANY_IDS.subsidiary,
			projectNumber: 'CUST-4',
			customerNumber: 'K1000',
		});
		expect(subsidiary.body.customerName).toBe('Nye Veier AS');
	});

	it('DELETE answers 204; the project and its work orders are gone', async () => {
		const created = await create({ projectNumber: 'DEL-1' });
		const task = await api('/api/v4/integration/tasks', {
			method: 'POST',
			json: { companyId: COMPANY_IDS.main, projectId: created.body.id, externalId: 'DEL-1-01' },
		});
		expect(task.status).toBe(200);
		expect((await api(`${PROJECTS}/${created.body.id}`, { method: 'DELETE' })).status).toBe(204);
		expect((await api(`${PROJECTS}/${created.body.id}`)).status).toBe(404);
		expect((await api(`/api/v4/integration/tasks/${task.body.id}`)).status).toBe(404);
		expect((await api(`${PROJECTS}/${created.body.id}`, { method: 'DELETE' })).status).toBe(404);
	});

	it('needs the serviceapiv3 scope', async () => {
		const reportingOnly = await tokenFor(sb(), 'fieldops-admin', ['reportingapiv1']);
		expect((await call(sb().coreUrl, PROJECTS, { token: reportingOnly })).status).toBe(403);
		expect((await call(sb().coreUrl, PROJECTS)).status).toBe(401);
	});
});
