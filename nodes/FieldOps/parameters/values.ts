/**
 * How a field's value is checked and shaped before anything is sent: each check names the field by its label and
 * shows an accepted value. Used by the field builders of field.ts and by operations' own fields.
 */
import { isoDateTime } from './dates';
import { FieldOpsFailure } from '../transport/errors';

export const isBlank = (raw: unknown) => raw === undefined || raw === null || raw === '';

/** A date-time: refused unless a real date in ISO 8601; left out when empty. */
export const dateValue = (label: string) => (raw: unknown) =>
	isBlank(raw) ? undefined : isoDateTime(label, raw);

/** A number: refused unless finite; left out when empty. */
export const numberValue = (label: string) => (raw: unknown) => {
	if (isBlank(raw)) return undefined;
	const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
	if (!Number.isFinite(value)) {
		const comma = /^\s*-?\d+,\d+\s*$/.test(String(raw)) ? String(raw).trim().replace(',', '.') : undefined;
		throw new FieldOpsFailure(
			`${label} is not a number: "${String(raw)}"`,
			comma
				? `Write ${label} with a decimal point: ${comma}.`
				: `Write ${label} in digits, with a decimal point if needed, e.g. 12.5.`,
		);
	}
	return value;
};

/** A whole number (the spec's `int`): refused with decimals ("12.5") as well as when not a number; left out when empty. */
export const wholeNumberValue = (label: string, example: string) => (raw: unknown) => {
	const value = numberValue(label)(raw);
	if (value === undefined || Number.isInteger(value)) return value;
	throw new FieldOpsFailure(
		`${label} must be a whole number: "${String(raw)}"`,
		`Write ${label} without decimals, e.g. ${example}.`,
	);
};

/** A time of day as the spec's `HH:mm` (9:30 becomes 09:30); anything else, 25:00 included, is refused. */
export const timeOfDayValue = (label: string, example: string) => (raw: unknown) => {
	if (isBlank(raw)) return undefined;
	const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(String(raw).trim());
	if (!match)
		throw new FieldOpsFailure(
			`${label} is not a time of day as HH:mm: "${String(raw)}"`,
			`Write ${label} on the 24-hour clock, hours then minutes, e.g. ${example}.`,
		);
	return `${match[1].padStart(2, '0')}:${match[2]}`;
};

/** One of a list's own values (an expression may give any): refused otherwise, naming the choices. */
export const choiceValue =
	(label: string, choices: Array<{ name: string; value: string | number }>) => (raw: unknown) => {
		if (isBlank(raw)) return undefined;
		const choice = choices.find((c) => c.value === raw || String(c.value) === String(raw).trim());
		if (choice) return choice.value;
		throw new FieldOpsFailure(
			`${label} "${String(raw)}" is not one of its choices`,
			`Pick one of: ${choices.map((c) => `${c.name} (${c.value})`).join(', ')}.`,
		);
	};

/** Required text: trimmed, and refused when empty (an expression may give an empty value). */
export const requiredText = (label: string, example?: string) => (raw: unknown) => {
	const text = isBlank(raw) ? '' : String(raw).trim();
	if (text === '')
		throw new FieldOpsFailure(`${label} is empty`, `Enter the ${label}${example ? `, ${example}` : ''}.`);
	return text;
};

export const requiredDate = (label: string) => (raw: unknown) => {
	if (isBlank(raw))
		throw new FieldOpsFailure(
			`${label} is empty`,
			`Pick ${label} in the date picker, or write it year-month-day, e.g. 2026-11-23.`,
		);
	return isoDateTime(label, raw);
};
