import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';
import { notConfirmed, writeAnswerOf } from '../confirm';
import { asNodeError } from '../errors';
import { pageItems, readPages } from '../paging';
import { outcomeUnknown } from '../retry';
import { isRecord } from '../../helpers/objects';

/**
 * The platform's webhooks. Creation is made safe to retry, shared by Webhook → Create and the trigger's
 * activation. The platform does not de-duplicate webhooks, so a POST whose answer was lost
 * (dropped connection, 502/503/504) is never sent again before the webhook list shows that it
 * was not applied.
 */

export interface RemoteWebhook {
	id: string;
	url?: string;
	name?: string;
}

export interface WebhookRequest {
	name: string;
	url: string;
	securityToken: string;
}

/** POST attempts when the answer is lost: each after the first is preceded by a check of the list. */
const CREATE_ATTEMPTS = 3;

/**
 * What counts as a webhook id (docs/api.md, "What counts as a webhook id"). In an answer, only a
 * value that is unmistakably an id: a whole number from 1 (a JSON number, or its digits as text,
 * without spaces or leading zeros), a UUID or a hexadecimal token of 16 to 64 digits. Anything
 * else (a word such as "Completed" or "None", "-", 0, " 41 ", `null`, a sentence) is not taken
 * from the answer: the platform's webhook list decides. No word is ever looked at.
 */
const ID_TEXT =
	/^([1-9]\d{0,29}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,64})$/i;
/** An id as the webhook list gives it: the platform's own, so any token fit for a path. */
const LISTED_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A webhook id as text when the value is unmistakably one, else undefined (see above). */
export function webhookIdOf(value: unknown): string | undefined {
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value >= 1 ? String(value) : undefined;
	return typeof value === 'string' && ID_TEXT.test(value) ? value : undefined;
}

/** The id of a list entry: the platform lists it, so any number or path-safe token as given. */
function listedIdOf(value: unknown): string | undefined {
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
	return typeof value === 'string' && LISTED_ID.test(value) ? value : undefined;
}

/**
 * The id in a creation answer when it is unmistakably one: `{ id }` (or `{ webhookId }`), a bare
 * id (a JSON number or string), or a text answer (which the transport hands over as `{ answer }`).
 */
function createdId(body: unknown): string | undefined {
	if (isRecord(body))
		return webhookIdOf(body.id) ?? webhookIdOf(body.webhookId) ?? webhookIdOf(body.answer);
	return webhookIdOf(body);
}

/** The entries of a webhook list answer as given: a plain array or a page object. */
export function webhookEntries(body: unknown): IDataObject[] {
	return (pageItems<unknown>(body)?.items ?? []).filter(isRecord);
}

/** The webhooks among list entries, with the fields this package reads. */
function remoteWebhooks(entries: IDataObject[]): RemoteWebhook[] {
	return entries.flatMap((entry) => {
		const id = listedIdOf(entry.id);
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

/** The webhooks of a list answer, with the fields this package reads. */
export function webhookList(body: unknown): RemoteWebhook[] {
	return remoteWebhooks(webhookEntries(body));
}

/**
 * The platform's webhooks, every page of the list: the entries as given (for output) and
 * parsed. The client refuses an answer that is no list (catalogue shape `page`): taken for "no
 * webhooks", it would make a creation whose answer was lost send its POST again.
 */
export async function listWebhooks(
	client: KnolyxClient,
	itemIndex?: number,
): Promise<{ entries: IDataObject[]; webhooks: RemoteWebhook[] }> {
	const listed = await readPages<unknown>(client, ENDPOINTS.webhookList, {
		returnAll: true,
		itemIndex,
	});
	const entries = listed.filter(isRecord);
	return { entries, webhooks: remoteWebhooks(entries) };
}

/**
 * Our webhook in a list, by what its entries carry: our exact name and our URL, or our name when
 * the entries carry no URL (the guides do not show the list's fields), newest first, leaving out
 * those that existed before we sent ours (`before`). When the entries carry no name, and only
 * when `byUrlAlone` is allowed (the webhooks there before are known), the newest with our URL.
 */
export function findOurs(
	list: RemoteWebhook[],
	url: string,
	name: string,
	byUrlAlone: boolean,
	before: ReadonlySet<string> = new Set(),
): string | undefined {
	const fresh = list.filter((webhook) => !before.has(webhook.id));
	const named = fresh.filter(
		(webhook) => webhook.name === name && (webhook.url === url || webhook.url === undefined),
	);
	if (named.length > 0) return newestWebhook(named);
	const sameUrl = fresh.filter((webhook) => webhook.url === url);
	if (!byUrlAlone || sameUrl.length === 0 || sameUrl.some((webhook) => webhook.name !== undefined))
		return undefined;
	return newestWebhook(sameUrl);
}

/** The newest of some webhooks: the highest numeric id, else the last listed. */
export function newestWebhook(webhooks: RemoteWebhook[]): string {
	const numeric = webhooks.every((webhook) => /^\d+$/.test(webhook.id));
	const sorted = numeric ? [...webhooks].sort((a, b) => Number(a.id) - Number(b.id)) : webhooks;
	return sorted[sorted.length - 1].id;
}

export interface CreatedWebhook {
	/** The id, from the answer or, when the answer had none, from the list. */
	id: string;
	/** Where the id was read: the creation answer, or the webhook list. */
	from: 'answer' | 'list';
	/** The creation answer; undefined when the webhook was found in the list after a lost answer. */
	body?: unknown;
}

/**
 * POST /webhook, sent again only after the list shows it was not applied. The webhooks there
 * before (`before`: read here when not given; the trigger gives those it recorded) are left out
 * of every match, so our webhook is found by what the list's entries carry: name and URL, the
 * name alone, or the URL alone (the newest with our URL).
 * An answer without an id (`{}`, `{ id: null }`, text such as "Created") is looked up in the
 * whole list the same way; a webhook that cannot be found there fails with a message naming it.
 */
export async function createWebhook(
	client: KnolyxClient,
	request: WebhookRequest,
	options: {
		itemIndex?: number;
		before?: ReadonlySet<string>;
		onUnsure?: (attempt: number, error: Error) => void;
	} = {},
): Promise<CreatedWebhook> {
	const before =
		options.before ??
		new Set((await listWebhooks(client, options.itemIndex)).webhooks.map((webhook) => webhook.id));
	const known = { ...options, before };
	let lastError: unknown;
	for (let attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
		if (attempt > 1) {
			await sleep(500 * 2 ** (attempt - 2));
			let webhooks: RemoteWebhook[];
			try {
				({ webhooks } = await listWebhooks(client, options.itemIndex));
			} catch (error) {
				throw uncheckedCreation(client, request, error, options.itemIndex);
			}
			const found = findOurs(webhooks, request.url, request.name, true, before);
			if (found !== undefined) return { id: found, from: 'list' };
		}
		try {
			const { body } = await client.call(ENDPOINTS.webhookCreate, {
				body: { name: request.name, url: request.url, securityToken: request.securityToken },
				itemIndex: options.itemIndex,
			});
			const id = createdId(body);
			if (id !== undefined) return { id, body, from: 'answer' };
			return { id: await lookUp(client, request, known), body, from: 'list' };
		} catch (error) {
			if (error instanceof MissingIdError) throw error.nodeError;
			const failure = asNodeError(client.node, error, options.itemIndex);
			if (!outcomeUnknown(error)) throw failure;
			lastError = failure;
			options.onUnsure?.(attempt, failure);
		}
	}
	throw asNodeError(client.node, lastError, options.itemIndex);
}

/** Carries the failure of a creation answered without an id past the retry of lost answers. */
class MissingIdError extends Error {
	constructor(readonly nodeError: NodeApiError) {
		super(nodeError.message);
	}
}

/** The id of a webhook Knolyx created but answered without: found in the list, or a clear failure. */
async function lookUp(
	client: KnolyxClient,
	request: WebhookRequest,
	options: { itemIndex?: number; before?: ReadonlySet<string> },
): Promise<string> {
	let why = 'it is not in the webhook list';
	try {
		const { webhooks } = await listWebhooks(client, options.itemIndex);
		const found = findOurs(webhooks, request.url, request.name, true, options.before);
		if (found !== undefined) return found;
	} catch (error) {
		why = `the webhook list could not be read (${asNodeError(client.node, error, options.itemIndex).message})`;
	}
	throw new MissingIdError(
		new NodeApiError(client.node, { message: 'Webhook created without an ID' } as JsonObject, {
			message: `Knolyx accepted the webhook "${request.name}" for ${request.url} but did not return its ID, and ${why}`,
			description: `The webhook may exist in Knolyx without n8n knowing its ID. Delete webhooks named "${request.name}" in Knolyx (Webhook → Get Many lists them) before you try again.`,
			itemIndex: options.itemIndex,
		}),
	);
}

/** A creation whose answer was lost, and the list that would tell whether it was applied failed. */
function uncheckedCreation(
	client: KnolyxClient,
	request: WebhookRequest,
	error: unknown,
	itemIndex?: number,
): NodeApiError {
	const listError = asNodeError(client.node, error, itemIndex);
	return new NodeApiError(client.node, { message: listError.message } as JsonObject, {
		message: `The webhook registration for ${request.url} got no clear answer, and the webhook list that would show whether it was applied could not be read: it was not sent again`,
		description: `The webhook may exist in Knolyx. Check the list (Webhook → Get Many) and delete webhooks named "${request.name}" that n8n does not use before you try again. The list read failed with: ${listError.message}`,
		httpCode: 'httpCode' in listError ? (listError.httpCode ?? undefined) : undefined,
		itemIndex,
	});
}

/** `webhookGet`; `acceptStatuses: [404]` hands a missing webhook back instead of failing. */
export async function getWebhook(
	client: KnolyxClient,
	webhookId: string,
	options: { itemIndex?: number; acceptStatuses?: number[] } = {},
): Promise<KnolyxResponse<IDataObject>> {
	return await client.call<IDataObject>(ENDPOINTS.webhookGet, {
		params: { webhookId },
		...options,
	});
}

/**
 * `webhookDelete`; `acceptStatuses: [404]` counts a webhook already gone as deleted. A deletion
 * counts only when Knolyx answered a clear success (nothing in it, or a JSON object) or no longer
 * has the webhook: an answer that says something else (a text such as "ERROR: webhook not
 * deleted", `null`, `false`) is checked by reading the webhook, and fails as not confirmed while
 * it is still there.
 */
export async function deleteWebhook(
	client: KnolyxClient,
	webhookId: string,
	options: { itemIndex?: number; acceptStatuses?: number[] } = {},
): Promise<KnolyxResponse> {
	const response = await client.call(ENDPOINTS.webhookDelete, {
		params: { webhookId },
		...options,
	});
	const answer = writeAnswerOf(response.body);
	if (response.statusCode === 404 || response.alreadyDone || answer.kind !== 'said')
		return response;
	const what = `Deletion of webhook ${webhookId}`;
	const base = { what, answer, status: response.statusCode, itemIndex: options.itemIndex };
	let check: KnolyxResponse<IDataObject>;
	try {
		check = await getWebhook(client, webhookId, {
			itemIndex: options.itemIndex,
			acceptStatuses: [404],
		});
	} catch (error) {
		const failure = asNodeError(client.node, error, options.itemIndex);
		throw notConfirmed(client.node, {
			...base,
			checked: `the webhook could not be read to see whether it is gone (${failure.message})`,
		});
	}
	if (check.statusCode === 404) return response;
	throw notConfirmed(client.node, { ...base, checked: 'Knolyx still has the webhook' });
}

/**
 * `webhookPing` to one webhook, or `webhookPingAll` when no id is given. Confirmed by a 2xx with
 * nothing in it or a JSON object; an answer that says something else cannot be checked (no read
 * shows a PING sent) and fails as not confirmed.
 */
export async function pingWebhooks(
	client: KnolyxClient,
	webhookId: string | undefined,
	itemIndex?: number,
): Promise<KnolyxResponse> {
	const response =
		webhookId === undefined
			? await client.call(ENDPOINTS.webhookPingAll, { itemIndex })
			: await client.call(ENDPOINTS.webhookPing, { params: { webhookId }, itemIndex });
	const answer = writeAnswerOf(response.body);
	if (answer.kind !== 'said') return response;
	throw notConfirmed(client.node, {
		what:
			webhookId === undefined ? 'The PING to every webhook' : `The PING to webhook ${webhookId}`,
		answer,
		status: response.statusCode,
		checked: 'no read of the API shows a PING sent',
		itemIndex,
	});
}
