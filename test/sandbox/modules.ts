import { registerControl } from './control';
import { registerCore, seedCore } from './core';
import { registerIdentity } from './identity';
import { registerMachineState, seedMachineState } from './machine-state';
import { registerPeople, seedPeople } from './people';
import { registerReporting, seedReporting } from './reporting';
import type { Router } from './router';
import type { World } from './state';

export interface SandboxModule {
	name: string;
	register(router: Router): void;
	/** Builds the module's own state after the master data; called on start and on every reset. */
	seed?(world: World): void;
}

/** Every part of the simulated service, in seeding order (reporting reads the others' data). */
export const SANDBOX_MODULES: SandboxModule[] = [
	{ name: 'identity', register: registerIdentity },
	{ name: 'control', register: registerControl },
	{ name: 'core', register: registerCore, seed: seedCore },
	{ name: 'people', register: registerPeople, seed: seedPeople },
	{ name: 'reporting', register: registerReporting, seed: seedReporting },
	{ name: 'machine-state', register: registerMachineState, seed: seedMachineState },
];
