import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';

/** The machine types configured for the company (GET /api/MachineType). */
export async function getMachineTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const types = await apiRequest<Array<{ typeId: string; name?: string }>>(this, { method: 'GET', url: '/api/MachineType' });
	return types.map((type) => ({ name: type.name ? `${type.name} (${type.typeId})` : type.typeId, value: type.typeId })).sort((a, b) => a.name.localeCompare(b.name));
}
