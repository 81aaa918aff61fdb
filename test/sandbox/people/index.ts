import type { Router } from '../router';
import type { World } from '../state';

export function registerPeople(_router: Router): void {}

export function seedPeople(_world: World): void {}
