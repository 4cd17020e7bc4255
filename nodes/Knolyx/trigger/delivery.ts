/**
 * A new delivery's last two steps (see receive.ts): whether its id was seen (takeNew), and its
 * item for the workflow (emit), answered only once n8n holds the execution (acknowledge, the
 * node's execute()); the id counts as seen once that answer is a 2xx (settleOnAnswer).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import {
	carryAcceptedIds,
	DEFAULT_DEDUPE_WINDOW,
	DEFAULT_LIMITS,
	openDedupe,
	type DedupeLimits,
	type PendingId,
} from './dedupe';
import { kindOf, scopeOf } from './context';
import { buildItem, type KnolyxEnvelope } from './events';
import { readTriggerSwitches } from './options';
import type { RegistrationKind } from './registrations';

export interface TriggerOptions {
	dedupeWindow?: number;
	rawEnvelope?: boolean;
	pingInTest?: boolean;
}

/** Answers the platform here and now, starting no execution. */
export function reply(
	ctx: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	const res = ctx.getResponseObject();
	res.status(status).json(body);
	return { noWebhookResponse: true };
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

export function takeNew(
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
export function emit(
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
	const kind = kindOf(ctx);
	if (kind === 'production') {
		// n8n may save this execution's copy of the static data at its end (see carryAcceptedIds).
		const options = ctx.getNodeParameter('options', 0, {}) as TriggerOptions;
		carryAcceptedIds(ctx.getWorkflowStaticData('node'), {
			scope: `${scopeOf(ctx)}|${kind}`,
			kind,
			limits: limitsOf(options),
		});
	}
	// As bytes: n8n ends such an answer before it saves the delivery's static data (settleOnAnswer).
	await ctx.sendResponse({
		body: Buffer.from(JSON.stringify(ACKNOWLEDGEMENT)),
		headers: { 'content-type': 'application/json; charset=utf-8' },
		statusCode: 200,
	});
	return [items];
}
