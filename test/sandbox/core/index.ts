import type { Router } from '../router';
import type { World } from '../state';

export function registerCore(_router: Router): void {}

export function seedCore(_world: World): void {}
