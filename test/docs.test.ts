import { readFileSync } from 'node:fs';

import { README, withOperations } from '../scripts/docs';

describe('README', () => {
	it('lists the operations the node offers (run `npm run docs` after changing an operation)', () => {
		const readme = readFileSync(README, 'utf8');
		expect(readme).toBe(withOperations(readme));
	});
});
