import { decode, encode, fitted, holds, valueOf } from '../../nodes/FieldOpsTrigger/compactSet';
import { tokenOf } from '../../nodes/FieldOpsTrigger/hashing';

const tokens = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, i) => tokenOf(`${prefix}${i}`));

describe('the compact set of identities (a Golomb-coded set)', () => {
	test('decodes to the values it was given, ascending and once each', () => {
		const values = [5, 3, 3, 900, 2 ** 40, 0, 17];
		const set = encode(values, 48);
		expect(set.count).toBe(6);
		expect(decode(set)).toEqual([0, 3, 5, 17, 900, 2 ** 40]);
		expect(decode(encode([], 20))).toEqual([]);
	});

	test('holds every token put in; takes others for present about count ÷ 2^bits of the time, never more', () => {
		const held = tokens('id', 5000);
		for (const bits of [20, 24, 28]) {
			const set = encode(
				held.map((token) => valueOf(token, bits)),
				bits,
			);
			const values = decode(set);
			expect(held.every((token) => holds(values, bits, token))).toBe(true);
			const others = tokens('other', 40_000);
			const wrong = others.filter((token) => holds(values, bits, token)).length / others.length;
			expect(wrong).toBeLessThanOrEqual((3 * 5000) / 2 ** bits);
		}
	});

	test('takes the most bits that fit, keeps what it held when narrowed, and gives up when too little fits', () => {
		const first = tokens('a', 4000);
		const set = fitted([], 48, first, 12_000);
		expect(set).toBeDefined();
		const { bits, data } = set as NonNullable<typeof set>;
		expect(data.length).toBeLessThanOrEqual(12_000);
		const wider = encode(
			first.map((token) => valueOf(token, bits + 1)),
			bits + 1,
		);
		expect(wider.data.length).toBeGreaterThan(12_000);
		// More tokens in the same room: fewer bits each, and the first ones still held.
		const more = fitted(decode(set as NonNullable<typeof set>), bits, tokens('b', 4000), 12_000);
		expect(more?.bits).toBeLessThan(bits);
		const values = decode(more as NonNullable<typeof more>);
		expect(first.every((token) => holds(values, (more as NonNullable<typeof more>).bits, token))).toBe(true);
		expect(fitted([], 48, tokens('c', 10_000), 1000)).toBeUndefined();
	});
});
