import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { runBatched, type ItemOutcome } from '../../shared/batch';
import { describeErrors } from '../../shared/errors';
import { apiRequest } from '../../shared/transport';
import type { CustomOperation } from '../../shared/types';

interface BulkResult {
	index: number;
	success: boolean;
	id?: string | null;
	message?: string;
	errors?: Array<{ code?: string; field?: string; message?: string }>;
}

/** Maps the bulk endpoints' per-item results back onto the batch, in order (see the sandbox README for the shape). */
function outcomes(results: BulkResult[], elements: IDataObject[]): ItemOutcome[] {
	return elements.map((element, position) => {
		const result = results.find((r) => r.index === position) ?? results[position];
		if (result?.success) return { ok: true, json: { ...element, id: result.id ?? element.id, success: true } };
		const details = describeErrors({ errors: result?.errors ?? [] });
		return { ok: false, message: details.join('; ') || result?.message || 'Field Ops did not accept this machine' };
	});
}

function fieldsOf(context: IExecuteFunctions, itemIndex: number, collection: string): IDataObject {
	return context.getNodeParameter(collection, itemIndex, {}) as IDataObject;
}

/** Create Many: one POST /create/array per batch of input items. */
export const createMany: CustomOperation = async function (this: IExecuteFunctions) {
	return await runBatched(this, {
		what: 'machine',
		buildElement: (itemIndex) => ({
			companyId: this.getNodeParameter('companyId', itemIndex) as string,
			machineNumber: this.getNodeParameter('machineNumber', itemIndex) as string,
			...fieldsOf(this, itemIndex, 'additionalFields'),
		}),
		send: async (elements) =>
			outcomes(await apiRequest<BulkResult[]>(this, { method: 'POST', url: '/api/v4/integration/machines/create/array', body: elements, what: 'machine' }), elements),
	});
};

/** Update Many: one PUT /update/array per batch; an item without a machine ID fails before any request. */
export const updateMany: CustomOperation = async function (this: IExecuteFunctions) {
	return await runBatched(this, {
		what: 'machine',
		buildElement: (itemIndex) => {
			// `{{ $json.id }}` on an item without an id yields undefined: that must not become the text "undefined"
			const raw = this.getNodeParameter('machineId', itemIndex, '') as unknown;
			const id = raw === undefined || raw === null ? '' : String(raw).trim();
			if (!id) throw new NodeOperationError(this.getNode(), 'Machine ID is empty', { itemIndex, description: 'Every item needs the ID of the machine to update.' });
			return { id, ...fieldsOf(this, itemIndex, 'updateFields') };
		},
		send: async (elements) =>
			outcomes(await apiRequest<BulkResult[]>(this, { method: 'PUT', url: '/api/v4/integration/machines/update/array', body: elements, what: 'machine' }), elements),
	});
};
