import { randomBytes } from 'node:crypto';
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { createWebhook, webhookIdOf } from '../../transport';
import { invalid, requireString } from '../../helpers/validation';
import { asObject } from '../common';
import type { KnolyxOperation } from '../types';

/** An id found in the list, as a number when it is one (as the platform's JSON gives ids). */
function asListed(id: string): string | number {
	return /^\d+$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

interface CreateParams {
	name: string;
	url: string;
	securityToken: string;
	generated: boolean;
}

const displayOptions = { show: { resource: ['webhook'], operation: ['create'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. CRM sync',
		description: 'Label of the webhook on Knolyx',
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
	},
	{
		displayName: 'Security Token',
		name: 'securityToken',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description:
			'Sent back by Knolyx in the X-Webhook-Security-Token header of every delivery. Leave empty to generate a strong random token; it is returned in the output.',
	},
];

export const create: KnolyxOperation<CreateParams> = {
	option: {
		name: 'Create',
		description:
			'Register a URL that receives events; Knolyx pings it at once. Needs WEBHOOK_MANAGE.',
		action: 'Create a webhook',
	},
	agent: {
		effects: ['dataFlow'],
		risk: "registers a URL to which Knolyx then sends every student event, with the students' names and e-mail addresses",
		instead:
			'Webhook → Get Many to see the webhooks a person registered, and ask a person to register a new one',
	},
	readme: {
		does: "Register a URL for events; an empty Security Token is generated (32 random bytes) and returned; the output holds the new webhook's `id`: from the answer (`id`, `webhookId`, a bare id) only when it is unmistakably an id (a whole number from 1, a UUID, a long hex token), else the one the webhook list shows for the name and URL sent; an ambiguous answer (502, timeout) never makes a second webhook",
	},
	description: updateDisplayOptions(displayOptions, properties),
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
		const created = await createWebhook(client, params, { itemIndex });
		const answer = asObject(created.body);
		return {
			name: params.name,
			url: params.url,
			...answer,
			// The new webhook's id whatever the answer's shape: its `id` as given when that is the id,
			// else the id read from `webhookId`, a bare id, or the list (found there by what its
			// entries carry, when the answer had none: `{ id: null }`, "Created", nothing).
			id:
				created.from === 'list'
					? asListed(created.id)
					: webhookIdOf(answer.id) === created.id
						? answer.id
						: created.id,
			securityToken: params.securityToken,
			securityTokenGenerated: params.generated,
		};
	},
};
