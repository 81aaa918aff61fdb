import type { Router } from '../router';
import type { World } from '../state';
import { registerCertificates } from './certificates';
import { registerEmployees } from './employees';
import { registerUsers } from './users';

export function registerPeople(router: Router): void {
	registerEmployees(router);
	registerUsers(router);
	registerCertificates(router);
}

/** A few regular and payroll tags per top company. */
export function seedPeople(world: World): void {
	for (const company of world.companies.values()) {
		if (company.parentId) continue;
		for (const [tagName, isPayrollTag] of [
			['Førstehjelp', false],
			['Verneombud', false],
			['Maskinfører', false],
			['Skifttillegg', true],
			['Smusstillegg', true],
		] as const) {
			world.tagDefinitions.push({ tagId: world.newId(), tagName, companyId: company.id, isPayrollTag });
		}
	}
}
