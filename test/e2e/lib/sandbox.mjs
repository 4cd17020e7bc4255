// HTTP client for the Knolyx sandbox of an e2e run: its public API (as the
// platform) and its /sandbox control endpoints (see sandbox/README.md).

export const DEMO = { projectId: 'demo-project', apiKey: 'demo-api-key' }; // sandbox/seed.ts DEMO

export class SandboxClient {
	constructor(url) {
		this.url = url;
	}

	async request(method, pathname, body, { expectStatus } = {}) {
		const res = await fetch(this.url + pathname, {
			method,
			headers: {
				'x-api-key': DEMO.apiKey,
				'x-project-id': DEMO.projectId,
				...(body !== undefined ? { 'content-type': 'application/json' } : {}),
			},
			body: body !== undefined ? JSON.stringify(body) : undefined,
			signal: AbortSignal.timeout(40_000),
		});
		const text = await res.text();
		const json = text ? JSON.parse(text) : undefined;
		if (expectStatus ? res.status !== expectStatus : !res.ok) {
			throw new Error(`sandbox ${method} ${pathname}: HTTP ${res.status} ${text.slice(0, 500)}`);
		}
		return json;
	}

	/** Full state dump (keys and tokens masked). */
	state() {
		return this.request('GET', '/sandbox/state');
	}

	/** The business data a workflow can change: everything but API keys and webhooks. */
	async businessState() {
		const { apiKeys, webhooks, ...rest } = await this.state();
		return rest;
	}

	/**
	 * The webhooks registered on the platform: [{ id, name, url, createdAt }], as
	 * GET /public/api/v1/webhook lists them, but read through the control endpoint
	 * /sandbox/state, so the sandbox's request stats count only what n8n sent.
	 */
	async webhooks() {
		const { webhooks } = await this.state();
		return webhooks.map(({ id, name, url, createdAt }) => ({ id, name, url, createdAt }));
	}

	stats() {
		return this.request('GET', '/sandbox/stats');
	}

	/** Student activity: kind = course-started | course-completed | course-payment | bundle-payment. */
	activity(kind, input) {
		return this.request('POST', `/sandbox/activity/${kind}`, input);
	}

	/** Delivery attempts; with waitFor the sandbox waits (≤ 30 s) until that many match. */
	deliveries(filter = {}) {
		const q = new URLSearchParams(Object.entries(filter).map(([k, v]) => [k, String(v)]));
		return this.request('GET', `/sandbox/deliveries?${q}`);
	}

	resend(messageId) {
		return this.request('POST', `/sandbox/deliveries/${encodeURIComponent(messageId)}/resend`);
	}

	/** Merges fault settings (POST /sandbox/faults); resetFaults() goes back to the defaults. */
	setFaults(partial) {
		return this.request('POST', '/sandbox/faults', partial);
	}

	resetFaults() {
		return this.request('DELETE', '/sandbox/faults');
	}
}

/** Count of requests to one route key of the sandbox stats (e.g. 'POST /public/api/v1/webhook'). */
export function routeCount(stats, key) {
	return stats.byRoute?.[key] ?? 0;
}
