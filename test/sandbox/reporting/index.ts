import type { Router } from '../router';
import type { World } from '../state';
import { registerReportingControl } from './control';
import { registerFeeds } from './feeds';
import { registerImages } from './images';
import { registerMetadata } from './metadata';

export function registerReporting(router: Router): void {
	registerFeeds(router);
	registerImages(router);
	registerMetadata(router);
	registerReportingControl(router);
}

/** Feeds seed themselves on first use (see feedStore), so a large --scale costs nothing until read. */
export function seedReporting(_world: World): void {}
