import { updateDisplayOptions } from 'n8n-workflow';

import type { KnolyxOperation } from '../types';
import { ping as pingWebhooks, readWebhookId, webhookIdField } from './shared';

const displayOptions = { show: { resource: ['webhook'], operation: ['ping'] } };

export const ping: KnolyxOperation<{ webhookId: string }> = {
	option: {
		name: 'Ping',
		description: 'Send a PING event to one webhook. Needs WEBHOOK_MANAGE.',
		action: 'Ping a webhook',
	},
	agent: { effects: ['pingWebhooks'] },
	readme: {
		does: 'Send a PING event to one webhook / to all (an answer in words is reported *not confirmed*: no read shows a PING)',
	},
	description: updateDisplayOptions(displayOptions, [webhookIdField]),
	prepare(itemIndex) {
		return { webhookId: readWebhookId(this, itemIndex) };
	},
	async execute({ webhookId }, runtime) {
		return await pingWebhooks(runtime, webhookId);
	},
};
