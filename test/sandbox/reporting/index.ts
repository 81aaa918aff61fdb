import type { Router } from '../router';
import type { World } from '../state';

export function registerReporting(_router: Router): void {}

export function seedReporting(_world: World): void {}
