/**
 * One delivery from Knolyx: authenticate, validate, filter, drop duplicates,
 * then hand one item to the workflow. Everything that starts no execution is
 * answered here and now, so the platform gets its quick 2xx (or a clear 4xx).
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { deliveryWebhookUrl, kindOf, scopeOf } from './context';
import { DEFAULT_DEDUPE_WINDOW, DEFAULT_LIMITS, openDedupe } from './dedupe';
import { buildItem, DEFAULT_EVENTS, isSelected, parseEnvelope } from './events';
import { isComplete, pendingFor, pendingOfKind, peekTriggerData, type StoredRegistration } from './registrations';
import { matchesAny, tokenFromHeaders } from './security';

export interface TriggerOptions {
	dedupeWindow?: number;
	rawEnvelope?: boolean;
	pingInTest?: boolean;
}

function reply(ctx: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	const res = ctx.getResponseObject();
	res.status(status).json(body);
	return { noWebhookResponse: true };
}

function isEmptyObject(value: unknown): boolean {
	return typeof value === 'object' && value !== null && !Buffer.isBuffer(value) && Object.keys(value).length === 0;
}

export async function receive(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const kind = kindOf(ctx);
	const test = kind === 'test';
	const scope = scopeOf(ctx);
	const url = deliveryWebhookUrl(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const stored = peekTriggerData(staticData);

	// 1. Who is calling: the token must be the secret of our registration for this URL.
	const records: StoredRegistration[] = (
		url !== undefined
			? [stored.registrations[url]]
			: Object.values(stored.registrations).filter((record) => record?.kind === kind)
	).filter(isComplete);
	const pending = url !== undefined ? [pendingFor(scope, url)].flatMap((p) => (p ? [p] : [])) : pendingOfKind(scope, kind);
	const token = tokenFromHeaders(ctx.getHeaderData() as Record<string, unknown>);
	const knownInStaticData = matchesAny(token, records.map((record) => record.secret));
	// A registration still being stored (its creation PING can beat n8n's save of static data).
	const knownAsPending = !knownInStaticData && matchesAny(token, pending.map((entry) => entry.secret));
	if (!knownInStaticData && !knownAsPending) {
		if (records.length === 0 && pending.length === 0) {
			ctx.logger.warn(
				'Knolyx Trigger: a delivery arrived but no webhook secret is stored for this URL; it was refused (401). Deactivate and activate the workflow again to register a new webhook.',
			);
		} else {
			ctx.logger.debug(`Knolyx Trigger: refused a delivery with a ${token ? 'wrong' : 'missing'} security token`);
		}
		return reply(ctx, 401, { message: 'Missing or invalid X-Webhook-Security-Token' });
	}

	if (knownAsPending) {
		ctx.logger.debug('Knolyx Trigger: delivery verified against a registration that is still being stored');
	}

	// 2. What was sent: a JSON envelope {id, type, data}.
	const req = ctx.getRequestObject() as { body?: unknown; rawBody?: unknown };
	const body = isEmptyObject(req.body) && req.rawBody !== undefined ? req.rawBody : ctx.getBodyData();
	const parsed = parseEnvelope(body);
	if (!parsed.ok) {
		ctx.logger.debug(`Knolyx Trigger: refused a delivery that is not a Knolyx event: ${parsed.reason}`);
		return reply(ctx, 400, { message: `Not a Knolyx event: ${parsed.reason}` });
	}
	const { envelope } = parsed;

	// 3. Is it wanted.
	const selected = ctx.getNodeParameter('events', DEFAULT_EVENTS) as string[];
	const options = ctx.getNodeParameter('options', {}) as TriggerOptions;
	if (!isSelected(envelope.type, selected, { test, pingInTest: options.pingInTest !== false })) {
		return { webhookResponse: { received: true, ignored: 'event type not selected' } };
	}

	// 4. Was it seen already (the platform resends what it thinks was not confirmed).
	const now = Date.now();
	const dedupe = openDedupe(staticData, {
		scope: `${scope}|${kind}`,
		kind,
		limits: { maxEntries: Math.max(0, Math.floor(options.dedupeWindow ?? DEFAULT_DEDUPE_WINDOW)), maxAgeMs: DEFAULT_LIMITS.maxAgeMs },
		nowMs: now,
		// Only static data that knows this registration is written: a copy that does
		// not (the creation PING racing n8n's save) would overwrite the newer one.
		writable: knownInStaticData,
	});
	if (dedupe.isDuplicate(envelope.id)) {
		ctx.logger.debug(`Knolyx Trigger: message ${envelope.id} was already handled; no new execution`);
		// The stored window may have lost ids this process accepted (a concurrent save
		// won): they are written back now, so a restart or another process still knows them.
		dedupe.repair();
		return { webhookResponse: { received: true, ignored: 'duplicate message' } };
	}
	dedupe.accept(envelope.id);

	// 5. One item per event. The node answers the platform itself: with
	// noWebhookResponse, n8n 2.41 saves the static data changed above (the seen id)
	// before it starts the execution; when n8n answers, it builds the execution on a
	// reloaded copy and the seen id is lost on restart (seen in the e2e run).
	const item = buildItem(envelope, { raw: options.rawEnvelope === true, receivedAt: new Date(now).toISOString() });
	const res = ctx.getResponseObject();
	res.status(200).json({ received: true });
	return { noWebhookResponse: true, workflowData: [ctx.helpers.returnJsonArray([item])] };
}
