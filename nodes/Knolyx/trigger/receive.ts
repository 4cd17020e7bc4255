/**
 * One delivery from Knolyx, in five steps: checkToken → parse → isWanted →
 * takeNew (seen, pending or new) → emit (one item for the workflow). Everything that starts no
 * execution is answered here and now, so the platform gets its quick 2xx (or a
 * clear 4xx).
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { MAX_JSON_DEPTH, nestingDepth } from '../helpers/json';
import { decodeBody, exactRecord, TOO_DEEP } from './body';
import { deliveryWebhookUrl, kindOf, scopeOf } from './context';
import { emit, reply, takeNew, type TriggerOptions } from './delivery';
import { DEFAULT_EVENTS, isSelected, parseEnvelope, type KnolyxEnvelope } from './events';
import {
	isComplete,
	pendingFor,
	pendingOfKind,
	peekTriggerData,
	type RegistrationKind,
	type StoredRegistration,
} from './registrations';
import { readTriggerSwitches } from './options';
import { matchesAny, tokenFromHeaders } from './security';

function isEmptyObject(value: unknown): boolean {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Buffer.isBuffer(value) &&
		Object.keys(value).length === 0
	);
}

type Step<T> = { ok: true; value: T } | { ok: false; response: IWebhookResponseData };

/** 1. Who is calling: the token must be the secret of our registration for this URL. Says whether the static data in hand knows it. */
function checkToken(
	ctx: IWebhookFunctions,
	staticData: IDataObject,
	kind: RegistrationKind,
	scope: string,
): Step<{ knownInStaticData: boolean }> {
	const url = deliveryWebhookUrl(ctx);
	const stored = peekTriggerData(staticData);
	const records: StoredRegistration[] = (
		url !== undefined
			? [stored.registrations[url]]
			: Object.values(stored.registrations).filter((record) => record?.kind === kind)
	).filter(isComplete);
	const pending =
		url !== undefined
			? [pendingFor(scope, url)].flatMap((p) => (p ? [p] : []))
			: pendingOfKind(scope, kind);
	const token = tokenFromHeaders(ctx.getHeaderData() as Record<string, unknown>);
	const knownInStaticData = matchesAny(
		token,
		records.map((record) => record.secret),
	);
	// A registration still being stored (its creation PING can beat n8n's save of static data).
	const knownAsPending =
		!knownInStaticData &&
		matchesAny(
			token,
			pending.map((entry) => entry.secret),
		);
	if (!knownInStaticData && !knownAsPending) {
		if (records.length === 0 && pending.length === 0) {
			ctx.logger.warn(
				'Knolyx Trigger: a delivery arrived but no webhook secret is stored for this URL; it was refused (401). Deactivate and activate the workflow again to register a new webhook.',
			);
		} else {
			ctx.logger.debug(
				`Knolyx Trigger: refused a delivery with a ${token ? 'wrong' : 'missing'} security token`,
			);
		}
		return {
			ok: false,
			response: reply(ctx, 401, { message: 'Missing or invalid X-Webhook-Security-Token' }),
		};
	}
	if (knownAsPending) {
		ctx.logger.debug(
			'Knolyx Trigger: delivery verified against a registration that is still being stored',
		);
	}
	return { ok: true, value: { knownInStaticData } };
}

/**
 * The body as sent. n8n parses a JSON body into req.body (version 1: any body;
 * version 2: JSON, text, form and XML only), decoding it with the charset its
 * Content-Type declares, and keeps the bytes in req.rawBody once read; a body it
 * left unparsed is read here (through n8n's own reader) and decoded the same way.
 * n8n's JSON.parse rounds ids past 2^53 - 1 (user.id, course.id, bundle.id are longs), so a
 * JSON object n8n parsed is read again from its bytes, exactly (docs/api.md, "Ids").
 */
async function bodyOf(ctx: IWebhookFunctions): Promise<Step<unknown>> {
	const req = ctx.getRequestObject() as {
		body?: unknown;
		rawBody?: unknown;
		readRawBody?: () => Promise<void>;
	};
	if (req.body !== undefined && !isEmptyObject(req.body)) {
		const exact = Buffer.isBuffer(req.rawBody)
			? exactRecord(req.rawBody, ctx.getHeaderData()['content-type'])
			: undefined;
		return { ok: true, value: exact ?? ctx.getBodyData() };
	}
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	const raw = req.rawBody ?? req.body;
	if (!Buffer.isBuffer(raw)) return { ok: true, value: raw };
	const decoded = decodeBody(raw, ctx.getHeaderData()['content-type']);
	if (!decoded.ok) {
		ctx.logger.debug(
			`Knolyx Trigger: refused a delivery whose text could not be read: ${decoded.message}`,
		);
		return { ok: false, response: reply(ctx, decoded.status, { message: decoded.message }) };
	}
	return { ok: true, value: decoded.text };
}

function refuse(ctx: IWebhookFunctions, reason: string): Step<never> {
	ctx.logger.debug(`Knolyx Trigger: refused a delivery that is not a Knolyx event: ${reason}`);
	return { ok: false, response: reply(ctx, 400, { message: `Not a Knolyx event: ${reason}` }) };
}

/**
 * 2. What was sent: a JSON envelope {id, type, data}, in the charset its Content-Type
 * declares, no deeper than MAX_JSON_DEPTH (the envelope counts as one level; a body n8n left
 * as text is refused by the reader before anything deeper is built).
 */
async function parse(ctx: IWebhookFunctions): Promise<Step<KnolyxEnvelope>> {
	const body = await bodyOf(ctx);
	if (!body.ok) return body;
	const parsed = parseEnvelope(body.value);
	if (!parsed.ok) return refuse(ctx, parsed.reason);
	if (1 + nestingDepth(parsed.envelope.data, MAX_JSON_DEPTH - 1) > MAX_JSON_DEPTH) {
		return refuse(ctx, TOO_DEEP);
	}
	return { ok: true, value: parsed.envelope };
}

/** 3. Is it wanted: an event type the node listens to (a PING in a test only if asked for). */
function isWanted(
	ctx: IWebhookFunctions,
	envelope: KnolyxEnvelope,
	options: TriggerOptions,
	kind: RegistrationKind,
): boolean {
	const selected = ctx.getNodeParameter('events', DEFAULT_EVENTS) as string[];
	return isSelected(envelope.type, selected, {
		test: kind === 'test',
		pingInTest: readTriggerSwitches(ctx.getNode(), options as IDataObject).pingInTest,
	});
}

export async function receive(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const kind = kindOf(ctx);
	const scope = scopeOf(ctx);
	const staticData = ctx.getWorkflowStaticData('node');

	const caller = checkToken(ctx, staticData, kind, scope);
	if (!caller.ok) return caller.response;

	const parsed = await parse(ctx);
	if (!parsed.ok) return parsed.response;
	const envelope = parsed.value;

	const options = ctx.getNodeParameter('options', {}) as TriggerOptions;
	if (!isWanted(ctx, envelope, options, kind)) {
		return { webhookResponse: { received: true, ignored: 'event type not selected' } };
	}

	const nowMs = Date.now();
	const taken = takeNew(ctx, staticData, envelope.id, {
		kind,
		scope,
		nowMs,
		options,
		writable: caller.value.knownInStaticData,
	});
	if (!taken.ok) return taken.response;

	return emit(
		ctx,
		envelope,
		options,
		nowMs,
		taken.pending,
		taken.catchUp,
		caller.value.knownInStaticData ? staticData : undefined,
	);
}
