/** Deterministic pseudo-random numbers (mulberry32), so a seed always yields the same data. */
export class Rng {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0 || 1;
	}

	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	int(minInclusive: number, maxInclusive: number): number {
		return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	/** A hex id of the given length, deterministic for the seed. */
	hex(length = 24): string {
		let out = '';
		while (out.length < length)
			out += Math.floor(this.next() * 0x100000000)
				.toString(16)
				.padStart(8, '0');
		return out.slice(0, length);
	}
}
