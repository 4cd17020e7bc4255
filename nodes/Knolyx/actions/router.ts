import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { AdaptiveLimiter, asNodeError, CREDENTIAL_TYPE, KnolyxClient } from '../transport';
import { refuseUnconfirmedAgentUse } from './agent-safety';
import { operationNamed, unknownResource } from './operations';
import type { FileResult } from './types';

interface RequestOptions {
	concurrency?: number;
	maxConcurrency?: number;
	timeout?: number;
}

type Outcome =
	| { ok: true; data: IDataObject | IDataObject[] | FileResult }
	| { ok: false; error: Error };

/**
 * The only place that knows about items: checks every item first (nothing is
 * sent when any item is invalid, unless Continue On Fail keeps it as an error
 * item), runs the items concurrently through one adaptive limiter, keeps the
 * output in input order and pairs every output item with its input item.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = String(this.getNodeParameter('resource', 0));
	// The resource first: n8n has no Operation parameter for a resource the node does not show.
	const noResource = unknownResource(resource);
	if (noResource) {
		throw new NodeOperationError(this.getNode(), noResource.problem, {
			description: noResource.description,
		});
	}
	const operationName = String(this.getNodeParameter('operation', 0));
	const found = operationNamed(resource, operationName);
	if ('problem' in found) {
		throw new NodeOperationError(this.getNode(), found.problem, {
			description: found.description,
		});
	}
	const { operation } = found;
	// A run whose every item only reads (a preview) has no effect an agent needs consent for.
	const readsOnly = operation.readsOnly;
	if (!(readsOnly && items.length > 0 && items.every((_, i) => readsOnly.call(this, i))))
		refuseUnconfirmedAgentUse(this, resource, operationName);
	const options = this.getNodeParameter('requestOptions', 0, {}) as RequestOptions;
	const fixed = Math.max(0, Math.floor(options.concurrency ?? 0));
	const limiter = new AdaptiveLimiter({
		fixedConcurrency: fixed,
		maxConcurrency: options.maxConcurrency ?? 100,
	});
	// Read once for the whole run and given to every request: in n8n each read loads the
	// credential from the database and decrypts it.
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const node = this.getNode();
	const stored = node.credentials?.[CREDENTIAL_TYPE];
	const client = new KnolyxClient(this, {
		limiter,
		policy: options.timeout ? { timeoutMs: options.timeout * 1000 } : undefined,
		credentials: {
			id: stored?.id ?? '',
			name: stored?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: credentials,
		},
	});
	const continueOnFail = this.continueOnFail();
	// "Continue (using error output)": n8n-core moves an item to the error output when its JSON
	// holds `error` alone (every n8n line; 1.x also takes error + message, 2.x error, message and
	// details), then adds the input item's fields (handleNodeErrorOutput in workflow-execute).
	// Setting the item's own `error` instead would make n8n replace the JSON by the bare message.
	const toErrorOutput = node.onError === 'continueErrorOutput';

	// 1. Check every item before anything is sent.
	const prepared: unknown[] = new Array(items.length);
	const outcomes: Outcome[] = new Array(items.length);
	for (let i = 0; i < items.length; i++) {
		try {
			prepared[i] = operation.prepare.call(this, i);
		} catch (error) {
			if (!continueOnFail) throw asNodeError(this.getNode(), error, i);
			outcomes[i] = { ok: false, error: error as Error };
		}
	}

	// 2. Run the valid items: a pool of workers pulls items in order; the
	// limiter decides how many requests are really in flight.
	let next = 0;
	let stop = false;
	const runItem = async (i: number): Promise<void> => {
		try {
			const data = await operation.execute.call(this, prepared[i], { client, itemIndex: i });
			outcomes[i] = { ok: true, data };
		} catch (error) {
			outcomes[i] = { ok: false, error: error as Error };
			if (!continueOnFail) stop = true;
		}
	};
	const worker = async (): Promise<void> => {
		while (!stop && next < items.length) {
			const i = next++;
			if (outcomes[i]) continue;
			await runItem(i);
		}
	};
	const workers = operation.mergesItems
		? items.length
		: fixed > 0
			? fixed
			: (options.maxConcurrency ?? 100);
	await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, items.length)) }, worker));

	// 3. Output in input order, each item paired with its input.
	const output: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		const outcome = outcomes[i];
		if (!outcome) continue;
		if (!outcome.ok) {
			if (!continueOnFail) throw asNodeError(this.getNode(), outcome.error, i);
			output.push({ json: errorJson(outcome.error, toErrorOutput), pairedItem: { item: i } });
			continue;
		}
		if (operation.outputsFile) {
			const { json, binary } = outcome.data as FileResult;
			output.push({ json, binary, pairedItem: { item: i } });
			continue;
		}
		const json = outcome.data as IDataObject | IDataObject[];
		const executionData = this.helpers.constructExecutionMetaData(
			this.helpers.returnJsonArray(json),
			{
				itemData: { item: i },
			},
		);
		output.push(...executionData);
	}
	return [output];
}

/**
 * A failed item: `{ error, description, httpCode }` on the regular output; on the error output
 * `{ error: { message, description, httpCode } }`, the one key every n8n line routes there.
 */
function errorJson(error: Error, forErrorOutput: boolean): IDataObject {
	const fields: IDataObject = {};
	const description = (error as { description?: unknown }).description;
	if (typeof description === 'string' && description !== '') fields.description = description;
	const httpCode = (error as { httpCode?: unknown }).httpCode;
	if (typeof httpCode === 'string' && httpCode !== '') fields.httpCode = httpCode;
	return forErrorOutput
		? { error: { message: error.message, ...fields } }
		: { error: error.message, ...fields };
}
