import type { ResourceModule } from '../../shared/types';

/** Not built yet: a resource without properties is left out of the node. */
export const certificateResource: ResourceModule = {
	name: 'Certificate',
	value: 'certificate',
	description: 'Upsert employee certificates (courses, licences)',
	properties: [],
};
