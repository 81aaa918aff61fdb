import { call, type CallOptions, tokenFor, useSandbox } from '../helpers/sandbox';
import { COMPANY_IDS } from './seed';

/**
 * The `alt` variant over real HTTP: every choice of docs/assumptions.md flipped (IDs in the test names). Each
 * test asserts the alt answer, which the default sandbox does not give (test/sandbox/*.test.ts check those).
 */
const WINDOW = { FromDateTime: '2000-01-01T00:00:00Z', ToDateTime: '2100-01-01T00:00:00Z' };
const form = (fields: Record<string, string>, headers: Record<string, string> = {}): CallOptions => ({
	method: 'POST',
	body: new URLSearchParams(fields).toString(),
	headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
});
const ADMIN = { client_id: 'fieldops-admin', client_secret: 'sandbox-admin-secret' };
let unique = 0;
const next = (prefix: string) => `${prefix}-${process.pid}-${++unique}`;

describe('sandbox variant alt', () => {
	const sb = useSandbox({ variant: 'alt', split: true });
	let token: string;
	const core = (path: string, options: CallOptions = {}) => call(sb().coreUrl, path, { token, ...options });
	const reporting = (path: string, query: CallOptions['query'] = {}) =>
		call(sb().reportingUrl, path, { token, query });
	const machineState = (path: string, json: unknown) =>
		call(sb().machineStateUrl, `/api/external-excavator-state${path}`, { method: 'POST', token, json });
	const world = () => sb().sandbox.world;
	const projectOf = (companyId: string) =>
		[...world().projects.values()].find((p) => p.companyId === companyId) as {
			id: string;
			projectNumber: string;
		};
	const activity = async (json: Record<string, unknown>) =>
		(await call(sb().coreUrl, '/__sandbox/activity', { method: 'POST', json })).body.ids as string[];
	const groundTruth = async (kind: string) =>
		(await call(sb().coreUrl, `/__sandbox/records/${kind}`)).body.records as Record<string, unknown>[];
	const clockMinusOneSecond = async () =>
		new Date(Date.parse((await call(sb().coreUrl, '/__sandbox/clock')).body.now) - 1000).toISOString();
	const advanceClock = (advanceSeconds: number) =>
		call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds } });
	const newProject = async (fields: Record<string, unknown> = {}) =>
		(
			await core('/api/v4/integration/projects', {
				method: 'POST',
				json: { companyId: COMPANY_IDS.main, projectNumber: next('P'), name: 'Alt', ...fields },
			})
		).body as Record<string, string>;
	const newTask = async (projectId: string, fields: Record<string, unknown> = {}) =>
		(
			await core('/api/v4/integration/tasks', {
				method: 'POST',
				json: { companyId: COMPANY_IDS.main, projectId, externalId: next('T'), ...fields },
			})
		).body as Record<string, string>;

	beforeAll(async () => {
		token = await tokenFor(sb());
	});

	it('reports its variant in the ready information', () => {
		expect(sb().variant).toBe('alt');
	});

	describe('token server and bearer checks', () => {
		it('[A1] leaves a scope the client lacks out of the token, keeping the documented response shape', async () => {
			const res = await call(
				sb().identityUrl,
				'/connect/token',
				form({
					grant_type: 'client_credentials',
					client_id: 'fieldops-user',
					client_secret: 'sandbox-user-secret',
					scope: 'serviceapiv3 masstransportapiv1',
				}),
			);
			expect(res.status).toBe(200);
			// The spec's shape: `expires_in` an int, `token_type` Bearer; `scope` names only what was granted.
			expect(res.body).toEqual({
				access_token: expect.any(String),
				expires_in: 1800,
				token_type: 'Bearer',
				scope: 'serviceapiv3',
			});
			const none = await call(
				sb().identityUrl,
				'/connect/token',
				form({
					grant_type: 'client_credentials',
					client_id: 'fieldops-reporting',
					client_secret: 'sandbox-reporting-secret',
					scope: 'masstransportapiv1',
				}),
			);
			expect([none.status, none.body.error]).toEqual([400, 'invalid_scope']);
		});

		it('[A2] refuses a token request without scope', async () => {
			const res = await call(
				sb().identityUrl,
				'/connect/token',
				form({ grant_type: 'client_credentials', ...ADMIN }),
			);
			expect([res.status, res.body.error]).toEqual([400, 'invalid_scope']);
		});

		it('[A3] refuses client authentication with HTTP Basic', async () => {
			const basic = Buffer.from('fieldops-admin:sandbox-admin-secret').toString('base64');
			const res = await call(
				sb().identityUrl,
				'/connect/token',
				form(
					{ grant_type: 'client_credentials', scope: 'serviceapiv3' },
					{ authorization: `Basic ${basic}` },
				),
			);
			expect([res.status, res.body.error]).toEqual([401, 'invalid_client']);
		});

		it('[A4][A5] answers a token without the scope with an empty 401 (audience) and a missing token with an empty 401', async () => {
			const reportingOnly = await tokenFor(sb(), 'fieldops-reporting');
			const res = await core('/api/v4/integration/projects', { token: reportingOnly });
			expect(res.status).toBe(401);
			expect(res.headers['www-authenticate']).toContain('invalid_token');
			expect(res.raw.length).toBe(0);
			const none = await call(sb().coreUrl, '/api/v4/integration/projects');
			expect([none.status, none.raw.length]).toEqual([401, 0]);
		});
	});

	describe('errors and request bodies', () => {
		it('[E1] answers core errors as RFC 7807 problem details, field errors as a map', async () => {
			const missing = await core('/api/v4/integration/projects/no-such-project');
			expect(missing.status).toBe(404);
			expect(missing.headers['content-type']).toContain('application/problem+json');
			expect(missing.body).toMatchObject({ status: 404, title: 'Not Found', detail: expect.any(String) });
			const invalid = await core('/api/v4/integration/machines', {
				method: 'POST',
				json: { companyId: COMPANY_IDS.main, machineNumber: next('M'), typeId: 'hovercraft' },
			});
			expect(invalid.status).toBe(400);
			expect(invalid.body.errors.typeId[0]).toContain('MachineService.machineTypeInvalid');
			expect(Array.isArray(invalid.body.errors)).toBe(false);
		});

		it('[E1] keeps the v5 body on employees, problem details on reporting, plain text on machine-state', async () => {
			const employee = await core('/api/v5/integration/employees/no-such-number');
			expect(employee.status).toBe(404);
			expect(employee.body).toEqual({
				message: expect.any(String),
				errors: [expect.objectContaining({ field: 'employeeNumber' })],
			});
			const report = await reporting('/v1/time-registrations', { ChunkLimit: 'many' });
			expect(report.headers['content-type']).toContain('application/problem+json');
			expect(report.body.errors.ChunkLimit).toEqual([expect.any(String)]);
			const state = await machineState('', { companyId: COMPANY_IDS.main });
			expect(state.status).toBe(400);
			expect(state.headers['content-type']).toContain('text/plain');
			expect(state.raw.toString()).toContain('projectId');
		});

		it('[E2] answers a duplicate project number with 409', async () => {
			const first = await newProject();
			const again = await core('/api/v4/integration/projects', {
				method: 'POST',
				json: { companyId: COMPANY_IDS.main, projectNumber: first.projectNumber },
			});
			expect(again.status).toBe(409);
			expect(again.body.errors.projectNumber).toHaveLength(1);
		});

		it('[E3] ignores unknown JSON fields instead of refusing them', async () => {
			const res = await core('/api/v4/integration/projects', {
				method: 'POST',
				json: { companyId: COMPANY_IDS.main, projectNumber: next('P'), colour: 'blue', name: 'Lenient' },
			});
			expect(res.status).toBe(201);
			expect(res.body.name).toBe('Lenient');
			expect(res.body).not.toHaveProperty('colour');
		});

		it('[E4] refuses JSON bodies over 1 MiB with 413', async () => {
			const res = await core('/api/v4/integration/projects', {
				method: 'POST',
				json: {
					companyId: COMPANY_IDS.main,
					projectNumber: next('P'),
					description: 'x'.repeat(1.5 * 1024 * 1024),
				},
			});
			expect(res.status).toBe(413);
		});

		it('[E5] is lenient with query values it does not offer', async () => {
			expect((await core('/api/projects', { query: { activeInactiveAll: 7 } })).status).toBe(200);
			expect(
				(await core('/api/v5/integration/employees', { query: { include: 'tags,shoe-size' } })).status,
			).toBe(200);
			const page = await reporting('/v1/time-registrations', { ...WINDOW, ChunkLimit: 0 });
			expect(page.status).toBe(200);
			expect(page.body.data).toHaveLength(1);
			const [row] = (await reporting('/v1/images', { ...WINDOW, ChunkLimit: 1 })).body.data;
			const original = await call(row.downloadUrl, '', { token });
			const odd = await call(`${row.downloadUrl}?MaxDimension=300`, '', { token });
			expect(odd.status).toBe(200);
			expect(odd.raw.equals(original.raw)).toBe(true);
		});
	});

	describe('core API answers', () => {
		it('[C1][C2][C3][C4] creates with 201, answers PUT/PATCH with 204 and DELETE with the record, without timestamps', async () => {
			const project = await newProject();
			expect(project).not.toHaveProperty('createdDateTime');
			expect(project).not.toHaveProperty('modifiedDateTime');
			const path = `/api/v4/integration/projects/${project.id}`;
			const patched = await core(path, { method: 'PATCH', json: { name: 'Renamed' } });
			expect([patched.status, patched.raw.length]).toEqual([204, 0]);
			const put = await core(path, {
				method: 'PUT',
				json: { companyId: COMPANY_IDS.main, projectNumber: project.projectNumber },
			});
			expect(put.status).toBe(204);
			const gone = await core(path, { method: 'DELETE' });
			expect(gone.status).toBe(200);
			expect(gone.body).toMatchObject({ id: project.id, projectNumber: project.projectNumber });
			const task = await newTask((await newProject()).id);
			expect(task).not.toHaveProperty('modifiedDateTime');
		});

		it('[C5] lists the whole company structure and looks project numbers up in the own company only', async () => {
			const listed = (await core('/api/v4/integration/projects')).body as { companyId: string }[];
			expect(listed.some((p) => p.companyId === COMPANY_IDS.subsidiary)).toBe(true);
			const subsidiary = projectOf(COMPANY_IDS.subsidiary);
			expect(
				(await core(`/api/v4/integration/projects/by-project-number/${subsidiary.projectNumber}`)).status,
			).toBe(404);
			const machine = [...world().machines.values()].find(
				(m) => m.companyId === COMPANY_IDS.subsidiary && !m.isEquipment,
			);
			const byNumber = await core(`/api/v4/integration/machines/by-machine-number/${machine?.machineNumber}`);
			expect([byNumber.status, byNumber.body.id]).toEqual([200, machine?.id]);
		});

		it('[P1] shows the customer link as one nested object', async () => {
			const project = await newProject({ customerNumber: 'K1000' });
			expect(project.customer).toEqual({
				id: expect.any(String),
				customerNumber: 'K1000',
				name: expect.any(String),
			});
			expect(project).not.toHaveProperty('customerId');
		});

		it('[P2] refuses to delete a project that has work orders', async () => {
			const project = await newProject();
			await newTask(project.id);
			expect((await core(`/api/v4/integration/projects/${project.id}`, { method: 'DELETE' })).status).toBe(
				400,
			);
		});

		it('[P3] searches projects by the start of their number or name only', async () => {
			const project = await newProject({ name: 'Fjordbrua' });
			const hits = async (searchString: string) =>
				(
					(await core('/api/projects/search', { query: { searchString } })).body as { projectId: string }[]
				).map((p) => p.projectId);
			expect(await hits('Fjordb')).toContain(project.id);
			expect(await hits('ordbrua')).not.toContain(project.id);
		});
	});

	describe('work orders', () => {
		it('[W1] numbers work orders itself and finds them by that number, not by externalId', async () => {
			const project = await newProject();
			const first = await newTask(project.id, { externalId: 'EXT-9' });
			const second = await newTask(project.id);
			expect([first.taskNumber, second.taskNumber]).toEqual(['1', '2']);
			const base = `/api/v4/integration/tasks/by-project-number/${project.projectNumber}/by-task-number`;
			expect((await core(`${base}/2`)).body.id).toBe(second.id);
			expect((await core(`${base}/EXT-9`)).status).toBe(404);
		});

		it('[W2] copies from the template only the settings the spec names as fields', async () => {
			const project = await newProject();
			await call(sb().coreUrl, '/__sandbox/template', {
				method: 'POST',
				json: { projectId: project.id, fields: { costPrice: 450, textRequired: true, taskType: 'Drift' } },
			});
			const task = await newTask(project.id);
			expect(task.costPrice).toBe(450);
			expect(task.textRequired).toBe(false);
			expect(task).not.toHaveProperty('taskType');
		});

		it('[W3] takes the project’s company when companyId differs', async () => {
			const project = await newProject();
			const task = await newTask(project.id, { companyId: COMPANY_IDS.subsidiary });
			expect(task.companyId).toBe(COMPANY_IDS.main);
		});

		it('[W4][W5] marks a parent itself and deletes sub-orders with their parent', async () => {
			const project = await newProject();
			const parent = await newTask(project.id);
			const child = await newTask(project.id, { parentActivityId: parent.id });
			expect(child.parentActivityId).toBe(parent.id);
			expect(world().tasks.get(parent.id)?.isParent).toBe(true);
			expect((await core(`/api/v4/integration/tasks/${parent.id}`, { method: 'DELETE' })).status).toBe(200);
			expect((await core(`/api/v4/integration/tasks/${child.id}`)).status).toBe(404);
		});
	});

	describe('machines', () => {
		const MACHINES = '/api/v4/integration/machines';
		const createMachine = async (fields: Record<string, unknown> = {}) =>
			(
				await core(MACHINES, {
					method: 'POST',
					json: { companyId: COMPANY_IDS.main, machineNumber: next('M'), typeId: 'excavator', ...fields },
				})
			).body as Record<string, unknown>;

		it('[M1] answers create/array with the ids of the saved machines only', async () => {
			const res = await core(`${MACHINES}/create/array`, {
				method: 'POST',
				json: [
					{ companyId: COMPANY_IDS.main, machineNumber: next('M') },
					{ companyId: COMPANY_IDS.main, machineNumber: next('M'), typeId: 'hovercraft' },
					{ companyId: COMPANY_IDS.main, machineNumber: next('M') },
				],
			});
			expect(res.status).toBe(200);
			expect(res.body).toHaveLength(2);
			for (const id of res.body) expect(world().machines.has(id)).toBe(true);
		});

		it('[M1][M2] answers update/array with the saved machines and treats each element as the complete machine', async () => {
			const machine = await createMachine({ name: 'Volvo', weight: 21_000 });
			const res = await core(`${MACHINES}/update/array`, {
				method: 'PUT',
				json: [
					{
						id: machine.id,
						companyId: COMPANY_IDS.main,
						machineNumber: machine.machineNumber,
						name: 'Volvo EC250',
					},
					{ id: 'no-such-machine', companyId: COMPANY_IDS.main, machineNumber: next('M') },
				],
			});
			expect(res.body).toEqual([expect.objectContaining({ id: machine.id, name: 'Volvo EC250' })]);
			expect(res.body[0]).not.toHaveProperty('weight');
			expect(world().machines.get(String(machine.id))?.typeId).toBeNull();
		});

		it('[M3][M4] links equipment with parentId, ignores parentMachineId and lists it as linkedEquipment', async () => {
			const machine = await createMachine();
			const linked = await createMachine({ isEquipment: true, parentId: machine.id });
			const ignored = await createMachine({ isEquipment: true, parentMachineId: machine.id });
			expect(linked.parentId).toBe(machine.id);
			expect(ignored.parentId).toBeNull();
			const read = await core(`${MACHINES}/${machine.id}`, { query: { includeEquipmentDetails: true } });
			expect((read.body.linkedEquipment as { id: string }[]).map((e) => e.id)).toEqual([linked.id]);
			expect(read.body).not.toHaveProperty('equipment');
		});

		it('[M5] lets a machine with linked equipment be deleted and unlinks the equipment', async () => {
			const machine = await createMachine();
			const equipment = await createMachine({ isEquipment: true, parentId: machine.id });
			expect((await core(`${MACHINES}/is-machine-deletable/${machine.id}`)).body).toBe(true);
			expect((await core(`${MACHINES}/${machine.id}`, { method: 'DELETE' })).status).toBe(200);
			expect((await core(`${MACHINES}/${equipment.id}`)).body.parentId).toBeNull();
		});

		it('[M6] resets the ESG values on PUT', async () => {
			const machine = await createMachine();
			await core(`${MACHINES}/${machine.id}/esg`, { method: 'PATCH', json: { fuelType: 1 } });
			expect(world().machines.get(String(machine.id))?.fuelType).toBe(1);
			await core(`${MACHINES}/${machine.id}`, {
				method: 'PUT',
				json: { companyId: COMPANY_IDS.main, machineNumber: machine.machineNumber },
			});
			expect(world().machines.get(String(machine.id))?.fuelType).toBeUndefined();
		});

		it('[M7] names machine types with typeName', async () => {
			const types = (await core('/api/MachineType')).body as Record<string, string>[];
			expect(types[0]).toEqual({ typeId: expect.any(String), typeName: expect.any(String) });
		});
	});

	describe('lookups', () => {
		it('[L1] answers projects, work orders and resources under other field names', async () => {
			const [project] = (await core('/api/projects')).body;
			expect(Object.keys(project).sort()).toEqual([
				'companyId',
				'externalNumber',
				'isActive',
				'number',
				'projectId',
				'projectName',
			]);
			const [task] = (
				await core(`/api/projects/${project.projectId}/tasks`, { query: { activeInactiveAll: 2 } })
			).body;
			expect(task).toMatchObject({ taskId: expect.any(String), taskName: expect.anything() });
			const machine = [...world().machines.values()].find((m) => m.companyId === COMPANY_IDS.main);
			const details = await core(`/api/resources/details/${machine?.id}`);
			expect(details.body).toMatchObject({
				id: machine?.id,
				number: machine?.machineNumber,
				type: 'machine',
			});
			expect((await core('/api/resources/types')).body).toEqual(['Machine', 'Equipment', 'Person']);
		});
	});

	describe('documents and files', () => {
		const upload = async (
			path: string,
			files: { name?: string; content: string; type: string }[],
			query = {},
		) => {
			const body = new FormData();
			for (const f of files) body.append('file', new Blob([f.content], { type: f.type }), f.name as string);
			return core(path, { method: 'POST', body, query });
		};

		it('[C1][D1][D2][D3][D6] answers an upload with 201, a storage path, the MIME type, its own collectionRef; downloads name the file in filename* only', async () => {
			const project = await newProject();
			const res = await upload(`/api/v4/integration/projects/${project.id}/documents`, [
				{ name: 'tegning.pdf', content: '%PDF', type: 'application/pdf' },
			]);
			expect(res.status).toBe(201);
			const [file] = res.body.files;
			expect(file.url).toBe(`${COMPANY_IDS.main}/${file.fileReference.id}/tegning.pdf`);
			expect(file.fileReference).toMatchObject({
				fileType: 'application/pdf',
				collectionRef: 'information_page',
			});
			const download = await core(
				`/api/v4/integration/projects/${project.id}/documents/${file.fileReference.id}`,
			);
			expect(download.headers['content-disposition']).toBe("attachment; filename*=UTF-8''tegning.pdf");
		});

		it('[D4] refuses a file part without a filename', async () => {
			const project = await newProject();
			const boundary = 'altboundary';
			const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n\r\nbytes\r\n--${boundary}--\r\n`;
			const res = await core(`/api/v4/integration/projects/${project.id}/documents`, {
				method: 'POST',
				body,
				headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
			});
			expect(res.status).toBe(400);
		});

		it('[D5] names a work order’s default section after its short description first', async () => {
			const project = await newProject();
			const task = await newTask(project.id, { workDescriptionShort: 'Grunnarbeid' });
			const res = await upload(`/api/v4/integration/tasks/${task.id}/documents`, [
				{ name: 'a.txt', content: 'a', type: 'text/plain' },
			]);
			expect(res.body.section).toBe('Grunnarbeid');
		});
	});

	describe('users v4', () => {
		const USERS = '/api/v4/integration/users';
		const createUser = async (fields: Record<string, unknown> = {}) =>
			core(USERS, {
				method: 'POST',
				json: {
					companyId: COMPANY_IDS.main,
					employeeNumber: next('U'),
					firstName: 'Kari',
					lastName: 'Nordmann',
					mobileWork: '+4790000000',
					birthDate: '01.02.1990',
					employmentStartDate: '2020-01-01',
					...fields,
				},
			});

		it('[C1][U2][X1] creates with 201, answers only the fields the spec shows, with deprecation headers', async () => {
			const res = await createUser({ department: 'Anlegg' });
			expect(res.status).toBe(201);
			expect(Object.keys(res.body).sort()).toEqual(
				[
					'birthDate',
					'companyId',
					'companyProfileId',
					'employeeNumber',
					'employmentStartDate',
					'firstName',
					'identityId',
					'lastName',
					'mobileWork',
				].sort(),
			);
			expect(res.headers.deprecation).toMatch(/^@\d+$/);
			expect(res.headers.sunset).toEqual(expect.any(String));
		});

		it('[U1][U3][U4] answers dates with a time, merges PATCH tags by key, lets the path win on PUT', async () => {
			const created = (await createUser({ tags: [{ key: 'skift', value: 'A' }] })).body;
			expect([created.birthDate, created.employmentStartDate]).toEqual([
				'1990-02-01T00:00:00',
				'2020-01-01T00:00:00',
			]);
			const profile = created.companyProfileId;
			const patched = await core(`${USERS}/${profile}`, {
				method: 'PATCH',
				json: { tags: [{ key: 'lag', value: '3' }] },
			});
			expect(patched.status).toBe(204);
			const person = world().people.get(profile);
			expect(person?.v4Tags).toEqual([
				{ key: 'skift', value: 'A' },
				{ key: 'lag', value: '3' },
			]);
			const put = await core(`${USERS}/${encodeURIComponent(created.identityId)}`, {
				method: 'PUT',
				json: {
					identityId: 'auth0|someone-else',
					companyProfileId: 'another-profile',
					companyId: COMPANY_IDS.main,
					employeeNumber: created.employeeNumber,
					firstName: 'Kari',
					lastName: 'Nordmann',
					mobileWork: '+4790000000',
					birthDate: '1990-02-01',
					employmentStartDate: '2020-01-01',
				},
			});
			expect(put.status).toBe(204);
			expect(world().people.get(profile)?.identityId).toBe(created.identityId);
		});

		it('[U5] treats changedSince as exclusive', async () => {
			const created = (await createUser()).body;
			const modified = world().people.get(created.companyProfileId)?.modifiedDateTime as string;
			const numbers = async (changedSince: string) =>
				((await core(USERS, { query: { changedSince } })).body as { employeeNumber: string }[]).map(
					(u) => u.employeeNumber,
				);
			expect(await numbers(modified)).not.toContain(created.employeeNumber);
			expect(await numbers(new Date(Date.parse(modified) - 1).toISOString())).toContain(
				created.employeeNumber,
			);
		});

		it('[U6] deletes a user only once disabled', async () => {
			const created = (await createUser()).body;
			const deletable = () =>
				core(`${USERS}/is-identity-deletable/${encodeURIComponent(created.identityId)}`);
			expect((await deletable()).body).toBe(false);
			await core(`${USERS}/disable/${created.companyProfileId}`, { method: 'PATCH' });
			expect((await deletable()).body).toBe(true);
			expect(
				(await core(`${USERS}/${encodeURIComponent(created.identityId)}`, { method: 'DELETE' })).status,
			).toBe(200);
		});
	});

	describe('employees v5', () => {
		const EMPLOYEES = '/api/v5/integration/employees';
		const createEmployee = async () => {
			const employeeNumber = next('E');
			const res = await core(EMPLOYEES, {
				method: 'POST',
				json: {
					employeeNumber,
					firstName: 'Ola',
					lastName: 'Hansen',
					phone: '+4791111111',
					birthDate: '1985-05-05',
					employment: { startDate: '2020-01-01' },
				},
			});
			return { employeeNumber, res };
		};

		it('[V1] answers an employee with other names for what the spec does not show', async () => {
			const { res } = await createEmployee();
			expect(res.status).toBe(201);
			expect(res.body).toMatchObject({
				disabled: false,
				currentEmployment: expect.objectContaining({ startDate: '2020-01-01' }),
			});
			for (const field of ['companyId', 'isDisabled', 'employment', 'projectCompanies', 'employmentHistory'])
				expect(res.body).not.toHaveProperty(field);
		});

		it('[V2] answers search hits with the number, one name and hasActiveEmployment', async () => {
			const { employeeNumber } = await createEmployee();
			const [hit] = (await core(`${EMPLOYEES}/search`, { query: { query: employeeNumber } })).body;
			expect(hit).toEqual({ employeeNumber, name: 'Ola Hansen', hasActiveEmployment: true });
		});

		it('[V3][V4] finds a subsidiary’s employee without the flag; another company’s is 403', async () => {
			const subsidiary = world().peopleOf(COMPANY_IDS.subsidiary)[0];
			expect((await core(`${EMPLOYEES}/${subsidiary.employeeNumber}`)).status).toBe(200);
			const other = world().peopleOf(COMPANY_IDS.other)[0];
			expect((await core(`${EMPLOYEES}/${other.employeeNumber}`)).status).toBe(403);
		});

		it('[V5] requires phone on PUT', async () => {
			const { employeeNumber } = await createEmployee();
			const res = await core(`${EMPLOYEES}/${employeeNumber}`, {
				method: 'PUT',
				json: { firstName: 'Ola', lastName: 'Hansen', birthDate: '1985-05-05' },
			});
			expect(res.status).toBe(400);
			expect(res.body.errors[0].field).toBe('phone');
		});

		it('[V6][V7] answers the employment actions with 204 (create-employment with the new employment) and ignores startDate on update-employment', async () => {
			const { employeeNumber } = await createEmployee();
			const update = await core(`${EMPLOYEES}/${employeeNumber}/update-employment`, {
				method: 'PATCH',
				json: { department: 'Vei', startDate: '2019-01-01' },
			});
			expect([update.status, update.raw.length]).toEqual([204, 0]);
			const person = [...world().people.values()].find((p) => p.employeeNumber === employeeNumber);
			expect([person?.employments[0].department, person?.employments[0].startDate]).toEqual([
				'Vei',
				'2020-01-01',
			]);
			const created = await core(`${EMPLOYEES}/${employeeNumber}/create-employment`, {
				method: 'POST',
				json: { startDate: '2031-01-01' },
			});
			expect(created.status).toBe(201);
			expect(created.body).toMatchObject({ id: expect.any(String), startDate: '2031-01-01' });
			const changed = await core(`${EMPLOYEES}/${employeeNumber}/change-employee-number`, {
				method: 'PATCH',
				json: { newEmployeeNumber: next('E') },
			});
			expect(changed.status).toBe(204);
		});

		it('[V8] answers Set Tags with counts', async () => {
			const { employeeNumber } = await createEmployee();
			const res = await core(`${EMPLOYEES}/${employeeNumber}/tags`, {
				method: 'PUT',
				json: [{ tagName: 'Førstehjelp' }],
			});
			expect(res.body).toMatchObject({
				added: 1,
				updated: 0,
				removed: 0,
				currentTags: [expect.objectContaining({ tagName: 'Førstehjelp' })],
			});
		});

		it('[U6][V9] deletes an employee only once disabled, and refuses DELETE otherwise', async () => {
			const { employeeNumber } = await createEmployee();
			expect((await core(`${EMPLOYEES}/${employeeNumber}/deletable`)).body).toEqual({
				isDeletable: false,
				validationErrors: ['The employee must be disabled first'],
			});
			expect((await core(`${EMPLOYEES}/${employeeNumber}`, { method: 'DELETE' })).status).toBe(400);
			await core(`${EMPLOYEES}/${employeeNumber}/disable`, { method: 'PATCH' });
			expect((await core(`${EMPLOYEES}/${employeeNumber}`, { method: 'DELETE' })).status).toBe(204);
		});
	});

	describe('certificates', () => {
		const certificate = (employeeNumber: string, certificateType: string) => ({
			employeeNumber,
			certificateType,
			issuedDateTime: '2025-01-01T00:00:00Z',
			validUntilDateTime: '2030-01-01T00:00:00Z',
		});

		it('[K1][K2] answers counts, and saves the good entries of a batch it refuses', async () => {
			const employeeNumber = world().peopleOf(COMPANY_IDS.main)[0].employeeNumber;
			const type = next('Kurs');
			const ok = await core('/api/v4/integration/certificates', {
				method: 'POST',
				json: [certificate(employeeNumber, type)],
			});
			expect(ok.body).toEqual({ created: 1, updated: 0 });
			const other = next('Kurs');
			const mixed = await core('/api/v4/integration/certificates', {
				method: 'POST',
				json: [certificate('nobody', other), certificate(employeeNumber, other)],
			});
			expect(mixed.status).toBe(400);
			expect(Object.keys(mixed.body.errors)).toEqual(['[0].employeeNumber']);
			const saved = world().extra.get('certificates') as { certificateType: string }[];
			expect(saved.some((c) => c.certificateType === other)).toBe(true);
		});
	});

	describe('machine-state API', () => {
		const record = (state: string, startTime: string, endTime: string) => ({
			companyId: COMPANY_IDS.main,
			projectId: projectOf(COMPANY_IDS.main).id,
			machineId: next('EX'),
			state,
			startTime,
			endTime,
		});

		it('[S1][S2][S6] allows only its own states, answers 201 without a body, accepts an end before the start', async () => {
			expect(
				(await machineState('', record('digging', '2026-11-01T08:00:00Z', '2026-11-01T09:00:00Z'))).status,
			).toBe(400);
			const created = await machineState(
				'',
				record('working', '2026-11-01T10:00:00Z', '2026-11-01T09:00:00Z'),
			);
			expect([created.status, created.raw.length]).toEqual([201, 0]);
		});

		it('[S3] refuses a whole import with a bad record, naming it, and saves nothing', async () => {
			const good = record('idle', '2026-11-02T08:00:00Z', '2026-11-02T09:00:00Z');
			const res = await machineState('/import', [good, { ...good, state: 'digging' }]);
			expect(res.status).toBe(400);
			expect(res.raw.toString()).toContain('[1].state');
			const saved = () => (world().extra.get('machine-states') as { machineId: string }[] | undefined) ?? [];
			expect(saved().some((r) => r.machineId === good.machineId)).toBe(false);
			const imported = await machineState('/import', [good]);
			expect([imported.status, imported.raw.length]).toEqual([201, 0]);
		});

		it('[S4][S5] answers latest-timestamp bare and aggregates with machineIds/startTime/endTime into {data}', async () => {
			const base = record('off', '2030-01-01T08:00:00Z', '2030-01-01T10:00:00Z');
			await machineState('', base);
			const latest = await call(
				sb().machineStateUrl,
				`/api/external-excavator-state/latest-timestamp/${base.companyId}/${base.projectId}`,
				{ token },
			);
			expect(latest.body).toBe('2030-01-01T10:00:00.000Z');
			const res = await machineState('/aggregated-data-per-state', {
				companyId: base.companyId,
				projectId: base.projectId,
				machineIds: [base.machineId],
				startTime: '2030-01-01T09:00:00Z',
				endTime: '2030-01-02T00:00:00Z',
			});
			expect(res.body).toEqual({ data: [{ stateType: 'off', totalSeconds: 3600, count: 1 }] });
			// The sandbox's own request fields are unknown here (so ignored): the whole period of every machine.
			const sandboxShape = await machineState('/aggregated-data-per-state', {
				companyId: base.companyId,
				projectId: base.projectId,
				machineId: base.machineId,
				from: '2030-01-01T09:00:00Z',
			});
			expect(sandboxShape.body.data).toContainEqual({ stateType: 'off', totalSeconds: 2 * 3600, count: 1 });
		});
	});

	describe('reporting API', () => {
		it('[R1][C4][R18] names the ids of unshown records, leaves their timestamps out, and stamps .NET-style times', async () => {
			const [time] = (await reporting('/v1/time-registrations', { ...WINDOW, ChunkLimit: 1 })).body.data;
			expect(time.timeRegistrationId).toEqual(expect.any(String));
			expect(time).not.toHaveProperty('id');
			expect(time).not.toHaveProperty('createdDateTime');
			const [user] = (await reporting('/v1/user', { ChunkLimit: 1 })).body.data;
			expect(user.userId).toEqual(expect.any(String));
			expect(user).not.toHaveProperty('modifiedDateTime');
			const [incident] = (
				await reporting('/v1/incident-registrations', {
					ChunkLimit: 1,
					ModifiedSince: '2000-01-01T00:00:00Z',
				})
			).body.data;
			expect(incident.id).toEqual(expect.any(String));
			expect(incident).not.toHaveProperty('createdDateTime');
			const [machine] = (await reporting('/v1/machine-registrations', { ...WINDOW, ChunkLimit: 1 })).body
				.data;
			expect(machine.modifiedDateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}$/);
			const [image] = (await reporting('/v1/images', { ...WINDOW, ChunkLimit: 1 })).body.data;
			expect(image.parentModifiedDateTime).toMatch(/\.\d{7}$/);
		});

		it('[F1–F42] serves time registrations, payroll lines, checklists and incidents under other field names; shown shapes unchanged', async () => {
			const [time] = (await reporting('/v1/time-registrations', { ...WINDOW, ChunkLimit: 1 })).body.data;
			expect(Object.keys(time)).toEqual(
				expect.arrayContaining([
					'userName',
					'workOrderName',
					'workDate',
					'startTime',
					'endTime',
					'qty',
					'isApproved',
					'note',
				]),
			);
			for (const name of [
				'employeeName',
				'taskName',
				'date',
				'startDateTime',
				'stopDateTime',
				'hours',
				'comment',
			])
				expect(time).not.toHaveProperty(name);
			const [payroll] = (await reporting('/v1/payroll-lines-extended', { ...WINDOW, ChunkLimit: 1 })).body
				.data;
			expect(Object.keys(payroll)).toEqual(
				expect.arrayContaining([
					'payrollNumber',
					'wageTypeCode',
					'wageTypeName',
					'qty',
					'unitName',
					'approvedForPayroll',
				]),
			);
			const since = { ModifiedSince: '2000-01-01T00:00:00Z', ChunkLimit: 1 };
			const [checklist] = (await reporting('/v1/checklist-registrations', since)).body.data;
			expect(Object.keys(checklist)).toEqual(
				expect.arrayContaining(['checklistName', 'createdByName', 'state', 'pdfUrl']),
			);
			const [incident] = (await reporting('/v1/machine-incident-registrations', since)).body.data;
			expect(Object.keys(incident)).toEqual(
				expect.arrayContaining(['name', 'text', 'priority', 'reportedByName', 'pdfUrl']),
			);
			// The shapes the spec shows keep their names.
			const [absence] = (await reporting('/v1/absence-registrations', { ...WINDOW, ChunkLimit: 1 })).body
				.data;
			expect(Object.keys(absence)).toEqual(
				expect.arrayContaining(['date', 'qty', 'absenceTypeCode', 'employeeNumber']),
			);
			const [machine] = (await reporting('/v1/machine-registrations', { ...WINDOW, ChunkLimit: 1 })).body
				.data;
			expect(Object.keys(machine)).toEqual(
				expect.arrayContaining(['startDateTime', 'stopDateTime', 'qty', 'machineName']),
			);
		});

		it('[R2] refuses parameters an endpoint does not list, reading checklist "standard filters" narrowly', async () => {
			const unknown = await reporting('/v1/time-registrations', { ...WINDOW, Colour: 'blue' });
			expect(unknown.status).toBe(400);
			expect(unknown.body.errors).toHaveProperty('Colour');
			expect((await reporting('/v1/checklist-registrations', WINDOW)).status).toBe(400);
			const project = projectOf(COMPANY_IDS.main);
			expect(
				(
					await reporting('/v1/checklist-registrations', {
						ProjectId: project.id,
						ModifiedSince: '2000-01-01T00:00:00Z',
					})
				).status,
			).toBe(200);
		});

		it('[R3] checks ModifiedBefore only on images', async () => {
			expect(
				(await reporting('/v1/time-registrations', { ModifiedBefore: '2026-01-01T00:00:00Z' })).status,
			).toBe(200);
			expect((await reporting('/v1/images', { ModifiedBefore: '2026-01-01T00:00:00Z' })).status).toBe(400);
		});

		it('[R4][R5] treats ToDateTime and ModifiedSince as exclusive', async () => {
			const [id] = await activity({ kind: 'time-registrations', action: 'create' });
			const truth = (await groundTruth('time-registrations')).find((r) => r.id === id) as Record<
				string,
				string
			>;
			const ids = async (query: Record<string, string>) =>
				(
					(await reporting('/v1/time-registrations', query)).body.data as { timeRegistrationId: string }[]
				).map((r) => r.timeRegistrationId);
			const at = truth.createdDateTime;
			const after = new Date(Date.parse(at) + 1).toISOString();
			const before = new Date(Date.parse(at) - 1).toISOString();
			expect(await ids({ ModifiedSince: at })).not.toContain(id);
			expect(await ids({ ModifiedSince: before })).toContain(id);
			expect(await ids({ FromDateTime: before, ToDateTime: at })).not.toContain(id);
			expect(await ids({ FromDateTime: before, ToDateTime: after })).toContain(id);
		});

		it('[R6] applies the full-mode window of time registrations to their creation time', async () => {
			const seeded = (await groundTruth('time-registrations')).filter(
				(r) => r.companyId === COMPANY_IDS.main && r.isDeleted === false,
			);
			const target = seeded.find((r) => String(r.createdDateTime).slice(0, 10) !== r.date) as Record<
				string,
				string
			>;
			const at = Date.parse(target.createdDateTime);
			const page = await reporting('/v1/time-registrations', {
				FromDateTime: new Date(at).toISOString(),
				ToDateTime: new Date(at + 1).toISOString(),
			});
			expect((page.body.data as { timeRegistrationId: string }[]).map((r) => r.timeRegistrationId)).toContain(
				target.id,
			);
		});

		it('[R7][R8][R9] continues a token under other parameters; the last page has no token or links; meta holds the page size', async () => {
			const first = await reporting('/v1/time-registrations', { ...WINDOW, ChunkLimit: 2 });
			expect(first.body.meta).toEqual({ pageSize: 2 });
			const second = await reporting('/v1/time-registrations', {
				...WINDOW,
				ChunkLimit: 3,
				ContinuationToken: first.body.continuationToken,
			});
			expect(second.status).toBe(200);
			const last = await reporting('/v1/time-registrations', { ...WINDOW, ChunkLimit: 10_000 });
			expect(last.body).not.toHaveProperty('continuationToken');
			expect(last.body).not.toHaveProperty('links');
			const images = (await reporting('/v1/images', { ...WINDOW, ChunkLimit: 4 })).body;
			expect(images.recordCount).toBe(new Set((images.data as { idRef: string }[]).map((r) => r.idRef)).size);
		});

		it('[R10][R11] reports deleted time registrations, and absences with deletedAt', async () => {
			const since = await clockMinusOneSecond();
			const [time] = await activity({ kind: 'time-registrations', action: 'delete', count: 1 });
			const [absence] = await activity({ kind: 'absence-registrations', action: 'delete', count: 1 });
			const changed = async (path: string) =>
				(await reporting(path, { ModifiedSince: since })).body.data as Record<string, unknown>[];
			expect(
				(await changed('/v1/time-registrations')).find((r) => r.timeRegistrationId === time),
			).toMatchObject({ isDeleted: true, deletedDateTime: expect.any(String) });
			const tombstone = (await changed('/v1/absence-registrations')).find((r) => r.id === absence);
			expect(tombstone).toMatchObject({ isDeleted: true, deletedAt: expect.any(String) });
			expect(tombstone).not.toHaveProperty('deletedDateTime');
		});

		it('[R12][R13] hides other companies’ drivers with null and nests sensitive absence fields', async () => {
			const machines = (await reporting('/v1/machine-registrations', WINDOW)).body.data as Record<
				string,
				unknown
			>[];
			expect(machines.some((r) => r.driverName === null && r.driverId === null)).toBe(true);
			expect(machines.some((r) => r.driverName === '')).toBe(false);
			const [absence] = (
				await reporting('/v1/absence-registrations', { ...WINDOW, IncludeSensitiveData: true, ChunkLimit: 1 })
			).body.data;
			expect(Object.keys(absence.sensitiveData).sort()).toEqual([
				'childBirthDate',
				'childName',
				'sickLeaveReason',
			]);
			expect(absence).not.toHaveProperty('childName');
		});

		it('[R14][R15] takes Sources only repeated and reads checklists, alerts, then feed', async () => {
			expect((await reporting('/v1/images', { ...WINDOW, Sources: 'feed,alert' })).status).toBe(400);
			const both = await reporting('/v1/images', { ...WINDOW, Sources: ['feed', 'alert'] });
			expect(new Set((both.body.data as { source: string }[]).map((r) => r.source))).toEqual(
				new Set(['feed', 'alert']),
			);
			const all = (await reporting('/v1/images', WINDOW)).body.data as { source: string }[];
			expect(all.map((r) => r.source).filter((s, i, list) => i === 0 || list[i - 1] !== s)).toEqual([
				'checklist',
				'alert',
				'feed',
			]);
		});

		it('[R16][D2][D3] gives image rows their own id, the MIME type and other collectionRef values', async () => {
			const [row] = (await reporting('/v1/images', { ...WINDOW, ChunkLimit: 1 })).body.data;
			expect(row.downloadUrl).not.toContain(row.id);
			expect(row).toMatchObject({
				fileType: 'image/png',
				collectionRef: 'checklist_answer',
				userSecurityLevel: 0,
			});
		});

		it('[R17] fills the road reference 10 s (virtual clock) after a new image appears', async () => {
			const since = await clockMinusOneSecond();
			const [parent] = await activity({ kind: 'images', action: 'create' });
			const rows = async () =>
				(
					(await reporting('/v1/images', { ModifiedSince: since })).body.data as {
						idRef: string;
						roadReference: unknown;
					}[]
				).filter((r) => r.idRef === parent);
			await advanceClock(5);
			expect((await rows()).every((r) => r.roadReference === null)).toBe(true);
			await advanceClock(6);
			expect((await rows()).every((r) => r.roadReference !== null)).toBe(true);
		});
	});
});
