import { forbidden, notFound, type Caller } from '../http';
import type { World } from '../state';

/** A record of another company (outside the caller's structure) is refused with 403, an unknown one with 404. */
export function ensureAccess<T extends { companyId: string }>(
	world: World,
	caller: Caller,
	record: T | undefined,
	what: string,
	id: string,
): T {
	if (!record) throw notFound(`${what} ${id} was not found`);
	if (!world.canAccessCompany(caller.companyId, record.companyId))
		throw forbidden(`${what} ${id} belongs to a company this client cannot access`);
	return record;
}

export function ensureCompany(world: World, caller: Caller, companyId: string): void {
	if (!world.companies.has(companyId))
		throw forbidden(`Company ${companyId} is not accessible to this client`);
	if (!world.canAccessCompany(caller.companyId, companyId))
		throw forbidden(`Company ${companyId} is not accessible to this client`);
}
