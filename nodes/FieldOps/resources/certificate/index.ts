import type { Resource } from '../../operations/operation';
import { upsert } from './upsert';

export const certificateResource: Resource = {
	name: 'Certificate',
	value: 'certificate',
	description: 'Upsert employee certificates (courses, licences)',
	what: 'certificate',
	operations: [upsert],
	defaultOperation: upsert,
};
