import type { Router } from '../router';
import type { World } from '../state';

export function registerMachineState(_router: Router): void {}

export function seedMachineState(_world: World): void {}
