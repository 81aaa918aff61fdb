import type { Company, Machine, Person, Project, SandboxClient, Task, World } from './state';

/** Fixed company structure: a parent with one subsidiary, and an unrelated second company. */
export const COMPANY_IDS = {
	main: '6c1f0a52-1d4e-4b7a-9c1e-0a1b2c3d4e01',
	subsidiary: '6c1f0a52-1d4e-4b7a-9c1e-0a1b2c3d4e02',
	other: '9e8d7c6b-5a49-4382-b1a0-f1e2d3c4b5a6',
} as const;

const COMPANIES: Company[] = [
	{ id: COMPANY_IDS.main, name: 'Nordbygg AS', parentId: null, roadReferenceFeature: true },
	{
		id: COMPANY_IDS.subsidiary,
		name: 'Nordbygg Anlegg AS',
		parentId: COMPANY_IDS.main,
		roadReferenceFeature: false,
	},
	{ id: COMPANY_IDS.other, name: 'Fjellvei Entreprenør AS', parentId: null, roadReferenceFeature: true },
];

/** The clients `npm run sandbox` prints; their secrets are public test values. */
export const CLIENTS: SandboxClient[] = [
	{
		clientId: 'fieldops-admin',
		clientSecret: 'sandbox-admin-secret',
		name: 'Administrator integration (all APIs)',
		companyId: COMPANY_IDS.main,
		scopes: ['serviceapiv3', 'reportingapiv1', 'masstransportapiv1'],
		administrator: true,
	},
	{
		clientId: 'fieldops-user',
		clientSecret: 'sandbox-user-secret',
		name: 'Non-administrator integration',
		companyId: COMPANY_IDS.main,
		scopes: ['serviceapiv3', 'reportingapiv1'],
		administrator: false,
	},
	{
		clientId: 'fieldops-reporting',
		clientSecret: 'sandbox-reporting-secret',
		name: 'Reporting export only',
		companyId: COMPANY_IDS.main,
		scopes: ['reportingapiv1'],
		administrator: false,
	},
	{
		clientId: 'fieldops-subsidiary',
		clientSecret: 'sandbox-subsidiary-secret',
		name: 'Subsidiary administrator',
		companyId: COMPANY_IDS.subsidiary,
		scopes: ['serviceapiv3', 'reportingapiv1', 'masstransportapiv1'],
		administrator: true,
	},
	{
		clientId: 'fieldops-other',
		clientSecret: 'sandbox-other-secret',
		name: 'Another company',
		companyId: COMPANY_IDS.other,
		scopes: ['serviceapiv3', 'reportingapiv1', 'masstransportapiv1'],
		administrator: true,
	},
];

const FIRST_NAMES = [
	'Ola',
	'Kari',
	'Per',
	'Ingrid',
	'Lars',
	'Sigrid',
	'Jonas',
	'Mari',
	'Erik',
	'Nora',
	'Anders',
	'Åse',
	'Bjørn',
	'Tone',
	'Øystein',
	'Hilde',
];
const LAST_NAMES = [
	'Nordmann',
	'Hansen',
	'Johansen',
	'Olsen',
	'Larsen',
	'Berg',
	'Haugen',
	'Dahl',
	'Lie',
	'Bakken',
	'Strøm',
	'Solberg',
];
const PLACES = [
	'Bergen',
	'Stavanger',
	'Trondheim',
	'Bodø',
	'Tromsø',
	'Ålesund',
	'Drammen',
	'Hamar',
	'Molde',
	'Narvik',
];
const WORKS = [
	'Fundamentering',
	'Grunnarbeid',
	'Betongstøp',
	'Asfaltering',
	'Sprengning',
	'VA-anlegg',
	'Rekkverk',
	'Stikkrenner',
];
const MACHINE_TYPES = [
	['excavator', 'Gravemaskin'],
	['wheel-loader', 'Hjullaster'],
	['dumper', 'Dumper'],
	['truck', 'Lastebil'],
	['roller', 'Valse'],
	['crane', 'Kran'],
] as const;
const MACHINE_MODELS = [
	'Volvo EC220E',
	'CAT 320',
	'Komatsu PC210',
	'Volvo L120H',
	'Bell B30E',
	'Scania R500',
	'Hamm HD+ 90',
	'Liebherr LTM 1050',
];

const day = 86_400_000;

/** Units of measurement on seeded work orders. */
export const SEED_UNITS = ['m3', 'm', 'stk', 'tonn'];

/** Seeds the shared master data: companies, clients, projects, work orders, machines and people. */
export function seedMasterData(world: World): void {
	const { rng } = world;
	const now = world.clock.nowMs();
	const at = (daysAgo: number) => new Date(now - daysAgo * day).toISOString();
	for (const company of COMPANIES) world.companies.set(company.id, { ...company });
	world.clients.push(...CLIENTS.map((c) => ({ ...c, scopes: [...c.scopes] })));

	const sizes: Record<string, number[]> = {
		[COMPANY_IDS.main]: [8, 24, 12],
		[COMPANY_IDS.subsidiary]: [3, 8, 4],
		[COMPANY_IDS.other]: [3, 6, 4],
	};
	for (const company of COMPANIES) {
		const [projectCount, peopleCount, machineCount] = sizes[company.id];
		const prefix = company.id === COMPANY_IDS.other ? 'F' : company.id === COMPANY_IDS.subsidiary ? 'A' : 'P';

		for (const [typeId, name] of MACHINE_TYPES)
			world.machineTypes.push({ typeId, name, companyId: company.id });

		for (let p = 0; p < projectCount; p++) {
			const place = PLACES[(p + prefix.charCodeAt(0)) % PLACES.length];
			const created = at(300 - p * 20);
			const project: Project = {
				id: world.newId(),
				companyId: company.id,
				projectNumber: `${prefix}${(1001 + p).toString()}`,
				name: `${place} ${p % 2 === 0 ? 'sentrum' : 'vegprosjekt'} ${p + 1}`,
				active: p < projectCount - 1,
				externalProjectNumber: `ERP-${prefix}${2400 + p}`,
				description: `Anleggsprosjekt i ${place}`,
				requireTaskNumber: false,
				blockedForRegistration: false,
				startDate: created,
				projectLocationLatitude: 59 + rng.next() * 10,
				projectLocationLongitude: 5 + rng.next() * 15,
				createdDateTime: created,
				modifiedDateTime: created,
			};
			world.projects.set(project.id, project);
			const taskCount = 3 + (p % 3);
			for (let t = 0; t < taskCount; t++) {
				const task: Task = {
					id: world.newId(),
					companyId: company.id,
					projectId: project.id,
					externalId: `${project.projectNumber}-${(t + 1).toString().padStart(2, '0')}`,
					name: WORKS[(p + t) % WORKS.length],
					active: true,
					isTemplate: false,
					workDescriptionShort: `${WORKS[(p + t) % WORKS.length]} ${place}`,
					externalDim01: `PK${(t % 4) + 1}`,
					// Units and chapters the API cannot list: work orders carry them (no rng draw, the rest is unchanged).
					unitId: SEED_UNITS[(p + t) % SEED_UNITS.length],
					chapterId: `${project.projectNumber}-K${(t % 2) + 1}`,
					costPrice: 0,
					price: 0,
					safeJobAnalysisApprovalRequired: false,
					createdDateTime: created,
					modifiedDateTime: created,
				};
				world.tasks.set(task.id, task);
			}
		}

		for (let i = 0; i < peopleCount; i++) {
			const created = at(400 - i * 5);
			const person: Person = {
				identityId: `auth0|${rng.hex(24)}`,
				companyProfileId: world.newId(),
				companyId: company.id,
				employeeNumber: `${prefix === 'P' ? '' : prefix}${100 + i}`,
				firstName: FIRST_NAMES[(i + prefix.charCodeAt(0)) % FIRST_NAMES.length],
				lastName: LAST_NAMES[(i * 7 + prefix.charCodeAt(0)) % LAST_NAMES.length],
				phone: `+47${(40000000 + rng.int(0, 9999999)).toString()}`,
				email: null,
				birthDate: new Date(Date.UTC(1965 + (i % 35), i % 12, 1 + (i % 27))).toISOString(),
				disabled: false,
				employments: [
					{
						id: world.newId(),
						startDate: at(400 - i * 5),
						endDate: null,
						department: i % 2 === 0 ? 'Anlegg' : 'Bygg',
						mainProjectNumber: null,
						payroll: i % 3 === 0 ? 0 : 1,
					},
				],
				tags: [],
				projectCompanies: [],
				workTitle: i % 5 === 0 ? 'Formann' : 'Anleggsarbeider',
				createdDateTime: created,
				modifiedDateTime: created,
			};
			person.email = `${person.firstName}.${person.lastName}.${person.employeeNumber}@example.com`
				.toLowerCase()
				.replace(/[^a-z0-9.@]/g, 'x');
			world.people.set(person.companyProfileId, person);
		}

		const parents: Machine[] = [];
		for (let m = 0; m < machineCount; m++) {
			const created = at(500 - m * 10);
			const machine: Machine = {
				id: world.newId(),
				companyId: company.id,
				machineNumber: `${prefix === 'P' ? 'M' : prefix + 'M'}${(100 + m).toString()}`,
				name: MACHINE_MODELS[m % MACHINE_MODELS.length],
				typeId: MACHINE_TYPES[m % MACHINE_TYPES.length][0],
				isEquipment: false,
				active: true,
				parentMachineId: null,
				buildYear: 2012 + (m % 12),
				hourMeter: 1000 + rng.int(0, 9000),
				createdDateTime: created,
				modifiedDateTime: created,
			};
			world.machines.set(machine.id, machine);
			parents.push(machine);
		}
		for (let e = 0; e < Math.ceil(machineCount / 3); e++) {
			const created = at(200 - e * 10);
			const equipment: Machine = {
				id: world.newId(),
				companyId: company.id,
				machineNumber: `${prefix === 'P' ? 'U' : prefix + 'U'}${(100 + e).toString()}`,
				name: ['Pusseskuff', 'Hydraulisk hammer', 'Sorteringsklype', 'Planeringsskuff'][e % 4],
				typeId: null,
				isEquipment: true,
				active: true,
				parentMachineId: parents[e % parents.length].id,
				createdDateTime: created,
				modifiedDateTime: created,
			};
			world.machines.set(equipment.id, equipment);
		}
	}
}
