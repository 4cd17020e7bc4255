import type { KnolyxOperation } from '../types';
import { ping } from './shared';

export const pingAll: KnolyxOperation<Record<string, never>> = {
	option: {
		name: 'Ping All',
		description: 'Send a PING event to every webhook. Needs WEBHOOK_MANAGE.',
		action: 'Ping all webhooks',
	},
	agent: { effects: ['pingWebhooks'] },
	readme: { sameRowAs: 'ping' },
	description: [],
	prepare() {
		return {};
	},
	async execute(_params, runtime) {
		return await ping(runtime);
	},
};
