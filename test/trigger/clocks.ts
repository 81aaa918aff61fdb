import { fakeDateOnly } from '../helpers/fake-date';
import { call } from '../helpers/sandbox';

/**
 * n8n's clock under the test's control, so that moving the sandbox's clock forward moves both alike: the trigger
 * takes the service's time from the Date header and refuses one further from n8n's than the Re-Read Window.
 * Only `Date` is faked: timers run for real. Call in beforeAll; `later(seconds)` moves both clocks.
 */
export function fakeNowClock(): void {
	fakeDateOnly(Date.now());
}

export async function later(coreUrl: string, seconds: number, sandboxOnly = false): Promise<void> {
	if (!sandboxOnly) jest.setSystemTime(Date.now() + seconds * 1000);
	const res = await call(coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: seconds } });
	if (res.status !== 200) throw new Error(`clock: ${res.status}`);
}
