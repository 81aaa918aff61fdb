import type { Certificate } from './people/certificates';
import { call, tokenFor, useSandbox } from '../helpers/sandbox';

describe('sandbox: certificates', () => {
	const sb = useSandbox();
	const path = '/api/v4/integration/certificates';
	const cert = (
		employeeNumber: string,
		certificateType: string,
		validUntilDateTime = '2030-01-01T00:00:00Z',
	) => ({ employeeNumber, certificateType, issuedDateTime: '2025-01-01T00:00:00Z', validUntilDateTime });
	const stored = () => sb().sandbox.world.extra.get('certificates') as Certificate[];

	it('an upsert updates the stored certificate of the same employee and exact type', async () => {
		const token = await tokenFor(sb());
		await call(sb().coreUrl, path, { token, method: 'POST', json: [cert('100', 'Truck T1')] });
		const again = await call(sb().coreUrl, path, {
			token,
			method: 'POST',
			json: [{ ...cert('100', 'Truck T1', '2031-06-01T00:00:00Z'), certificateNumber: 'T-77' }],
		});
		expect(again.status).toBe(200);
		expect(again.body).toEqual([
			expect.objectContaining({ index: 0, created: false, employeeNumber: '100' }),
		]);
		const truck = stored().filter((c) => c.employeeNumber === '100' && c.certificateType === 'Truck T1');
		expect(truck).toEqual([
			expect.objectContaining({ validUntilDateTime: '2031-06-01T00:00:00Z', certificateNumber: 'T-77' }),
		]);
	});

	it('another company cannot reach these employees; an employee of a subsidiary can be certified by the parent', async () => {
		const other = await tokenFor(sb(), 'fieldops-other');
		const refused = await call(sb().coreUrl, path, {
			token: other,
			method: 'POST',
			json: [cert('100', 'Kran')],
		});
		expect(refused.status).toBe(400);
		expect(refused.body.errors[0]).toMatchObject({ field: '[0].employeeNumber', code: 'UnknownEmployee' });
		const parent = await tokenFor(sb());
		expect(
			(await call(sb().coreUrl, path, { token: parent, method: 'POST', json: [cert('A100', 'Kran')] }))
				.status,
		).toBe(200);
		expect(stored().some((c) => c.employeeNumber === 'A100' && c.certificateType === 'Kran')).toBe(true);
	});

	it('an empty array or a non-array body is a 400', async () => {
		const token = await tokenFor(sb());
		expect((await call(sb().coreUrl, path, { token, method: 'POST', json: [] })).status).toBe(400);
		expect(
			(await call(sb().coreUrl, path, { token, method: 'POST', json: cert('100', 'Truck T1') })).status,
		).toBe(400);
	});
});
