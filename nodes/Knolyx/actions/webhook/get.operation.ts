import { updateDisplayOptions } from 'n8n-workflow';

import { getWebhook } from '../../transport';
import type { KnolyxOperation } from '../types';
import { readWebhookId, webhookIdField } from './shared';

const displayOptions = { show: { resource: ['webhook'], operation: ['get'] } };

export const get: KnolyxOperation<{ webhookId: string }> = {
	option: {
		name: 'Get',
		description: 'Get one webhook. Needs WEBHOOK_MANAGE.',
		action: 'Get a webhook',
	},
	agent: { effects: ['readOnly'] },
	readme: { sameRowAs: 'getAll' },
	description: updateDisplayOptions(displayOptions, [webhookIdField]),
	prepare(itemIndex) {
		return { webhookId: readWebhookId(this, itemIndex) };
	},
	async execute({ webhookId }, runtime) {
		const { body } = await getWebhook(runtime.client, webhookId, { itemIndex: runtime.itemIndex });
		return body;
	},
};
