import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';
import { asNodeError } from '../errors';
import { pageItems } from '../paging';
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

function idFrom(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	return undefined;
}

/** The id in a creation answer: `{ id }` (or `{ webhookId }`), or a bare id. */
function createdId(body: unknown): string | undefined {
	if (isRecord(body)) return idFrom(body.id) ?? idFrom(body.webhookId);
	return idFrom(body);
}

/** The entries of a webhook list answer as given: a plain array or a page object. */
export function webhookEntries(body: unknown): IDataObject[] {
	return (pageItems<unknown>(body)?.items ?? []).filter(isRecord);
}

/** The webhooks among list entries, with the fields this package reads. */
function remoteWebhooks(entries: IDataObject[]): RemoteWebhook[] {
	return entries.flatMap((entry) => {
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

/** The webhooks of a list answer, with the fields this package reads. */
export function webhookList(body: unknown): RemoteWebhook[] {
	return remoteWebhooks(webhookEntries(body));
}

/**
 * The platform's webhooks: the entries as given (for output) and parsed. The client refuses an
 * answer that is no list (catalogue shape `page`): taken for "no webhooks", it would make a
 * creation whose answer was lost send its POST again.
 */
export async function listWebhooks(
	client: KnolyxClient,
	itemIndex?: number,
): Promise<{ entries: IDataObject[]; webhooks: RemoteWebhook[] }> {
	const { body } = await client.call(ENDPOINTS.webhookList, { itemIndex });
	const entries = webhookEntries(body);
	return { entries, webhooks: remoteWebhooks(entries) };
}

/**
 * Our webhook in a list: the one with our URL and our exact name, newest first, leaving out
 * those that existed before we sent ours (`before`). Without names in the answer, and only
 * when `byUrlAlone` is allowed, the newest with our URL.
 */
export function findOurs(
	list: RemoteWebhook[],
	url: string,
	name: string,
	byUrlAlone: boolean,
	before: ReadonlySet<string> = new Set(),
): string | undefined {
	const sameUrl = list.filter((webhook) => webhook.url === url && !before.has(webhook.id));
	const named = sameUrl.filter((webhook) => webhook.name === name);
	if (named.length > 0) return named[named.length - 1].id;
	if (!byUrlAlone || sameUrl.length === 0 || sameUrl.some((webhook) => webhook.name !== undefined))
		return undefined;
	const numeric = sameUrl.every((webhook) => /^\d+$/.test(webhook.id));
	const sorted = numeric ? [...sameUrl].sort((a, b) => Number(a.id) - Number(b.id)) : sameUrl;
	return sorted[sorted.length - 1].id;
}

export interface CreatedWebhook {
	/** The id, from the answer or from the list; undefined when the answer had none. */
	id?: string;
	/** The creation answer; undefined when the webhook was found in the list after a lost answer. */
	body?: unknown;
}

/**
 * POST /webhook, sent again only after the list shows it was not applied. `before` holds the
 * ids of webhooks that existed before (needed when the name is not unique to this request).
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
			const found = findOurs(webhooks, request.url, request.name, false, options.before);
			if (found !== undefined) return { id: found };
		}
		try {
			const { body } = await client.call(ENDPOINTS.webhookCreate, {
				body: { name: request.name, url: request.url, securityToken: request.securityToken },
				itemIndex: options.itemIndex,
			});
			return { id: createdId(body), body };
		} catch (error) {
			const failure = asNodeError(client.node, error, options.itemIndex);
			if (!outcomeUnknown(error)) throw failure;
			lastError = failure;
			options.onUnsure?.(attempt, failure);
		}
	}
	throw asNodeError(client.node, lastError, options.itemIndex);
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

/** `webhookDelete`; `acceptStatuses: [404]` counts a webhook already gone as deleted. */
export async function deleteWebhook(
	client: KnolyxClient,
	webhookId: string,
	options: { itemIndex?: number; acceptStatuses?: number[] } = {},
): Promise<KnolyxResponse> {
	return await client.call(ENDPOINTS.webhookDelete, { params: { webhookId }, ...options });
}

/** `webhookPing` to one webhook, or `webhookPingAll` when no id is given. */
export async function pingWebhooks(
	client: KnolyxClient,
	webhookId: string | undefined,
	itemIndex?: number,
): Promise<KnolyxResponse> {
	return webhookId === undefined
		? await client.call(ENDPOINTS.webhookPingAll, { itemIndex })
		: await client.call(ENDPOINTS.webhookPing, { params: { webhookId }, itemIndex });
}
