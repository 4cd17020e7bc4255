/**
 * The webhook lifecycle on the platform: checkExists, create, delete.
 *
 * Each registration gets its own secret and its own record, keyed by n8n's
 * webhook URL (test and production differ), so the test listener and the
 * active workflow never touch each other's webhook. Only webhooks whose id this
 * node stored (or whose creation it is still waiting for) are ever deleted.
 */
import type { IDataObject, IHookFunctions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { randomBytes } from 'node:crypto';

import {
	CREDENTIAL_TYPE,
	createWebhook,
	deleteWebhook,
	getWebhook,
	KnolyxClient,
	listWebhooks,
	newestWebhook,
	webhookIdOf,
} from '../transport';
import { hookWebhookUrl, kindOf, registrationName, scopeOf } from './context';
import { readTriggerSwitches } from './options';
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
import { isRecord } from '../helpers/objects';

/** How long delete() waits for a creation still in flight (test listener stopped by the creation PING). */
const PENDING_WAIT_MS = 60_000;

/** A copy of an error with every secret replaced, so nothing the platform echoed can leak it. */
function sanitized(
	node: INode,
	error: unknown,
	secrets: string[],
	extra?: { message?: string; description?: string },
) {
	const source = error as {
		message?: string;
		description?: string | null;
		httpCode?: string | null;
		errorResponse?: unknown;
	};
	const body = isRecord(source.errorResponse)
		? (redactDeep(source.errorResponse, secrets) as JsonObject)
		: {};
	const message = redact(
		extra?.message ?? source.message ?? 'Knolyx webhook registration failed',
		secrets,
	);
	const description = extra?.description ?? source.description ?? undefined;
	return new NodeApiError(node, { ...body, message } as JsonObject, {
		message,
		description: description ? redact(description, secrets) : undefined,
		httpCode: source.httpCode ?? undefined,
	});
}

/** Deletes one webhook by id; true when it is gone (a 404 counts). Failures are logged, not thrown. */
async function deleteById(
	ctx: IHookFunctions,
	client: KnolyxClient,
	webhookId: string,
	why: string,
): Promise<boolean> {
	try {
		const response = await deleteWebhook(client, webhookId, { acceptStatuses: [404] });
		ctx.logger.debug(
			`Knolyx Trigger: ${why}: webhook ${webhookId} ${response.statusCode === 404 ? 'was already gone' : 'deleted'}`,
		);
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
		if (
			webhookId === undefined ||
			(await deleteById(ctx, client, webhookId, 'replaced by a new registration'))
		) {
			delete data.registrations[recordUrl];
		}
	}
}

/**
 * POST /webhook through the shared safe creation (never sent again before the list shows it
 * was not applied; an answer without an id is looked up in the list by the registration's
 * unique name).
 */
async function register(
	ctx: IHookFunctions,
	client: KnolyxClient,
	request: { name: string; url: string; securityToken: string },
	data: TriggerStaticData,
): Promise<string> {
	// No list read before the POST (an activation costs one request): the webhooks known before
	// are the ones this node recorded; among the others a list without names is matched by URL.
	const before = new Set(
		Object.values(data.registrations).flatMap((record) =>
			typeof record?.webhookId === 'string' ? [record.webhookId] : [],
		),
	);
	try {
		const created = await createWebhook(client, request, {
			before,
			onUnsure: (attempt, error) =>
				ctx.logger.warn(
					`Knolyx Trigger: webhook registration attempt ${attempt} got no clear answer (${error.message}); checking the list before retrying`,
				),
		});
		return created.id;
	} catch (error) {
		// A NodeApiError from the transport is handed back unchanged by this constructor.
		throw new NodeApiError(ctx.getNode(), error as JsonObject);
	}
}

/**
 * The webhook id a record holds. An id that is unmistakably one is used as stored. Any other (a
 * word or a spaced id stored by an older version from a creation answered "Created", "Pending" or
 * `{ "id": " 41 " }`) is asked of the platform: kept when the webhook list holds it for this URL,
 * else mended from the list (the newest webhook pointing at this URL that no other record holds).
 * Undefined when there is none: the word is never sent.
 */
async function recordedId(
	client: KnolyxClient,
	data: TriggerStaticData,
	url: string,
	webhookId: string,
): Promise<string | undefined> {
	if (webhookIdOf(webhookId) !== undefined) return webhookId;
	const others = new Set(
		Object.entries(data.registrations)
			.filter(([recordUrl]) => recordUrl !== url)
			.map(([, record]) => record?.webhookId),
	);
	const { webhooks } = await listWebhooks(client);
	const ours = webhooks.filter(
		(webhook) => (webhook.url === url || webhook.url === undefined) && !others.has(webhook.id),
	);
	if (ours.some((webhook) => webhook.id === webhookId)) return webhookId;
	const atUrl = ours.filter((webhook) => webhook.url === url);
	return atUrl.length === 0 ? undefined : newestWebhook(atUrl);
}

export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	const url = hookWebhookUrl(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const data = triggerData(staticData);
	const record = data.registrations[url];
	if (!record) return false;
	if (!isComplete(record)) {
		ctx.logger.info(
			'Knolyx Trigger: the stored registration has no secret; registering a new webhook',
		);
		return false;
	}
	const client = new KnolyxClient(ctx);
	const webhookId = await recordedId(client, data, url, record.webhookId);
	if (webhookId === undefined) {
		delete data.registrations[url];
		commit(staticData, data);
		return false;
	}
	if (webhookId !== record.webhookId) {
		record.webhookId = webhookId;
		commit(staticData, data);
	}
	const response = await getWebhook(client, record.webhookId, { acceptStatuses: [404] });
	if (response.statusCode === 404) {
		ctx.logger.info(
			`Knolyx Trigger: webhook ${record.webhookId} no longer exists in Knolyx; registering a new one`,
		);
		delete data.registrations[url];
		commit(staticData, data);
		return false;
	}
	const remoteUrl =
		isRecord(response.body) && typeof response.body.url === 'string'
			? response.body.url
			: undefined;
	if (remoteUrl !== undefined && remoteUrl !== url) {
		// Not pointing at us any more: not ours to delete, and not ours to use.
		ctx.logger.warn(
			`Knolyx Trigger: webhook ${record.webhookId} now points elsewhere; registering a new one`,
		);
		delete data.registrations[url];
		commit(staticData, data);
		return false;
	}
	return true;
}

export async function create(ctx: IHookFunctions): Promise<boolean> {
	const node = ctx.getNode();
	// An option that is no boolean refuses the activation before anything is registered.
	readTriggerSwitches(node, ctx.getNodeParameter('options', {}) as IDataObject);
	const url = hookWebhookUrl(ctx);
	const kind = kindOf(ctx);
	const scope = scopeOf(ctx);
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const verdict: UrlVerdict = judgeWebhookUrl(url, String(credentials.baseUrl ?? ''));
	if (verdict.action === 'refuse') {
		throw new NodeOperationError(node, `${verdict.message}.`, { description: WEBHOOK_URL_HINT });
	}
	if (verdict.action === 'warn')
		ctx.logger.warn(`Knolyx Trigger: ${verdict.message}. ${WEBHOOK_URL_HINT}`);

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
		webhookId = await register(ctx, client, { name, url, securityToken: secret }, data);
	} catch (error) {
		finishPending(scope, url, undefined);
		const status = Number((error as { httpCode?: string }).httpCode);
		const refused =
			verdict.action === 'warn' &&
			status >= 400 &&
			status < 500 &&
			![401, 403, 404, 429].includes(status);
		if (refused) {
			const platform = (error as Error).message;
			throw sanitized(node, error, [secret], {
				message: `${verdict.message}. ${platform}`,
				description: WEBHOOK_URL_HINT,
			});
		}
		throw sanitized(node, error, [secret]);
	}

	const record: StoredRegistration = {
		webhookId,
		secret,
		kind,
		createdAt: new Date().toISOString(),
	};
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
	const client = new KnolyxClient(ctx);
	const realId = await recordedId(client, data, url, webhookId);
	const deleted =
		realId === undefined || (await deleteById(ctx, client, realId, 'workflow deactivated'));
	if (deleted) {
		delete data.registrations[url];
		commit(staticData, data);
	}
	return deleted;
}
