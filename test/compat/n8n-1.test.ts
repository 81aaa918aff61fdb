/**
 * n8n 1.x: the last 1.x line (installed into `.e2e/n8n-1` by `npm run test:compat`), on the project's Node 24.
 */
import { N8N_1 } from '../../scripts/n8n/install';
import { smokeTest } from './smoke';

smokeTest(N8N_1);
