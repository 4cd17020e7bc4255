import { updateDisplayOptions } from 'n8n-workflow';

import { deleteWebhook as deleteWebhookCall } from '../../transport';
import { asObject } from '../common';
import type { KnolyxOperation } from '../types';
import { readWebhookId, webhookIdField } from './shared';

const displayOptions = { show: { resource: ['webhook'], operation: ['delete'] } };

export const deleteWebhook: KnolyxOperation<{ webhookId: string }> = {
	option: {
		name: 'Delete',
		description: 'Delete a webhook. Needs WEBHOOK_MANAGE.',
		action: 'Delete a webhook',
	},
	agent: {
		effects: ['delete'],
		risk: 'deletes a webhook (its receiver gets no more events)',
		instead: 'nothing: ask a person to delete the webhook',
	},
	readme: { sameRowAs: 'getAll' },
	description: updateDisplayOptions(displayOptions, [webhookIdField]),
	prepare(itemIndex) {
		return { webhookId: readWebhookId(this, itemIndex) };
	},
	async execute({ webhookId }, runtime) {
		const { body } = await deleteWebhookCall(runtime.client, webhookId, {
			itemIndex: runtime.itemIndex,
		});
		return { ...asObject(body), webhookId, deleted: true };
	},
};
