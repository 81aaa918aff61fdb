import type { Router } from '../router';
import type { World } from '../state';
import { registerMachines } from './machines';
import { registerProjects } from './projects';

export function registerCore(router: Router): void {
	registerProjects(router);
	registerMachines(router);
}

export function seedCore(_world: World): void {}
