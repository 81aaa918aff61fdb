/** n8n 2.x, as installed for the end-to-end tests, is its committed lock (test/compat/installed-tree.ts). */
import { N8N_2 } from '../../scripts/n8n/install';
import { installedTreeTest } from '../compat/installed-tree';

installedTreeTest(N8N_2);
