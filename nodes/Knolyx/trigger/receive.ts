/**
 * One delivery from Knolyx, in five steps: checkToken → parse → isWanted →
 * takeNew (seen, pending or new) → emit (one item for the workflow). Everything that starts no
 * execution is answered here and now, so the platform gets its quick 2xx (or a
 * clear 4xx).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { MAX_JSON_DEPTH, nestingDepth } from '../helpers/json';
import { decodeBody, exactRecord, TOO_DEEP } from './body';
import { deliveryWebhookUrl, kindOf, scopeOf } from './context';
import {
	DEFAULT_DEDUPE_WINDOW,
	DEFAULT_LIMITS,
	openDedupe,
	type DedupeLimits,
	type PendingId,
} from './dedupe';
import {
	buildItem,
	DEFAULT_EVENTS,
	isSelected,
	parseEnvelope,
	type KnolyxEnvelope,
} from './events';
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

interface TriggerOptions {
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

/**
 * 4. Was it seen already (the platform resends what it thinks was not confirmed).
 * A new id is taken for an execution (pending until n8n answers); a duplicate writes back
 * the ids a concurrent save dropped, so a restart or another process still knows them.
 */
interface Delivery {
	kind: RegistrationKind;
	scope: string;
	nowMs: number;
	options: TriggerOptions;
	/** Whether the static data in hand knows the registration (see checkToken). */
	writable: boolean;
}

function limitsOf(options: TriggerOptions): DedupeLimits {
	return {
		maxEntries: Math.max(0, Math.floor(options.dedupeWindow ?? DEFAULT_DEDUPE_WINDOW)),
		maxAgeMs: DEFAULT_LIMITS.maxAgeMs,
	};
}

type Seen =
	| {
			ok: true;
			pending: PendingId;
			/** After the answer: writes into this delivery's static data the ids accepted since (see settleOnAnswer). */
			catchUp: () => void;
	  }
	| { ok: false; response: IWebhookResponseData };

function takeNew(
	ctx: IWebhookFunctions,
	staticData: IDataObject,
	id: string,
	delivery: Delivery,
): Seen {
	const open = (nowMs: number) =>
		openDedupe(staticData, {
			scope: `${delivery.scope}|${delivery.kind}`,
			kind: delivery.kind,
			limits: limitsOf(delivery.options),
			nowMs,
			// Only static data that knows this registration is written: a copy that does
			// not (the creation PING racing n8n's save) would overwrite the newer one.
			writable: delivery.writable,
		});
	const dedupe = open(delivery.nowMs);
	const status = dedupe.status(id);
	if (status === 'seen') {
		ctx.logger.debug(`Knolyx Trigger: message ${id} was already handled; no new execution`);
		dedupe.repair();
		return {
			ok: false,
			response: { webhookResponse: { received: true, ignored: 'duplicate message' } },
		};
	}
	if (status === 'pending') {
		// The first delivery of this id is still waiting for n8n to create its execution: it
		// may yet fail, so this one is neither run nor acknowledged; the platform sends it again.
		ctx.logger.debug(
			`Knolyx Trigger: message ${id} arrived again while its execution is being created; answered 503 (send again)`,
		);
		ctx.getResponseObject().setHeader('Retry-After', '1');
		return {
			ok: false,
			response: reply(ctx, 503, {
				message: `Message ${id} is still being started; send it again`,
			}),
		};
	}
	return { ok: true, pending: dedupe.begin(id), catchUp: () => open(Date.now()).repair() };
}

/**
 * Settles a pending id by n8n's answer to its delivery: a 2xx means n8n holds the execution
 * (see emit), anything else that it does not. Read when the answer is ended, whether or not
 * the caller is still connected. `staticData`: this delivery's static data when it wrote the
 * seen id; it gets the ids this process accepted since it was read (`catchUp`: n8n saves it
 * after the answer, possibly long after it was read, over saves made meanwhile), and is marked
 * changed again at that moment, because n8n 2.x's WorkflowRunner, creating the
 * execution, builds a Workflow over it that resets n8n's changed flag, and n8n saves it after
 * the answer's end only when the flag is set (LiveWebhooks' response callback; the answer is a
 * Buffer so that n8n ends it before that callback: webhook-helpers' setupResponseNodePromise).
 */
function settleOnAnswer(
	ctx: IWebhookFunctions,
	pending: PendingId,
	catchUp: () => void,
	staticData: IDataObject | undefined,
): void {
	const res = ctx.getResponseObject() as ReturnType<IWebhookFunctions['getResponseObject']> & {
		end: (...args: unknown[]) => unknown;
	};
	const end = res.end;
	res.end = function (this: unknown, ...args: unknown[]) {
		res.end = end;
		const ran = res.statusCode >= 200 && res.statusCode < 300;
		pending.settle(ran);
		if (ran && staticData && staticData.seen !== undefined) {
			// The ids this process accepted while this delivery waited (n8n saves this copy last).
			catchUp();
			// Written again (the same value): n8n's proxy then marks the static data changed.
			const seen = staticData.seen;
			staticData.seen = seen;
		}
		return end.apply(this, args) as unknown;
	} as typeof res.end;
}

/**
 * 5. One item per event, answered only once n8n holds its execution. The node's webhook
 * answers through its execution (responseMode 'responseNode'): n8n creates the execution,
 * runs it, and its first step, the node's execute() (`acknowledge`), answers the platform
 * `{received: true}`. When n8n cannot create the execution (database locked, timing out,
 * restarting) it answers an error itself, on both lines, so the platform sends the message
 * again. n8n saves the static data changed above (the seen id) in that answer's callback,
 * and on an error not at all; the id counts as seen here once the answer is a 2xx.
 * (onReceived would not do: n8n 1.x answers it before creating the execution.)
 */
function emit(
	ctx: IWebhookFunctions,
	envelope: KnolyxEnvelope,
	options: TriggerOptions,
	nowMs: number,
	pending: PendingId,
	catchUp: () => void,
	/** The delivery's static data, when the seen id was written into it (see settleOnAnswer). */
	written: IDataObject | undefined,
): IWebhookResponseData {
	const item = buildItem(envelope, {
		raw: readTriggerSwitches(ctx.getNode(), options as IDataObject).raw,
		receivedAt: new Date(nowMs).toISOString(),
	});
	settleOnAnswer(ctx, pending, catchUp, written);
	return { workflowData: [ctx.helpers.returnJsonArray([item])] };
}

/** What the platform is answered once the execution runs (see emit). */
export const ACKNOWLEDGEMENT = { received: true };

/**
 * The first step of an execution the webhook started (the node's execute()): answers the
 * delivery, now that n8n holds the execution, and passes the items on unchanged. In an
 * execution n8n did not start from a delivery (none waits for an answer) the answer goes
 * nowhere.
 */
export async function acknowledge(ctx: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	// As bytes: n8n ends such an answer before it saves the delivery's static data (settleOnAnswer).
	await ctx.sendResponse({
		body: Buffer.from(JSON.stringify(ACKNOWLEDGEMENT)),
		headers: { 'content-type': 'application/json; charset=utf-8' },
		statusCode: 200,
	});
	return [items];
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
