// A small client for n8n's internal REST API (what the editor uses).

import { sleep } from '../lib/processes.mjs';
import { N8N_MAJOR } from './version.mjs';

/** n8n's answer while it cannot reach its database (abstract-server.js); no route has run. */
const NOT_READY = /"message":"Database is not ready!"/;
/** How long such answers are waited out. */
const NOT_READY_MS = 60_000;

/**
 * A small client for n8n's internal REST API (what the editor uses).
 * /rest/* needs a logged-in user: the `n8n-auth` cookie from
 * POST /rest/owner/setup or POST /rest/login. Responses are `{ data }`;
 * request() returns `data` when present.
 */
export class N8nRest {
	constructor(baseUrl) {
		this.baseUrl = baseUrl.replace(/\/+$/, '');
		this.cookie = '';
	}

	async request(method, pathname, body, { timeoutMs = 30_000, expectOk = true } = {}) {
		// n8n turns every request away with this 503 while its database ping fails (a busy
		// machine: seen in CI on n8n 2.41.1, 2026-12-07), before any route runs: sent again.
		const notReadyUntil = Date.now() + NOT_READY_MS;
		let res;
		let text;
		for (;;) {
			res = await fetch(this.baseUrl + pathname, {
				method,
				headers: {
					...(body !== undefined ? { 'content-type': 'application/json' } : {}),
					...(this.cookie ? { cookie: this.cookie } : {}),
				},
				body: body !== undefined ? JSON.stringify(body) : undefined,
				signal: AbortSignal.timeout(timeoutMs),
			});
			text = await res.text();
			if (res.status !== 503 || !NOT_READY.test(text) || Date.now() > notReadyUntil) break;
			await sleep(500);
		}
		const setCookie = res.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		if (expectOk && !res.ok) {
			const err = new Error(`n8n ${method} ${pathname}: HTTP ${res.status} ${text.slice(0, 500)}`);
			err.status = res.status;
			err.body = json ?? text;
			throw err;
		}
		const data = json && typeof json === 'object' && 'data' in json ? json.data : (json ?? text);
		return expectOk ? data : { status: res.status, data };
	}

	/** Creates the instance owner if n8n still asks for it, then logs in (sets the cookie). */
	async ensureOwner({ email, password, firstName = 'Demo', lastName = 'Owner' }) {
		const settings = await this.request('GET', '/rest/settings');
		if (settings.userManagement?.showSetupOnFirstLoad) {
			await this.request('POST', '/rest/owner/setup', { email, password, firstName, lastName });
		}
		return this.login({ email, password });
	}

	login({ email, password }) {
		return this.request('POST', '/rest/login', { emailOrLdapLoginId: email, password });
	}

	/**
	 * Every node type description n8n loaded (what the node panel lists). n8n writes this file anew
	 * after a package is installed or removed: an answer that is no list yet (the file half written:
	 * seen once on a loaded machine, 2026-11-28) is asked again for up to `timeoutMs`.
	 */
	async nodeTypes({ timeoutMs = 60_000 } = {}) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const types = await this.request('GET', '/types/nodes.json');
			if (Array.isArray(types)) return types;
			if (Date.now() > deadline) {
				const got = typeof types === 'string' ? types : JSON.stringify(types);
				throw new Error(
					`n8n GET /types/nodes.json: no list of node types after ${timeoutMs / 1000} s: ${String(got).slice(0, 200)}`,
				);
			}
			await sleep(500);
		}
	}

	/** Tests a stored credential as the editor does: read it (secrets come back redacted, n8n restores them), send it back. */
	async testStoredCredential(id) {
		const cred = await this.request(
			'GET',
			`/rest/credentials/${encodeURIComponent(id)}?includeData=true`,
		);
		return this.testCredential({ id: cred.id, name: cred.name, type: cred.type, data: cred.data });
	}

	/**
	 * GET /rest/workflows/:id/publication-status: { status: 'published' |
	 * 'in_progress' | 'not_published', liveVersionId, pendingVersionId,
	 * triggers: [{ nodeId, status, errorMessage }] }.
	 * n8n 1.x has no publication service (activation is done when its answer
	 * comes): the same shape is built from the workflow's `active` flag.
	 */
	async publicationStatus(id) {
		if (N8N_MAJOR < 2) {
			const wf = await this.request('GET', `/rest/workflows/${encodeURIComponent(id)}`);
			return {
				status: wf.active ? 'published' : 'not_published',
				liveVersionId: wf.active ? (wf.activeVersionId ?? wf.versionId) : null,
				pendingVersionId: null,
				triggers: [],
			};
		}
		return this.request('GET', `/rest/workflows/${encodeURIComponent(id)}/publication-status`);
	}

	/** Poll the publication status until it is no longer 'in_progress' (bounded). */
	async waitForPublication(id, { timeoutMs = 30_000 } = {}) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const status = await this.publicationStatus(id);
			if (status.status !== 'in_progress') return status;
			if (Date.now() > deadline)
				throw new Error(`workflow ${id}: publication still in progress after ${timeoutMs} ms`);
			await sleep(200);
		}
	}

	/**
	 * Publish (activate) a workflow's current version:
	 * POST /rest/workflows/:id/activate { versionId } (n8n 2.x and 1.123). In n8n 2.41
	 * the answer comes BEFORE the triggers are set up (a publication outbox does it
	 * ~0.5 s later), so by default this waits for the publication status and throws
	 * if a trigger failed. In 1.x a trigger that fails makes the call itself fail.
	 */
	async activateWorkflow(id, { wait = true } = {}) {
		const wf = await this.request('GET', `/rest/workflows/${encodeURIComponent(id)}`);
		await this.request('POST', `/rest/workflows/${encodeURIComponent(id)}/activate`, {
			versionId: wf.versionId,
		});
		if (!wait) return undefined;
		const status = await this.waitForPublication(id);
		const failed = (status.triggers ?? []).filter((t) => t.errorMessage);
		if (status.status !== 'published' || failed.length) {
			throw new Error(
				`workflow ${id} not published (${status.status}): ${failed.map((t) => t.errorMessage).join('; ')}`,
			);
		}
		return status;
	}

	/** Unpublish: POST /rest/workflows/:id/deactivate {}; waits until the triggers are removed. */
	async deactivateWorkflow(id, { wait = true } = {}) {
		await this.request('POST', `/rest/workflows/${encodeURIComponent(id)}/deactivate`, {});
		return wait ? this.waitForPublication(id) : undefined;
	}

	credentialTypes() {
		return this.request('GET', '/types/credentials.json');
	}

	/**
	 * POST /rest/credentials/test. With `id` of a stored credential n8n tests the
	 * stored data (merged with `data`); with id '' (owner only) it tests `data` as given.
	 * Resolves { status: 'OK' | 'Error', message }.
	 */
	testCredential({ id = '', name = '', type, data }) {
		return this.request('POST', '/rest/credentials/test', {
			credentials: { id, name, type, data },
		});
	}
}
