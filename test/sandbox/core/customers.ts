import { COMPANY_IDS } from '../seed';
import type { Project, World } from '../state';

/**
 * Company customers that projects link to through `customerNumber` (spec, Project). The customer register
 * itself has no API; projects show their link as `customerId`, `customerNumber`, `customerName`.
 */
export interface Customer {
	id: string;
	companyId: string;
	customerNumber: string;
	name: string | null;
}

export function customers(world: World): Customer[] {
	return world.state('core:customers', () => [] as Customer[]);
}

/**
 * A few existing customers per company, so linking to an existing one can be tried on seeded data. Fixed ids:
 * drawing them from the world's random stream would shift every id seeded after the core module.
 */
export function seedCustomers(world: World): void {
	customers(world).push(
		{
			id: 'c0570000-0000-4000-a000-000000000001',
			companyId: COMPANY_IDS.main,
			customerNumber: 'K1000',
			name: 'Statens vegvesen',
		},
		{
			id: 'c0570000-0000-4000-a000-000000000002',
			companyId: COMPANY_IDS.main,
			customerNumber: 'K1001',
			name: 'Bergen kommune',
		},
		{
			id: 'c0570000-0000-4000-a000-000000000003',
			companyId: COMPANY_IDS.subsidiary,
			customerNumber: 'K1000',
			name: 'Nye Veier AS',
		},
		{
			id: 'c0570000-0000-4000-a000-000000000004',
			companyId: COMPANY_IDS.other,
			customerNumber: 'K1000',
			name: 'Bane NOR',
		},
	);
}

/**
 * With `customerNumber`, the project links to the company customer with that number, created (named by
 * `projectCustomerName`) when there is none. Omitted, the existing link stays (on PUT too); null unlinks.
 */
export function linkCustomer(
	world: World,
	project: Project,
	customerNumber: string | null | undefined,
	projectCustomerName: string | null | undefined,
): void {
	if (customerNumber === undefined) return;
	if (customerNumber === null) {
		project.customerId = null;
		return;
	}
	const list = customers(world);
	let customer = list.find((c) => c.companyId === project.companyId && c.customerNumber === customerNumber);
	if (!customer) {
		customer = {
			id: world.newId(),
			companyId: project.companyId,
			customerNumber,
			name: projectCustomerName ?? null,
		};
		list.push(customer);
	}
	project.customerId = customer.id;
}

/** The link as the project answers show it. */
export function customerOf(
	world: World,
	project: Project,
): { customerId: string | null; customerNumber: string | null; customerName: string | null } {
	const customer = customers(world).find((c) => c.id === project.customerId);
	return {
		customerId: customer?.id ?? null,
		customerNumber: customer?.customerNumber ?? null,
		customerName: customer?.name ?? null,
	};
}
