/**
 * A set of identity tokens in few bytes, for the identities handled while the trigger worked through a backlog:
 * the first `bits` bits of each token (a 48-bit hash), sorted, the gaps between them Rice-coded (a Golomb-coded
 * set), base64url. A token it holds is always found (no false negatives); one it does not hold is taken for
 * present with a chance of about count ÷ 2^bits. Fewer bits fit more identities in the same bytes and raise that
 * chance: `fitted` takes the most bits that fit.
 */

export interface CompactSet {
	/** Bits kept of each token (at most 48). */
	bits: number;
	/** Values held, and their Rice code. */
	count: number;
	data: string;
}

export const TOKEN_BITS = 48;
/** Fewer bits than log2(count) + this (a false "present" over 1/16) and the set is not worth its bytes. */
const MIN_SPARE_BITS = 4;

/** A token's first `bits` bits, as a number (tokens are 8 base64url characters: 48 bits). */
export function valueOf(token: string, bits: number): number {
	const bytes = Buffer.from(token, 'base64url');
	let value = 0;
	for (let i = 0; i < 6; i++) value = value * 256 + (bytes[i] ?? 0);
	return Math.floor(value / 2 ** (TOKEN_BITS - bits));
}

/** A value kept at `from` bits, at fewer. */
const narrowed = (value: number, from: number, to: number) => Math.floor(value / 2 ** (from - to));

/** The Rice parameter for `count` values spread over 2^bits: about the mean gap's bits. */
const riceOf = (bits: number, count: number) =>
	Math.max(0, Math.round(Math.log2(Math.max(1, (2 ** bits / Math.max(1, count)) * Math.LN2))));

export function encode(values: readonly number[], bits: number): CompactSet {
	const sorted = [...new Set(values)].sort((a, b) => a - b);
	const rice = riceOf(bits, sorted.length);
	const out: number[] = [];
	let pending = 0; // bits not yet in a byte, fewer than 8 of them in `held`
	let held = 0;
	// Up to 16 bits at a time: `held` stays within 24 bits, where bit operations are exact.
	const put = (value: number, width: number) => {
		for (let left = width; left > 0; ) {
			const take = Math.min(left, 16);
			left -= take;
			const part = left > 0 ? Math.floor(value / 2 ** left) % 2 ** take : value % 2 ** take;
			held = (held << take) | part;
			pending += take;
			while (pending >= 8) {
				pending -= 8;
				out.push(held >>> pending);
				held &= (1 << pending) - 1;
			}
		}
	};
	let previous = 0;
	for (const value of sorted) {
		const gap = value - previous;
		previous = value;
		// The quotient in unary (ones, then a zero), then the remainder in `rice` bits.
		for (let quotient = Math.floor(gap / 2 ** rice); quotient > 0; quotient -= 16)
			put(2 ** Math.min(quotient, 16) - 1, Math.min(quotient, 16));
		put(0, 1);
		put(gap % 2 ** rice, rice);
	}
	if (pending > 0) out.push(held << (8 - pending));
	return { bits, count: sorted.length, data: Buffer.from(out).toString('base64url') };
}

/** The values, ascending. */
export function decode(set: CompactSet): number[] {
	const bytes = Buffer.from(set.data, 'base64url');
	const rice = riceOf(set.bits, set.count);
	const values: number[] = [];
	let position = 0;
	const bit = () => (bytes[position >> 3] >> (7 - (position++ & 7))) & 1;
	const take = (width: number) => {
		let value = 0;
		for (let left = width; left > 0; ) {
			// Whole bytes where the position allows, single bits elsewhere.
			if ((position & 7) === 0 && left >= 8) {
				value = value * 256 + bytes[position >> 3];
				position += 8;
				left -= 8;
			} else {
				value = value * 2 + bit();
				left--;
			}
		}
		return value;
	};
	let previous = 0;
	while (values.length < set.count) {
		let quotient = 0;
		while (bit() === 1) quotient++;
		previous += quotient * 2 ** rice + take(rice);
		values.push(previous);
	}
	return values;
}

/** Whether `values` (ascending, at `bits`) hold the token. */
export function holds(values: readonly number[], bits: number, token: string): boolean {
	const value = valueOf(token, bits);
	let low = 0;
	let high = values.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (values[middle] < value) low = middle + 1;
		else high = middle;
	}
	return values[low] === value;
}

/**
 * The values (at `bits`) and the tokens added, coded in at most `maxChars` characters with as many bits as fit
 * (never more than they have); undefined if even the fewest worth keeping do not fit.
 */
export function fitted(
	values: readonly number[],
	bits: number,
	added: readonly string[],
	maxChars: number,
): CompactSet | undefined {
	const count = values.length + added.length;
	for (let keep = bits; keep >= Math.log2(Math.max(1, count)) + MIN_SPARE_BITS; keep--) {
		// Rice coding takes about its parameter plus two bits a value: skip what cannot fit.
		if (((riceOf(keep, count) + 2) * count) / 6 > maxChars * 1.05) continue;
		const all = [
			...values.map((value) => narrowed(value, bits, keep)),
			...added.map((token) => valueOf(token, keep)),
		];
		const set = encode(all, keep);
		if (set.data.length <= maxChars) return set;
	}
	return undefined;
}
