/**
 * The webhook lifecycle on the platform: checkExists, create, delete.
 *
 * Each registration gets its own secret and its own record, keyed by n8n's
 * webhook URL (test and production differ), so the test listener and the
 * active workflow never touch each other's webhook. Only webhooks whose id this
 * node stored (or whose creation it is still waiting for) are ever deleted.
 */
import type { IDataObject, IHookFunctions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import { randomBytes } from 'node:crypto';

import { apiPath, KnolyxClient } from '../transport';
import { hookWebhookUrl, kindOf, registrationName, scopeOf } from './context';
import {
	beginPending,
	commit,
	finishPending,
	forgetPending,
	isComplete,
	pendingFor,
	triggerData,
	waitForPending,
	type RegistrationKind,
	type StoredRegistration,
	type TriggerStaticData,
} from './registrations';
import { generateSecret, redact, redactDeep } from './security';
import { judgeWebhookUrl, WEBHOOK_URL_HINT, type UrlVerdict } from './webhook-url';

const WEBHOOK_SUBJECT = { permission: 'WEBHOOK_MANAGE' } as const;
/** POST attempts when the answer is lost (network error, 5xx): each is followed by a check of the list. */
const CREATE_ATTEMPTS = 3;
/** How long delete() waits for a creation still in flight (test listener stopped by the creation PING). */
const PENDING_WAIT_MS = 60_000;

interface RemoteWebhook {
	id: string;
	url?: string;
	name?: string;
}

function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idFrom(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	return undefined;
}

/** The id in a creation answer: `{ id }` (or `{ webhookId }`), or a bare id. */
export function createdId(body: unknown): string | undefined {
	if (isRecord(body)) return idFrom(body.id) ?? idFrom(body.webhookId);
	return idFrom(body);
}

/** The webhooks of a list answer: a plain array or a page object. */
export function webhookList(body: unknown): RemoteWebhook[] {
	let entries: unknown[] = [];
	if (Array.isArray(body)) entries = body;
	else if (isRecord(body)) {
		for (const key of ['content', 'items', 'data', 'results', 'webhooks']) {
			if (Array.isArray(body[key])) {
				entries = body[key] as unknown[];
				break;
			}
		}
	}
	return entries.filter(isRecord).flatMap((entry) => {
		const id = idFrom(entry.id);
		if (id === undefined) return [];
		return [
			{
				id,
				url: typeof entry.url === 'string' ? entry.url : undefined,
				name: typeof entry.name === 'string' ? entry.name : undefined,
			},
		];
	});
}

/**
 * Our webhook in a list: the one with our URL and our exact name (the name
 * carries a random reference of this registration). Without names in the
 * answer, and only when `byUrlAlone` is allowed, the newest with our URL.
 */
export function findOurs(list: RemoteWebhook[], url: string, name: string, byUrlAlone: boolean): string | undefined {
	const sameUrl = list.filter((webhook) => webhook.url === url);
	const named = sameUrl.filter((webhook) => webhook.name === name);
	if (named.length > 0) return named[named.length - 1].id;
	if (!byUrlAlone || sameUrl.length === 0 || sameUrl.some((webhook) => webhook.name !== undefined)) return undefined;
	const numeric = sameUrl.every((webhook) => /^\d+$/.test(webhook.id));
	const sorted = numeric ? [...sameUrl].sort((a, b) => Number(a.id) - Number(b.id)) : sameUrl;
	return sorted[sorted.length - 1].id;
}

/** An error that leaves open whether the platform applied the request (lost answer, 5xx). */
function isAmbiguous(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const status = Number(error.httpCode);
	return !Number.isInteger(status) || status >= 500;
}

/** A copy of an error with every secret replaced, so nothing the platform echoed can leak it. */
function sanitized(node: INode, error: unknown, secrets: string[], extra?: { message?: string; description?: string }) {
	const source = error as {
		message?: string;
		description?: string | null;
		httpCode?: string | null;
		errorResponse?: unknown;
	};
	const body = isRecord(source.errorResponse) ? (redactDeep(source.errorResponse, secrets) as JsonObject) : {};
	const message = redact(extra?.message ?? source.message ?? 'Knolyx webhook registration failed', secrets);
	const description = extra?.description ?? source.description ?? undefined;
	return new NodeApiError(node, { ...body, message } as JsonObject, {
		message,
		description: description ? redact(description, secrets) : undefined,
		httpCode: source.httpCode ?? undefined,
	});
}

/** Deletes one webhook by id; true when it is gone (a 404 counts). Failures are logged, not thrown. */
async function deleteById(ctx: IHookFunctions, client: KnolyxClient, webhookId: string, why: string): Promise<boolean> {
	try {
		const response = await client.request({
			method: 'DELETE',
			path: apiPath`/webhook/${webhookId}`,
			subject: { notFound: `webhook ${webhookId}`, ...WEBHOOK_SUBJECT },
			acceptStatuses: [404],
		});
		ctx.logger.debug(`Knolyx Trigger: ${why}: webhook ${webhookId} ${response.statusCode === 404 ? 'was already gone' : 'deleted'}`);
		return true;
	} catch (error) {
		const failure = error as { message?: string; description?: string };
		ctx.logger.warn(
			`Knolyx Trigger: could not delete webhook ${webhookId} (${why}): ${failure.message ?? 'unknown error'}. ` +
				`${failure.description ?? ''} It stays recorded and is retried or reused at the next activation; ` +
				'you can also delete it in Knolyx.',
			{ webhookId, nodeName: ctx.getNode().name, workflowId: ctx.getWorkflow().id },
		);
		return false;
	}
}

/**
 * Before a new registration: our own earlier webhooks that it replaces. That is
 * the record of this URL (an id without a secret, which checkExists rejected),
 * and records of the same kind under another URL (n8n's WEBHOOK_URL changed).
 * Records of the other kind (test vs production) are never touched.
 */
async function removeReplaced(
	ctx: IHookFunctions,
	client: KnolyxClient,
	data: TriggerStaticData,
	url: string,
	kind: RegistrationKind,
): Promise<void> {
	for (const [recordUrl, record] of Object.entries(data.registrations)) {
		const replaced = recordUrl === url || record?.kind === kind;
		if (!replaced) continue;
		const webhookId = typeof record?.webhookId === 'string' ? record.webhookId : undefined;
		if (webhookId === undefined || (await deleteById(ctx, client, webhookId, 'replaced by a new registration'))) {
			delete data.registrations[recordUrl];
		}
	}
}

async function listWebhooks(client: KnolyxClient): Promise<RemoteWebhook[]> {
	const { body } = await client.request<unknown>({ method: 'GET', path: '/webhook', subject: WEBHOOK_SUBJECT });
	return webhookList(body);
}

/**
 * POST /webhook, made safe to retry: when the answer is lost (network error,
 * 5xx) the list is checked for our name before trying again, so a request the
 * platform applied is never registered twice.
 */
async function register(
	ctx: IHookFunctions,
	client: KnolyxClient,
	request: { name: string; url: string; securityToken: string },
): Promise<string> {
	let lastError: unknown;
	for (let attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
		if (attempt > 1) {
			await sleep(500 * 2 ** (attempt - 2));
			const found = findOurs(await listWebhooks(client), request.url, request.name, false);
			if (found !== undefined) return found;
		}
		let body: unknown;
		try {
			({ body } = await client.request<unknown>({
				method: 'POST',
				path: '/webhook',
				body: request,
				subject: WEBHOOK_SUBJECT,
				retryOnNetworkError: false,
			}));
		} catch (error) {
			// A NodeApiError from the transport is handed back unchanged by this constructor.
			if (!isAmbiguous(error)) throw new NodeApiError(ctx.getNode(), error as JsonObject);
			lastError = error;
			ctx.logger.warn(
				`Knolyx Trigger: webhook registration attempt ${attempt} got no clear answer (${(error as Error).message}); checking the list before retrying`,
			);
			continue;
		}
		const id = createdId(body);
		if (id !== undefined) return id;
		// No id in the answer: find the webhook in the list.
		const found = findOurs(await listWebhooks(client), request.url, request.name, true);
		if (found !== undefined) return found;
		throw new NodeApiError(
			ctx.getNode(),
			{ message: 'Webhook created without an ID' },
			{
				message: 'Knolyx accepted the webhook but did not return its ID, and it is not in the webhook list',
				description: `The webhook for ${request.url} may exist in Knolyx without n8n knowing its ID. Delete webhooks named "${request.name}" in Knolyx if you see them, then activate the workflow again.`,
			},
		);
	}
	throw lastError;
}

export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	const url = hookWebhookUrl(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const data = triggerData(staticData);
	const record = data.registrations[url];
	if (!record) return false;
	if (!isComplete(record)) {
		ctx.logger.info('Knolyx Trigger: the stored registration has no secret; registering a new webhook');
		return false;
	}
	const client = new KnolyxClient(ctx);
	const response = await client.request<unknown>({
		method: 'GET',
		path: apiPath`/webhook/${record.webhookId}`,
		subject: { notFound: `webhook ${record.webhookId}`, ...WEBHOOK_SUBJECT },
		acceptStatuses: [404],
	});
	if (response.statusCode === 404) {
		ctx.logger.info(`Knolyx Trigger: webhook ${record.webhookId} no longer exists in Knolyx; registering a new one`);
		delete data.registrations[url];
		commit(staticData, data);
		return false;
	}
	const remoteUrl = isRecord(response.body) && typeof response.body.url === 'string' ? response.body.url : undefined;
	if (remoteUrl !== undefined && remoteUrl !== url) {
		// Not pointing at us any more: not ours to delete, and not ours to use.
		ctx.logger.warn(`Knolyx Trigger: webhook ${record.webhookId} now points elsewhere; registering a new one`);
		delete data.registrations[url];
		commit(staticData, data);
		return false;
	}
	return true;
}

export async function create(ctx: IHookFunctions): Promise<boolean> {
	const node = ctx.getNode();
	const url = hookWebhookUrl(ctx);
	const kind = kindOf(ctx);
	const scope = scopeOf(ctx);
	const credentials = await ctx.getCredentials('knolyxApi');
	const verdict: UrlVerdict = judgeWebhookUrl(url, String(credentials.baseUrl ?? ''));
	if (verdict.action === 'refuse') {
		throw new NodeOperationError(node, `${verdict.message}.`, { description: WEBHOOK_URL_HINT });
	}
	if (verdict.action === 'warn') ctx.logger.warn(`Knolyx Trigger: ${verdict.message}. ${WEBHOOK_URL_HINT}`);

	const staticData = ctx.getWorkflowStaticData('node');
	const data = triggerData(staticData);
	const client = new KnolyxClient(ctx);
	await removeReplaced(ctx, client, data, url, kind);
	commit(staticData, data);

	const secret = generateSecret();
	const name = registrationName(ctx, kind, randomBytes(4).toString('hex'));
	// Announced before the POST: the platform's creation PING may arrive before this returns.
	beginPending(scope, url, kind, secret);
	let webhookId: string;
	try {
		webhookId = await register(ctx, client, { name, url, securityToken: secret });
	} catch (error) {
		finishPending(scope, url, undefined);
		const status = Number((error as { httpCode?: string }).httpCode);
		const refused = verdict.action === 'warn' && status >= 400 && status < 500 && ![401, 403, 404, 429].includes(status);
		if (refused) {
			const platform = (error as Error).message;
			throw sanitized(node, error, [secret], {
				message: `${verdict.message}. ${platform}`,
				description: WEBHOOK_URL_HINT,
			});
		}
		throw sanitized(node, error, [secret]);
	}

	const record: StoredRegistration = { webhookId, secret, kind, createdAt: new Date().toISOString() };
	data.registrations[url] = record;
	commit(staticData, data);
	finishPending(scope, url, webhookId);
	ctx.logger.debug(`Knolyx Trigger: registered webhook ${webhookId} for ${url}`);
	return true;
}

export async function remove(ctx: IHookFunctions): Promise<boolean> {
	const url = hookWebhookUrl(ctx);
	const scope = scopeOf(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const data = triggerData(staticData);
	let webhookId = data.registrations[url]?.webhookId;
	if (typeof webhookId !== 'string' || webhookId === '') {
		// Stopped while the creation was in flight (a test listener ends with the creation PING).
		const pending = pendingFor(scope, url);
		if (pending) {
			await waitForPending(pending, PENDING_WAIT_MS);
			webhookId = pending.webhookId ?? data.registrations[url]?.webhookId;
		}
	}
	forgetPending(scope, url);
	if (typeof webhookId !== 'string' || webhookId === '') {
		delete data.registrations[url];
		commit(staticData, data);
		return true;
	}
	const deleted = await deleteById(ctx, new KnolyxClient(ctx), webhookId, 'workflow deactivated');
	if (deleted) {
		delete data.registrations[url];
		commit(staticData, data);
	}
	return deleted;
}
