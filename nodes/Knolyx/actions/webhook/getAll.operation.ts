import { listWebhooks } from '../../transport';
import type { KnolyxOperation } from '../types';

export const getAll: KnolyxOperation<Record<string, never>> = {
	option: {
		name: 'Get Many',
		description: 'List many webhooks. Needs WEBHOOK_MANAGE.',
		action: 'Get many webhooks',
	},
	agent: { effects: ['readOnly'] },
	readme: {
		does: 'List, read, delete webhooks (a deletion answered in words counts only once Knolyx no longer has the webhook)',
	},
	description: [],
	prepare() {
		return {};
	},
	async execute(_params, runtime) {
		// A plain array or a page object: the same reading as the trigger's.
		return (await listWebhooks(runtime.client, runtime.itemIndex)).entries;
	},
};
