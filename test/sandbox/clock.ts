/**
 * The virtual clock behind every timestamp the sandbox writes. It ticks with real time from a settable
 * point, so tests can jump forward (`advanceSeconds`) without waiting, and new writes still get distinct,
 * increasing times.
 */
export class VirtualClock {
	private setPointMs: number;
	private setAtMonotonicMs: number;

	constructor(startMs = Math.floor(Date.now() / 1000) * 1000) {
		this.setPointMs = startMs;
		this.setAtMonotonicMs = performance.now();
	}

	nowMs(): number {
		return Math.floor(this.setPointMs + (performance.now() - this.setAtMonotonicMs));
	}

	now(): Date {
		return new Date(this.nowMs());
	}

	iso(): string {
		return this.now().toISOString();
	}

	set(ms: number): void {
		this.setPointMs = ms;
		this.setAtMonotonicMs = performance.now();
	}

	advance(seconds: number): void {
		this.set(this.nowMs() + seconds * 1000);
	}
}
