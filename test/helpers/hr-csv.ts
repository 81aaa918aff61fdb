import type { Person } from '../sandbox/state';

/** The columns of the HR system's export the nightly example reads (its sticky note names them). */
export const HR_COLUMNS = [
	'Employee Number',
	'First Name',
	'Last Name',
	'Mobile',
	'Birth Date',
	'Start Date',
	'Department',
	'Email',
	'Job Title',
] as const;

export type HrRow = Record<(typeof HR_COLUMNS)[number], string>;

/** An employee as the HR system exports one Field Ops already holds: nothing to change. */
export function hrRowOf(person: Person): HrRow {
	const employment = person.employments[0];
	return {
		'Employee Number': person.employeeNumber,
		'First Name': person.firstName,
		'Last Name': person.lastName,
		Mobile: person.phone,
		'Birth Date': person.birthDate.slice(0, 10),
		'Start Date': employment?.startDate.slice(0, 10) ?? '',
		Department: employment?.department ?? '',
		Email: person.email ?? '',
		'Job Title': (person.workTitle as string | undefined) ?? '',
	};
}

/** A new employee's row. */
export function newHrRow(number: string, overrides: Partial<HrRow> = {}): HrRow {
	return {
		'Employee Number': number,
		'First Name': 'Åse',
		'Last Name': 'Bø',
		Mobile: `+4798${number.replace(/\D/g, '').padStart(6, '0')}`,
		'Birth Date': '1990-04-01',
		'Start Date': '2026-01-05',
		Department: 'Anlegg',
		Email: `${number.toLowerCase()}@example.com`,
		'Job Title': 'Anleggsarbeider',
		...overrides,
	};
}

const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The export as the HR system writes it: a header row, then one row per employee (RFC 4180). */
export function hrCsv(rows: HrRow[]): string {
	return [HR_COLUMNS.join(','), ...rows.map((row) => HR_COLUMNS.map((c) => cell(row[c])).join(','))]
		.map((line) => `${line}\r\n`)
		.join('');
}
