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
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { AnswerShape, Endpoint } from './catalogue';
import { endpointOf, notFoundOf, pathOf } from './catalogue';
import type { RequestSubject } from './errors';
import {
	answerTooLarge,
	apiError,
	asNodeError,
	networkError,
	networkErrorCode,
	oddAnswer,
	redirectRefused,
	seconds,
	wrongBaseUrl,
} from './errors';
import {
	beforeDeadline,
	deadline,
	discardBody,
	MAX_FILE_BYTES,
	MAX_JSON_BYTES,
	MAX_REDIRECTS,
	mebibytes,
	readBody,
	redirectTarget,
} from './answer';
import { fileOf } from './file';
import { JsonTooDeepError, parseJson, parseLossless, stringifyLossless } from '../helpers/json';
import { AdaptiveLimiter } from './limiter';
import { pageItems, readPages } from './paging';
import type { RetryPolicy } from './retry';
import {
	AMBIGUOUS_STATUSES,
	backoff,
	DEFAULT_RETRY,
	parseRetryAfter,
	RETRIED_STATUSES,
	THROTTLE_STATUSES,
} from './retry';
import { baseUrlProblem, joinUrl } from './url';
import { isRecord } from '../helpers/objects';
import { redactDeep } from '../helpers/redact';

export type KnolyxContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

export const CREDENTIAL_TYPE = 'knolyxApi';

export interface KnolyxRequest {
	method: IHttpRequestMethods;
	/** Path below /public/api/v1, every value encoded (`pathOf`). */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** For the error message: what a 404 means and which permission a 403 lacks. */
	subject?: RequestSubject;
	itemIndex?: number;
	/**
	 * The endpoint called; found from method and path when not given. Its entry in the
	 * catalogue decides whether the request may be sent again after a lost answer and how the
	 * answer is read.
	 */
	endpoint?: Endpoint;
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

/** Options of a paged read of a catalogue endpoint: all pages, or up to `limit` items. */
export interface PagedCallOptions extends Omit<CallOptions, 'body' | 'acceptStatuses'> {
	returnAll: boolean;
	limit?: number;
}

interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

function contentType(headers: Record<string, unknown> | undefined): string {
	const value = headers?.['content-type'];
	return typeof value === 'string' ? value.toLowerCase() : '';
}

/**
 * An error answer: its JSON when it is JSON (any JSON for a JSON endpoint, an object or a list
 * for the others), else its text (also when it is nested deeper than the node reads).
 */
function answerText(body: unknown, anyJson: boolean): unknown {
	const text = Buffer.isBuffer(body)
		? body.toString('utf8')
		: body instanceof ArrayBuffer
			? Buffer.from(body).toString('utf8')
			: body;
	if (typeof text !== 'string' || (!anyJson && !/^\s*[[{]/.test(text))) return text;
	try {
		return parseJson(text);
	} catch {
		return text;
	}
}

/**
 * A 2xx answer nested deeper than MAX_JSON_DEPTH: no answer of the API is, and an item built from
 * it could be neither copied nor stored by n8n ("Maximum call stack size exceeded").
 */
function answerTooDeep(
	node: INode,
	request: KnolyxRequest,
	status: number,
	error: JsonTooDeepError,
	length: number,
): NodeApiError {
	return new NodeApiError(node, { message: 'answer nested too deep' } as JsonObject, {
		message: `Knolyx answered ${request.method} ${request.path} with JSON nested more than ${error.limit} levels deep [${status}]`,
		description: `The answer (${length} characters) passes ${error.limit} levels at character ${error.position}; no answer of the Knolyx API is nested deeper than a few levels, so nothing of it was read or output.`,
		httpCode: String(status),
		itemIndex: request.itemIndex,
	});
}

/** Whether a 2xx body has the shape the catalogue says the endpoint's answers have. */
function hasShape(body: unknown, shape: AnswerShape): boolean {
	if (shape === 'object') return isRecord(body);
	if (shape === 'list') return Array.isArray(body);
	return pageItems(body) !== undefined;
}

/**
 * The one place that talks HTTP to Knolyx. Every request goes through n8n's
 * `httpRequestWithAuthentication` with the `knolyxApi` credential and shares one adaptive
 * limiter per node run. Retries (backoff, Retry-After honoured up to the policy's total wait):
 * - 429: always (the platform refused it, nothing was applied);
 * - 502/503/504 and lost connections: only for requests the catalogue says may be sent again;
 *   for the others the doubt is handed back to the caller, which reads before deciding.
 */
export class KnolyxClient {
	private baseUrl: string | undefined;

	/** Platform and project of the credential, see `credentialScope`. */
	private scope = '';

	/** The credential's API key: taken out of any error answer that echoes it back. */
	private secrets: string[] = [];

	readonly limiter: AdaptiveLimiter;

	readonly policy: RetryPolicy;

	/** The node's credential, read once per run by the caller: n8n loads and decrypts it on every read. */
	private readonly credentials: ICredentialsDecrypted | undefined;

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
	}

	get node(): INode {
		return this.ctx.getNode();
	}

	private async base(): Promise<string> {
		if (this.baseUrl === undefined) {
			const credentials =
				this.credentials?.data ??
				(await this.ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE));
			const baseUrl = String(credentials.baseUrl ?? '');
			const problem = baseUrlProblem(baseUrl);
			if (problem) {
				throw new NodeOperationError(
					this.node,
					`Base URL of the Knolyx API credential ${problem}`,
					{
						description: `The credential's Base URL is "${baseUrl.trim().slice(0, 120)}". Fix it in the credential, then run again.`,
					},
				);
			}
			this.baseUrl = baseUrl.trim();
			// "https://x/" and "https://x" are the same platform.
			this.scope = `${this.baseUrl.replace(/\/+$/, '').toLowerCase()}|${String(credentials.projectId)}`;
			const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
			if (apiKey.length >= 6) this.secrets = [apiKey];
		}
		return this.baseUrl;
	}

	private async send(request: KnolyxRequest, endpoint: Endpoint): Promise<RawResponse> {
		const url = joinUrl(await this.base(), request.path);
		const options: IHttpRequestOptions = {
			method: request.method,
			url,
			qs: request.qs,
			json: endpoint.answer !== 'binary',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: this.policy.timeoutMs,
			// Bodies are read here, not by the HTTP helper: within the deadline and the size
			// bound, long integers exact, a web page told apart from the API's JSON.
			encoding: 'stream',
			// The helper would send the credential's headers on to wherever a redirect points.
			disableFollowRedirect: true,
		};
		if (endpoint.answer === 'lossless' && request.body !== undefined) {
			options.body = stringifyLossless(request.body);
			options.headers = { 'Content-Type': 'application/json' };
		} else if (Array.isArray(request.body) && request.body.length === 0) {
			// n8n's HTTP helper silently drops an empty array or object body; the empty rule
			// list (delete the last rule, Replace All with Allow Empty List) must still be sent.
			options.body = '[]';
			options.headers = { 'Content-Type': 'application/json' };
		} else if (request.body !== undefined) {
			options.body = request.body;
		}
		const limit = deadline(this.policy.timeoutMs);
		const origin = new URL(url).origin;
		/** False once a file download left the base URL's origin: the credential stays behind. */
		let withCredential = true;
		for (let hop = 0; ; hop++) {
			const exchange = withCredential
				? this.ctx.helpers.httpRequestWithAuthentication.call(
						this.ctx,
						CREDENTIAL_TYPE,
						options,
						this.credentials && { credentialsDecrypted: this.credentials },
					)
				: this.ctx.helpers.httpRequest(options);
			const response = (await beforeDeadline(limit, exchange as Promise<RawResponse>, (late) =>
				discardBody(late.body),
			)) as RawResponse;
			const target = redirectTarget(response.statusCode, response.headers, String(options.url));
			if (!target) return await this.readWhole(response, endpoint, request, limit);
			discardBody(response.body);
			const status = response.statusCode;
			if (hop >= MAX_REDIRECTS)
				throw redirectRefused(
					this.node,
					status,
					target,
					'tooMany',
					request.itemIndex,
					MAX_REDIRECTS,
				);
			if (withCredential && target.origin !== origin) {
				if (endpoint.answer !== 'binary')
					throw redirectRefused(this.node, status, target, 'otherOrigin', request.itemIndex);
				// A file may live elsewhere (a CDN): fetched there without the credential.
				withCredential = false;
				options.headers = {};
			}
			if (request.method !== 'GET' && status !== 307 && status !== 308) {
				throw redirectRefused(this.node, status, target, 'changesMethod', request.itemIndex);
			}
			options.url = target.href;
			// The address a redirect gives carries its own query.
			delete options.qs;
		}
	}

	/** A final answer with its body read whole (within the deadline and the size bound), as the endpoint reads it. */
	private async readWhole(
		response: RawResponse,
		endpoint: Endpoint,
		request: KnolyxRequest,
		limit: ReturnType<typeof deadline>,
	): Promise<RawResponse> {
		const maxBytes = endpoint.answer === 'binary' ? MAX_FILE_BYTES : MAX_JSON_BYTES;
		const read = await readBody(response.body, response.headers, maxBytes, limit);
		if ('lost' in read)
			throw networkError(this.node, read.lost, this.policy.timeoutMs, request.itemIndex);
		if ('tooLarge' in read) {
			const { bytes, limit: most, announced } = read.tooLarge;
			const size = { bytes: mebibytes(bytes), limit: mebibytes(most), announced };
			throw answerTooLarge(
				this.node,
				response.statusCode,
				size,
				endpoint.answer === 'binary' ? 'file' : 'json',
				request.itemIndex,
			);
		}
		const { bytes } = read;
		// JSON is read as text here, and parsed once its status says how (read, answerText).
		const body: unknown = endpoint.answer === 'binary' ? bytes : bytes.toString('utf8');
		return { statusCode: response.statusCode, headers: response.headers ?? {}, body };
	}

	/**
	 * The platform and project the credential works on: what state shared across runs (a lock
	 * of a course's rules) is keyed by.
	 */
	async credentialScope(): Promise<string> {
		await this.base();
		return this.scope;
	}

	/** The body of an answer as the endpoint's format says; a web page where JSON was due is an error. */
	private read(response: RawResponse, endpoint: Endpoint, request: KnolyxRequest): unknown {
		if (endpoint.answer === 'binary') return fileOf(response);
		let { body } = response;
		if (endpoint.answer === 'json' && typeof body === 'string') {
			const answer = body;
			// Parsed when it parses, else the text (as n8n's helper gives it): refused below.
			try {
				body = parseJson(answer);
			} catch (error) {
				if (error instanceof JsonTooDeepError)
					throw answerTooDeep(this.node, request, response.statusCode, error, answer.length);
			}
		}
		if (typeof body !== 'string') return body;
		const text = body.trim();
		const type = contentType(response.headers);
		if (text === '') return endpoint.answer === 'lossless' ? undefined : body;
		if (endpoint.answer === 'lossless' && (type.includes('json') || /^[[{]/.test(text))) {
			try {
				return parseLossless(text);
			} catch (error) {
				if (error instanceof JsonTooDeepError)
					throw answerTooDeep(this.node, request, response.statusCode, error, text.length);
				// Not JSON after all: refused below.
			}
		} else if (endpoint.answer === 'json' && type.includes('json')) {
			// A JSON string literal.
			return body;
		}
		throw wrongBaseUrl(this.node, response.statusCode, type, text, request.itemIndex);
	}

	/** A request to an endpoint of the catalogue. */
	async call<T = unknown>(
		endpoint: Endpoint,
		options: CallOptions = {},
	): Promise<KnolyxResponse<T>> {
		return await this.request<T>({
			method: endpoint.method,
			path: pathOf(endpoint, options.params),
			qs: options.qs,
			body: options.body,
			endpoint,
			itemIndex: options.itemIndex,
			acceptStatuses: options.acceptStatuses,
			subject: {
				notFound: notFoundOf(endpoint, options.params),
				permission: endpoint.permission,
				...options.subject,
			},
		});
	}

	async request<T = unknown>(request: KnolyxRequest): Promise<KnolyxResponse<T>> {
		const policy = this.policy;
		const endpoint = request.endpoint ?? endpointOf(request.method, request.path);
		const mayResend = endpoint.resend === 'yes';
		let waited = 0;
		/** Whether an earlier attempt may have been applied without us seeing the answer. */
		let unsure = false;
		for (let attempt = 1; ; attempt++) {
			let response: RawResponse | undefined;
			let failure: Error | undefined;
			try {
				response = await this.limiter.run(async () => await this.send(request, endpoint));
			} catch (error) {
				if (!networkErrorCode(error)) throw asNodeError(this.node, error, request.itemIndex);
				failure = error as Error;
			}

			let delay: number;
			if (response) {
				const status = response.statusCode;
				const ok = status >= 200 && status < 300;
				if (ok || request.acceptStatuses?.includes(status)) {
					this.limiter.onSuccess();
					const body = this.read(response, endpoint, request);
					if (ok && endpoint.shape && !hasShape(body, endpoint.shape)) {
						const shape = endpoint.shape === 'object' ? 'object' : 'list';
						throw oddAnswer(this.node, shape, status, body, request.itemIndex);
					}
					return {
						statusCode: status,
						body: body as T,
						headers: response.headers ?? {},
						attempts: attempt,
					};
				}
				if (status === 404 && unsure && endpoint.goneMeansDone) {
					// The attempt whose answer was lost removed it.
					this.limiter.onSuccess();
					return {
						statusCode: status,
						body: {} as T,
						headers: response.headers ?? {},
						attempts: attempt,
						alreadyDone: true,
					};
				}
				const errorBody = redactDeep(
					answerText(response.body, endpoint.answer === 'json'),
					this.secrets,
				);
				const fail = () =>
					apiError(this.node, status, errorBody, request.subject ?? {}, request.itemIndex);
				if (!RETRIED_STATUSES.has(status)) throw fail();
				if (AMBIGUOUS_STATUSES.has(status)) {
					if (!mayResend) throw fail();
					unsure = true;
				}
				const retryAfter = parseRetryAfter(response.headers?.['retry-after']);
				const budget = policy.maxTotalWaitMs - waited;
				if (retryAfter !== undefined && retryAfter > budget) {
					// Waiting as told would hold this item (and, through the shared pause, every
					// other) past what the node waits at all: fail it now, let the others go on.
					if (THROTTLE_STATUSES.has(status)) this.limiter.onThrottle(0, status === 429);
					throw apiError(this.node, status, errorBody, request.subject ?? {}, request.itemIndex, {
						waitTooLong: `Knolyx asked to wait ${seconds(retryAfter)} before retrying (Retry-After), longer than the node waits for one item (${seconds(policy.maxTotalWaitMs)})`,
					});
				}
				delay = retryAfter || backoff(attempt, policy);
				if (THROTTLE_STATUSES.has(status)) this.limiter.onThrottle(delay, status === 429);
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

	/**
	 * Reads a paged list from an endpoint of the catalogue: all pages, or up to `limit` items
	 * (transport/paging.ts).
	 */
	async callPaged<T = IDataObject>(endpoint: Endpoint, options: PagedCallOptions): Promise<T[]> {
		return await readPages<T>(this, endpoint, options);
	}
}
