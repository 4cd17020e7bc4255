import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { pingWebhooks } from '../../transport';
import { invalid, requireString } from '../../helpers/validation';
import { asObject } from '../common';
import type { OperationRuntime } from '../types';

/** Webhook management. Every operation needs WEBHOOK_MANAGE. */

export const webhookIdField: INodeProperties = {
	displayName: 'Webhook ID',
	name: 'webhookId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 3',
	description: 'ID of the webhook, as returned by Create or Get Many',
};

export function readWebhookId(ctx: IExecuteFunctions, itemIndex: number): string {
	const id = requireString(ctx, itemIndex, 'webhookId', 'Webhook ID');
	if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
		throw invalid(
			ctx,
			itemIndex,
			'Webhook ID',
			`"${id.slice(0, 60)}" is not a webhook ID (letters, digits, - and _ only)`,
		);
	}
	return id;
}

/** A PING event to one webhook, or to every webhook when no ID is given. */
export async function ping(runtime: OperationRuntime, webhookId?: string): Promise<IDataObject> {
	const { body } = await pingWebhooks(runtime.client, webhookId, runtime.itemIndex);
	return { ...asObject(body), ...(webhookId === undefined ? {} : { webhookId }), pinged: true };
}
