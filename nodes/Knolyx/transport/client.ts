import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Endpoint } from './catalogue';
import { pathOf, subjectOf } from './catalogue';
import type { CredentialReading } from './credential';
import { CREDENTIAL_TYPE, readCredential } from './credential';
import type { RawAnswer } from './decode';
import { decodeAnswer, errorBodyOf } from './decode';
import type { RequestSubject } from './errors';
import { apiError, asNodeError, networkError, networkErrorCode, seconds } from './errors';
import type { Http } from './exchange';
import { exchange } from './exchange';
import type { Outcome, Passed } from './limiter';
import { AdaptiveLimiter } from './limiter';
import type { RetryPolicy } from './retry';
import {
	AMBIGUOUS_STATUSES,
	backoff,
	DEFAULT_RETRY,
	parseRetryAfter,
	RETRIED_STATUSES,
	THROTTLE_STATUSES,
} from './retry';
import { joinUrl } from './url';
import type { Redactor } from '../helpers/redact';
import { redactorOf } from '../helpers/redact';

export { CREDENTIAL_TYPE };

export type KnolyxContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

/** A call as the retry loop sends it: the endpoint, its path filled in, what a failure is about. */
interface KnolyxRequest {
	method: IHttpRequestMethods;
	/** Path below /public/api/v1, every value encoded (`pathOf`). */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** For the error message: what a 404 means and which permission a 403 lacks (`subjectOf`). */
	subject: RequestSubject;
	itemIndex?: number;
	/** Its entry in the catalogue decides whether it may be sent again and how the answer is read. */
	endpoint: Endpoint;
	/** Statuses returned to the caller instead of thrown (e.g. 409 "already attending"). */
	acceptStatuses?: number[];
}

export interface KnolyxResponse<T = unknown> {
	statusCode: number;
	body: T;
	headers: Record<string, unknown>;
	/** How many attempts it took (1 = first try). */
	attempts: number;
	/**
	 * An idempotent DELETE whose earlier attempt lost its answer and whose retry answered 404:
	 * the earlier attempt did it. The body is then empty.
	 */
	alreadyDone?: boolean;
}

/** Options of a call to a catalogue endpoint. */
export interface CallOptions {
	/** Values of the path's placeholders. */
	params?: Record<string, string | number>;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	itemIndex?: number;
	acceptStatuses?: number[];
	/** Overrides of the catalogue's 404 text or permission, and a 403 reason. */
	subject?: RequestSubject;
}

/** Options of a paged read of a catalogue endpoint (`readPages`): all pages, or up to `limit` items. */
export interface PagedCallOptions extends Omit<CallOptions, 'body' | 'acceptStatuses'> {
	returnAll: boolean;
	limit?: number;
}

/**
 * The one place that talks HTTP to Knolyx: a call and its retries. Every request goes through
 * n8n's `httpRequestWithAuthentication` with the `knolyxApi` credential (exchange.ts) and shares
 * one adaptive limiter per node run. Retries (backoff, Retry-After honoured up to the policy's
 * total wait):
 * - 429: always (the platform refused it, nothing was applied);
 * - 502/503/504 and lost connections: only for requests the catalogue says may be sent again;
 *   for the others the doubt is handed back to the caller, which reads before deciding.
 */
export class KnolyxClient {
	/** The credential as read by the first call that got it (`credential.ts`). */
	private reading: CredentialReading | undefined;

	readonly limiter: AdaptiveLimiter;

	readonly policy: RetryPolicy;

	/** The node's credential, read once per run by the caller: n8n loads and decrypts it on every read. */
	private readonly credentials: ICredentialsDecrypted | undefined;

	private readonly http: Http;

	constructor(
		private readonly ctx: KnolyxContext,
		options: {
			limiter?: AdaptiveLimiter;
			policy?: Partial<RetryPolicy>;
			credentials?: ICredentialsDecrypted;
		} = {},
	) {
		this.credentials = options.credentials;
		this.limiter = options.limiter ?? new AdaptiveLimiter();
		this.policy = { ...DEFAULT_RETRY, ...options.policy };
		const decrypted = this.credentials && { credentialsDecrypted: this.credentials };
		this.http = {
			authenticated: async (request: IHttpRequestOptions) =>
				await ctx.helpers.httpRequestWithAuthentication.call(
					ctx,
					CREDENTIAL_TYPE,
					request,
					decrypted,
				),
			plain: async (request: IHttpRequestOptions) => await ctx.helpers.httpRequest(request),
		};
	}

	get node(): INode {
		return this.ctx.getNode();
	}

	/** The credential's base URL, scope and key; a base URL in error fails each call anew. */
	private async credentialReading(): Promise<CredentialReading> {
		this.reading ??= await readCredential(
			this.node,
			this.credentials,
			async () => await this.ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE),
		);
		return this.reading;
	}

	/**
	 * The platform and project the credential works on: what state shared across runs (a lock
	 * of a course's rules) is keyed by.
	 */
	async credentialScope(): Promise<string> {
		return (await this.credentialReading()).scope;
	}

	/** The redactor of the reading it was built for: built once per credential reading. */
	private built?: { reading: CredentialReading | undefined; redactor: Redactor };

	/** The one redactor of the credential's secrets (helpers/redact.ts); none before it is read. */
	private redactor(): Redactor {
		if (!this.built || this.built.reading !== this.reading)
			this.built = { reading: this.reading, redactor: redactorOf(this.reading?.secrets ?? []) };
		return this.built.redactor;
	}

	/**
	 * A request to an endpoint of the catalogue. Every error it ends in passes through the
	 * redactor whole (its answer was cleaned already: request).
	 */
	async call<T = unknown>(
		endpoint: Endpoint,
		options: CallOptions = {},
	): Promise<KnolyxResponse<T>> {
		try {
			return await this.request<T>({
				method: endpoint.method,
				path: pathOf(endpoint, options.params),
				qs: options.qs,
				body: options.body,
				endpoint,
				itemIndex: options.itemIndex,
				acceptStatuses: options.acceptStatuses,
				subject: subjectOf(endpoint, options.params, options.subject),
			});
		} catch (error) {
			throw this.redactor().error(error);
		}
	}

	private async request<T>(request: KnolyxRequest): Promise<KnolyxResponse<T>> {
		const { policy } = this;
		const { endpoint, subject } = request;
		const mayResend = endpoint.resend === 'yes';
		let waited = 0;
		/** Whether an earlier attempt may have been applied without us seeing the answer. */
		let unsure = false;
		for (let attempt = 1; ; attempt++) {
			let passed: Passed<RawAnswer> | undefined;
			let failure: Error | undefined;
			try {
				const { baseUrl } = await this.credentialReading();
				const outgoing = {
					method: request.method,
					url: joinUrl(baseUrl, request.path),
					qs: request.qs,
					body: request.body,
					format: endpoint.answer,
					itemIndex: request.itemIndex,
				};
				passed = await this.limiter.run(
					async () => await exchange(this.node, this.http, outgoing, policy.timeoutMs),
				);
			} catch (error) {
				if (!networkErrorCode(error)) throw asNodeError(this.node, error, request.itemIndex);
				failure = error as Error;
			}

			let delay: number;
			if (passed) {
				// The secrets out of the answer before anything reads it: its data, its errors.
				const redactor = this.redactor();
				const response = redactor.answer(passed.result);
				const { report } = passed;
				const status = response.statusCode;
				const ok = status >= 200 && status < 300;
				const done = (extra: Partial<KnolyxResponse<T>> = {}): KnolyxResponse<T> => ({
					statusCode: status,
					body: extra.body as T,
					headers: response.headers,
					attempts: attempt,
					...(extra.alreadyDone ? { alreadyDone: true } : {}),
				});
				if (ok || request.acceptStatuses?.includes(status)) {
					report({ kind: 'good' });
					const body = decodeAnswer(this.node, response, endpoint, request);
					return done({ body: redactor.decoded(response, body) as T });
				}
				if (status === 404 && unsure && endpoint.goneMeansDone) {
					// The attempt whose answer was lost removed it.
					report({ kind: 'good' });
					return done({ body: {} as T, alreadyDone: true });
				}
				/** What the limiter learns from this failed answer, given the wait before it is sent again. */
				const outcome = (waitMs: number): Outcome =>
					THROTTLE_STATUSES.has(status)
						? { kind: 'throttled', waitMs, rateLimited: status === 429 }
						: { kind: 'other' };
				const errorBody = redactor.value(errorBodyOf(response, endpoint.answer));
				const fail = () => apiError(this.node, status, errorBody, subject, request.itemIndex);
				const retried =
					RETRIED_STATUSES.has(status) && (mayResend || !AMBIGUOUS_STATUSES.has(status));
				if (!retried) {
					report(outcome(0));
					throw fail();
				}
				if (AMBIGUOUS_STATUSES.has(status)) unsure = true;
				const retryAfter = parseRetryAfter(response.headers['retry-after']);
				const budget = policy.maxTotalWaitMs - waited;
				if (retryAfter !== undefined && retryAfter > budget) {
					// Waiting as told would hold this item (and, through the shared pause, every
					// other) past what the node waits at all: fail it now, let the others go on.
					report(outcome(0));
					throw apiError(this.node, status, errorBody, subject, request.itemIndex, {
						waitTooLong: `Knolyx asked to wait ${seconds(retryAfter)} before retrying (Retry-After), longer than the node waits for one item (${seconds(policy.maxTotalWaitMs)})`,
					});
				}
				delay = retryAfter || backoff(attempt, policy);
				report(outcome(delay));
				if (attempt >= policy.maxAttempts || waited + delay > policy.maxTotalWaitMs) throw fail();
			} else {
				const error = failure as Error;
				if (!mayResend || attempt >= policy.maxAttempts) {
					throw networkError(this.node, error, policy.timeoutMs, request.itemIndex);
				}
				unsure = true;
				delay = backoff(attempt, policy);
				if (waited + delay > policy.maxTotalWaitMs)
					throw networkError(this.node, error, policy.timeoutMs, request.itemIndex);
			}
			waited += delay;
			// A throttle already paused the limiter; sleeping here as well keeps this
			// request from jumping the queue of those waiting for the same pause.
			await sleep(delay);
		}
	}
}
