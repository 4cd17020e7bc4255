import { randomBytes } from 'node:crypto';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../transport';
import { createWebhook, listWebhooks, webhookEntries } from '../../transport/webhooks';
import { invalid, requireString } from '../../helpers/validation';
import { asObject, shownFor } from '../common';
import type { KnolyxOperation, OperationRuntime } from '../types';

/** Webhook management (endpoints 1-6). All need WEBHOOK_MANAGE. */

function webhookIdField(operations: string[]): INodeProperties {
	return {
		displayName: 'Webhook ID',
		name: 'webhookId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 3',
		description: 'ID of the webhook, as returned by Create or Get Many',
		displayOptions: shownFor('webhook', operations),
	};
}

function readWebhookId(ctx: IExecuteFunctions, itemIndex: number): string {
	const id = requireString(ctx, itemIndex, 'webhookId', 'Webhook ID');
	if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
		throw invalid(ctx, itemIndex, 'Webhook ID', `"${id.slice(0, 60)}" is not a webhook ID (letters, digits, - and _ only)`);
	}
	return id;
}

interface CreateParams {
	name: string;
	url: string;
	securityToken: string;
	generated: boolean;
}

const createShown = shownFor('webhook', ['create']);

const create: KnolyxOperation<CreateParams> = {
	description: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. CRM sync',
			description: 'Label of the webhook on Knolyx',
			displayOptions: createShown,
		},
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://example.com/knolyx-events',
			description:
				'Public https address that accepts HTTP PUT requests. Knolyx refuses http and localhost addresses. To receive events in n8n, use the Knolyx Trigger node instead: it registers itself.',
			displayOptions: createShown,
		},
		{
			displayName: 'Security Token',
			name: 'securityToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Sent back by Knolyx in the X-Webhook-Security-Token header of every delivery. Leave empty to generate a strong random token; it is returned in the output.',
			displayOptions: createShown,
		},
	],
	prepare(itemIndex) {
		const name = requireString(this, itemIndex, 'name', 'Name', { maxLength: 255 });
		const url = requireString(this, itemIndex, 'url', 'URL');
		let parsed: URL;
		try {
			parsed = new URL(url);
		} catch {
			throw invalid(this, itemIndex, 'URL', `"${url.slice(0, 60)}" is not a valid URL`);
		}
		if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
			throw invalid(this, itemIndex, 'URL', 'must start with https://');
		}
		const given = String(this.getNodeParameter('securityToken', itemIndex, '') ?? '').trim();
		return {
			name,
			url,
			securityToken: given || randomBytes(32).toString('hex'),
			generated: given === '',
		};
	},
	async execute(params, runtime) {
		const { client, itemIndex } = runtime;
		// The webhooks there before: after a lost answer, one of ours is one not among them.
		const { webhooks } = await listWebhooks(client, itemIndex);
		const before = new Set(webhooks.map((webhook) => webhook.id));
		const created = await createWebhook(client, params, { itemIndex, before });
		return {
			name: params.name,
			url: params.url,
			...(created.body === undefined ? { id: created.id } : asObject(created.body)),
			securityToken: params.securityToken,
			securityTokenGenerated: params.generated,
		};
	},
};

const getAll: KnolyxOperation<Record<string, never>> = {
	description: [],
	prepare() {
		return {};
	},
	async execute(_params, runtime) {
		// A plain array or a page object: the same reading as the trigger's.
		return webhookEntries((await listWebhooks(runtime.client, runtime.itemIndex)).body);
	},
};

function byId(
	endpoint: typeof ENDPOINTS.webhookGet | typeof ENDPOINTS.webhookDelete,
	operation: string,
	result: (webhookId: string, body: unknown) => object,
): KnolyxOperation<{ webhookId: string }> {
	return {
		description: [webhookIdField([operation])],
		prepare(itemIndex) {
			return { webhookId: readWebhookId(this, itemIndex) };
		},
		async execute({ webhookId }, runtime) {
			const { body } = await runtime.client.call(endpoint, { params: { webhookId }, itemIndex: runtime.itemIndex });
			return result(webhookId, body) as ReturnType<typeof asObject>;
		},
	};
}

const get = byId(ENDPOINTS.webhookGet, 'get', (_id, body) => asObject(body));
const del = byId(ENDPOINTS.webhookDelete, 'delete', (webhookId, body) => ({ ...asObject(body), webhookId, deleted: true }));

async function ping(runtime: OperationRuntime, webhookId?: string) {
	const { body } =
		webhookId === undefined
			? await runtime.client.call(ENDPOINTS.webhookPingAll, { itemIndex: runtime.itemIndex })
			: await runtime.client.call(ENDPOINTS.webhookPing, { params: { webhookId }, itemIndex: runtime.itemIndex });
	return { ...asObject(body), ...(webhookId === undefined ? {} : { webhookId }), pinged: true };
}

const pingAll: KnolyxOperation<Record<string, never>> = {
	description: [],
	prepare() {
		return {};
	},
	async execute(_params, runtime) {
		return await ping(runtime);
	},
};

const pingOne: KnolyxOperation<{ webhookId: string }> = {
	description: [webhookIdField(['ping'])],
	prepare(itemIndex) {
		return { webhookId: readWebhookId(this, itemIndex) };
	},
	async execute({ webhookId }, runtime) {
		return await ping(runtime, webhookId);
	},
};

export const webhookOperations = { create, getAll, get, delete: del, pingAll, ping: pingOne };

export const webhookDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Register a URL that receives events; Knolyx pings it at once. Needs WEBHOOK_MANAGE.',
				action: 'Create a webhook',
			},
			{ name: 'Delete', value: 'delete', description: 'Delete a webhook. Needs WEBHOOK_MANAGE.', action: 'Delete a webhook' },
			{ name: 'Get', value: 'get', description: 'Get one webhook. Needs WEBHOOK_MANAGE.', action: 'Get a webhook' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List many webhooks. Needs WEBHOOK_MANAGE.',
				action: 'Get many webhooks',
			},
			{
				name: 'Ping',
				value: 'ping',
				description: 'Send a PING event to one webhook. Needs WEBHOOK_MANAGE.',
				action: 'Ping a webhook',
			},
			{
				name: 'Ping All',
				value: 'pingAll',
				description: 'Send a PING event to every webhook. Needs WEBHOOK_MANAGE.',
				action: 'Ping all webhooks',
			},
		],
		default: 'getAll',
	},
	...create.description,
	...get.description,
	...del.description,
	...pingOne.description,
];
