import type { Router } from '../router';
import type { World } from '../state';
import { seedCustomers } from './customers';
import { registerDocuments } from './documents';
import { registerFiles } from './files';
import { registerLookups } from './lookups';
import { registerMachines } from './machines';
import { registerProjects } from './projects';
import { registerTasks, seedTaskNumbers } from './tasks';

/** The core API (scope serviceapiv3): projects, work orders, machines, documents, lookups, file download. */
export function registerCore(router: Router): void {
	registerProjects(router);
	registerTasks(router);
	registerMachines(router);
	registerFiles(router);
	registerDocuments(router);
	registerLookups(router);
}

/** Projects, work orders and machines are master data (seed.ts); the core adds the company customers. */
export function seedCore(world: World): void {
	seedCustomers(world);
	seedTaskNumbers(world);
}
