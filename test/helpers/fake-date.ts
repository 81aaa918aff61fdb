/** Every API but `Date` stays real: timers, microtasks and performance run as n8n and the sandbox need them. */
const REAL = [
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'requestAnimationFrame',
	'cancelAnimationFrame',
	'requestIdleCallback',
	'cancelIdleCallback',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
	'setTimeout',
	'clearTimeout',
] as const;

/** Fakes only `Date`, starting at `now`; `jest.setSystemTime` moves it. */
export function fakeDateOnly(now: number): void {
	jest.useFakeTimers({ doNotFake: [...REAL], now });
}
