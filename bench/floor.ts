/**
 * (d), the floor node (`floor/FieldOpsFloor.node.ts`), as n8n loads a custom extension: compiled into a folder of
 * its own that `N8N_CUSTOM_EXTENSIONS` names. Its type is then `CUSTOM.fieldOpsFloor`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ModuleKind, ScriptTarget, transpileModule } from 'typescript';

export const FLOOR_NODE_TYPE = 'CUSTOM.fieldOpsFloor';

/** The environment that makes n8n load the floor node (compiled afresh into a temporary folder). */
export function floorExtensionEnv(): Record<string, string> {
	const source = readFileSync(join(__dirname, 'floor', 'FieldOpsFloor.node.ts'), 'utf8');
	const { outputText } = transpileModule(source, {
		compilerOptions: { module: ModuleKind.CommonJS, target: ScriptTarget.ES2022 },
	});
	const folder = mkdtempSync(join(tmpdir(), 'fieldops-floor-'));
	writeFileSync(join(folder, 'FieldOpsFloor.node.js'), outputText);
	return { N8N_CUSTOM_EXTENSIONS: folder };
}
