/** n8n 1.x, as installed for the compatibility test, is its committed lock (test/compat/installed-tree.ts). */
import { N8N_1 } from '../../scripts/n8n/install';
import { installedTreeTest } from './installed-tree';

installedTreeTest(N8N_1);
