import type { Router } from '../router';
import type { World } from '../state';
import { registerDocuments } from './documents';
import { registerFiles } from './files';
import { registerLookups } from './lookups';
import { registerMachines } from './machines';
import { registerProjects } from './projects';
import { registerTasks } from './tasks';

export function registerCore(router: Router): void {
	registerProjects(router);
	registerTasks(router);
	registerMachines(router);
	registerFiles(router);
	registerDocuments(router);
	registerLookups(router);
}

export function seedCore(_world: World): void {}
