/**
 * The compatibility smoke test (test/compat/smoke.ts) on n8n 2.x, so both lines pass the very same checks; the
 * other e2e suites go further on 2.x.
 */
import { N8N_2 } from '../../scripts/n8n/install';
import { smokeTest } from '../compat/smoke';

smokeTest(N8N_2);
