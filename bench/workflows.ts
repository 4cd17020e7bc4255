/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The workflows the benchmarks run, as a user would wire them in n8n.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject, INodeParameters, INodeType, IVersionedNodeType } from 'n8n-workflow';

import { manualWorkflow, type ManualWorkflow, type WorkflowStep } from '../test/harness';
import { runtimeDir } from './runtime-dir';

export const KNOLYX_TYPE = 'n8n-nodes-knolyx.knolyx';
export const HTTP_TYPE = 'n8n-nodes-base.httpRequest';
export const NOOP_TYPE = 'bench.noOp';
export const DEMO_CREDENTIALS = { projectId: 'demo-project', apiKey: 'demo-api-key' };

/** n8n-nodes-base as installed by scripts/n8n-runtime.mjs (n8n 2.41.1, the same n8n-core as ours). */
export const N8N_NODES_BASE = join(runtimeDir(), 'node_modules', 'n8n-nodes-base');
const HTTP_NODE_FILE = join(N8N_NODES_BASE, 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js');
/** The version n8n 2.41.1 puts on a new HTTP Request node (its defaultVersion). */
export const HTTP_NODE_VERSION = 4.5;

/**
 * n8n's own HTTP Request node class, loaded in-process from the n8n install
 * (it runs on our n8n-core 2.41.1 like it does inside n8n). Throws when the
 * install is missing.
 */
export function loadHttpRequestNode(): IVersionedNodeType {
	if (!existsSync(HTTP_NODE_FILE)) {
		throw new Error(
			`n8n-nodes-base is not installed (${HTTP_NODE_FILE}); run node scripts/n8n-runtime.mjs install`,
		);
	}
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { HttpRequest } = require(HTTP_NODE_FILE) as { HttpRequest: new () => IVersionedNodeType };
	return new HttpRequest();
}

export interface Buyer extends IDataObject {
	email: string;
	firstName: string;
	lastName: string;
}

export function buyers(n: number, prefix: string): Buyer[] {
	return Array.from({ length: n }, (_, i) => ({
		email: `${prefix}-${i}@buyers.example`,
		firstName: 'Buyer',
		lastName: `Number ${i}`,
	}));
}

type Step = WorkflowStep & { typeVersion: number };

/** Manual Trigger → Set Items (the buyers) → steps in a line; every step continues on error. */
export function chain(items: IDataObject[], steps: Step[]): ManualWorkflow {
	return manualWorkflow({
		items,
		itemsName: 'Buyers',
		steps: steps.map((step) => ({ ...step, onError: 'continueRegularOutput' })),
	});
}

const rl = (id: number) => ({ __rl: true, mode: 'id', value: String(id) });

/** Flow B step 5 with this package: one Knolyx node, User → Enrol in Workgroup. */
export function knolyxEnrol(workgroupId: number, concurrency: number | undefined): Step {
	return {
		name: 'Enrol',
		type: KNOLYX_TYPE,
		typeVersion: 1,
		parameters: {
			resource: 'user',
			operation: 'enrol',
			email: '={{ $json.email }}',
			firstName: '={{ $json.firstName }}',
			lastName: '={{ $json.lastName }}',
			workgroupId: rl(workgroupId),
			removalDate: '',
			...(concurrency === undefined ? {} : { requestOptions: { concurrency } }),
		},
	};
}

export interface Batching {
	batchSize: number;
	batchInterval: number;
}

/** The API key and project id as an HTTP Request node's header parameters (how a user without this package sends them). */
export const HTTP_AUTH_HEADERS: INodeParameters = {
	sendHeaders: true,
	specifyHeaders: 'keypair',
	headerParameters: {
		parameters: [
			{ name: 'X-Api-Key', value: DEMO_CREDENTIALS.apiKey },
			{ name: 'X-Project-Id', value: DEMO_CREDENTIALS.projectId },
		],
	},
};

/**
 * Flow B step 5 as a user without this package builds it: two HTTP Request
 * nodes, the API key and project id as headers, everything else at its
 * default (or with the Batching option).
 */
export function httpEnrol(baseUrl: string, workgroupId: number, batching?: Batching): Step[] {
	const headers = HTTP_AUTH_HEADERS;
	const options: INodeParameters = batching ? { batching: { batch: { ...batching } } } : {};
	return [
		{
			name: 'Provision',
			type: HTTP_TYPE,
			typeVersion: HTTP_NODE_VERSION,
			parameters: {
				method: 'POST',
				url: `${baseUrl}/public/api/v1/user/provision`,
				...headers,
				sendBody: true,
				contentType: 'json',
				specifyBody: 'keypair',
				bodyParameters: {
					parameters: [
						{ name: 'email', value: '={{ $json.email }}' },
						{ name: 'firstName', value: '={{ $json.firstName }}' },
						{ name: 'lastName', value: '={{ $json.lastName }}' },
					],
				},
				options,
			},
		},
		{
			name: 'Add Member',
			type: HTTP_TYPE,
			typeVersion: HTTP_NODE_VERSION,
			parameters: {
				method: 'PUT',
				url: `=${baseUrl}/public/api/v1/workgroup/${workgroupId}/member/{{ $json.email }}/`,
				...headers,
				sendBody: true,
				contentType: 'json',
				specifyBody: 'json',
				jsonBody: '{ "removalDate": null }',
				options,
			},
		},
	];
}

/** A node that passes its items through (the memory baseline: the items alone). */
export class NoOp implements INodeType {
	description: INodeType['description'] = {
		displayName: 'No Op',
		name: 'noOp',
		group: ['transform'],
		version: 1,
		description: 'Passes the items through',
		defaults: { name: 'No Op' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: import('n8n-workflow').IExecuteFunctions) {
		return [this.getInputData().map((item, i) => ({ json: item.json, pairedItem: { item: i } }))];
	}
}
