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
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import { createHash } from 'node:crypto';

import type { Endpoint } from './catalogue';
import { endpointOf, notFoundOf, pathOf } from './catalogue';
import type { RequestSubject } from './errors';
import {
	answerTooLarge,
	apiError,
	asNodeError,
	networkError,
	networkErrorCode,
	notAList,
	redirectRefused,
	wrongBaseUrl,
} from './errors';
import {
	beforeDeadline,
	deadline,
	discardBody,
	jsonOrText,
	MAX_FILE_BYTES,
	MAX_JSON_BYTES,
	MAX_REDIRECTS,
	mebibytes,
	readBody,
	redirectTarget,
} from './answer';
import { fileOf } from './file';
import { parseLossless, stringifyLossless } from './json';
import { AdaptiveLimiter, MAX_PAUSE_MS } from './limiter';
import { redactDeep } from '../helpers/redact';

export type KnolyxContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

export const API_PREFIX = '/public/api/v1';
export const CREDENTIAL_TYPE = 'knolyxApi';
/** The largest page the platform is known to serve; larger requests may be clamped. */
const MAX_PAGE_SIZE = 100;

/** Joins the credential's base URL and an API path; tolerates trailing slashes and tenant URLs. */
function joinUrl(baseUrl: string, path: string): string {
	const base = baseUrl.trim().replace(/\/+$/, '');
	return `${base}${API_PREFIX}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * Why a base URL cannot be the Knolyx API's, or undefined when it can be: a query or a
 * fragment would swallow every API path appended to it (the request would reach the web app or
 * a 404 blaming an id). Surrounding spaces are fine.
 */
function baseUrlProblem(baseUrl: string): string | undefined {
	const text = baseUrl.trim();
	if (text === '') return 'is empty';
	if (/[?#]/.test(text)) {
		return 'must not contain a query (?…) or a fragment (#…); use the address alone, e.g. https://api.knolyx.com or https://{tenant}.knolyx.com/api';
	}
	try {
		const url = new URL(text);
		if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https://';
	} catch {
		return 'is not a valid URL; use e.g. https://api.knolyx.com';
	}
	return undefined;
}

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

/**
 * A request the platform may or may not have applied: the connection was lost before the
 * answer, or the answer was a 5xx (a gateway's 502/503/504, or a failure after the write).
 * Only a read can tell.
 */
export function outcomeUnknown(error: unknown): boolean {
	if (networkErrorCode(error)) return true;
	const status = Number((error as { httpCode?: unknown } | undefined)?.httpCode);
	return status >= 500 && status < 600;
}

export interface RetryPolicy {
	maxAttempts: number;
	/** Give up when the next wait would push the total waiting past this. */
	maxTotalWaitMs: number;
	baseDelayMs: number;
	maxDelayMs: number;
	timeoutMs: number;
}

const DEFAULT_RETRY: RetryPolicy = {
	maxAttempts: 8,
	maxTotalWaitMs: MAX_PAUSE_MS,
	baseDelayMs: 250,
	maxDelayMs: 15_000,
	timeoutMs: 30_000,
};

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);
const THROTTLE_STATUSES = new Set([429, 503]);
/** Answers of a gateway in front of the platform: the request may have been applied behind it. */
const AMBIGUOUS_STATUSES = new Set([502, 503, 504]);
/** Return All gives up after this many pages even when no page repeats. */
const MAX_PAGES = 10_000;

/**
 * Parses Retry-After: whole seconds or an HTTP date (0 when in the past). Undefined when
 * absent, malformed or negative. Anything but a positive wait gets the normal backoff.
 */
function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	const raw = String(text).trim();
	if (/^[+-]?\d+(\.\d+)?$/.test(raw)) {
		const ms = Math.round(Number(raw) * 1000);
		return ms > 0 ? ms : undefined;
	}
	// An HTTP date names a weekday and a month; Date.parse alone would read "-5" as a year.
	if (!/[a-z]{3}/i.test(raw)) return undefined;
	const date = Date.parse(raw);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

function backoff(attempt: number, policy: RetryPolicy): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
	// "Equal jitter": at least half the ceiling, so retries spread but never hammer.
	return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
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

/** An error answer read as text or bytes (lossless and binary endpoints): its JSON when it is JSON. */
function answerText(body: unknown): unknown {
	const text = Buffer.isBuffer(body) ? body.toString('utf8') : body instanceof ArrayBuffer ? Buffer.from(body).toString('utf8') : body;
	if (typeof text !== 'string' || !/^\s*[[{]/.test(text)) return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** Seconds, for messages. */
function seconds(ms: number): string {
	return ms >= 3_600_000 ? `${Math.round(ms / 3_600_000)} h` : `${Math.round(ms / 1000)} s`;
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
		options: { limiter?: AdaptiveLimiter; policy?: Partial<RetryPolicy>; credentials?: ICredentialsDecrypted } = {},
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
				this.credentials?.data ?? (await this.ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE));
			const baseUrl = String(credentials.baseUrl ?? '');
			const problem = baseUrlProblem(baseUrl);
			if (problem) {
				throw new NodeOperationError(this.node, `Base URL of the Knolyx API credential ${problem}`, {
					description: `The credential's Base URL is "${baseUrl.trim().slice(0, 120)}". Fix it in the credential, then run again.`,
				});
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
			const response = (await beforeDeadline(limit, exchange as Promise<RawResponse>, (late) => discardBody(late.body))) as RawResponse;
			const target = redirectTarget(response.statusCode, response.headers, String(options.url));
			if (!target) return await this.readWhole(response, endpoint, request, limit);
			discardBody(response.body);
			const status = response.statusCode;
			if (hop >= MAX_REDIRECTS) throw redirectRefused(this.node, status, target, 'tooMany', request.itemIndex, MAX_REDIRECTS);
			if (withCredential && target.origin !== origin) {
				if (endpoint.answer !== 'binary') throw redirectRefused(this.node, status, target, 'otherOrigin', request.itemIndex);
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
		if ('lost' in read) throw networkError(this.node, read.lost, request.itemIndex);
		if ('tooLarge' in read) {
			const { bytes, limit: most, announced } = read.tooLarge;
			const size = { bytes: mebibytes(bytes), limit: mebibytes(most), announced };
			throw answerTooLarge(this.node, response.statusCode, size, endpoint.answer === 'binary' ? 'file' : 'json', request.itemIndex);
		}
		const { bytes } = read;
		let body: unknown = bytes;
		if (endpoint.answer === 'lossless') body = bytes.toString('utf8');
		else if (endpoint.answer === 'json') body = jsonOrText(bytes.toString('utf8'));
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
		const { body } = response;
		if (endpoint.answer === 'binary') return fileOf(response);
		if (typeof body !== 'string') return body;
		const text = body.trim();
		const type = contentType(response.headers);
		if (text === '') return endpoint.answer === 'lossless' ? undefined : body;
		if (endpoint.answer === 'lossless' && (type.includes('json') || /^[[{]/.test(text))) {
			try {
				return parseLossless(text);
			} catch {
				// Not JSON after all: refused below.
			}
		} else if (endpoint.answer === 'json' && type.includes('json')) {
			// A JSON string literal.
			return body;
		}
		throw wrongBaseUrl(this.node, response.statusCode, type, text, request.itemIndex);
	}

	/** A request to an endpoint of the catalogue. */
	async call<T = unknown>(endpoint: Endpoint, options: CallOptions = {}): Promise<KnolyxResponse<T>> {
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
				if ((status >= 200 && status < 300) || request.acceptStatuses?.includes(status)) {
					this.limiter.onSuccess();
					const body = this.read(response, endpoint, request) as T;
					return { statusCode: status, body, headers: response.headers ?? {}, attempts: attempt };
				}
				if (status === 404 && unsure && endpoint.goneMeansDone) {
					// The attempt whose answer was lost removed it.
					this.limiter.onSuccess();
					return { statusCode: status, body: {} as T, headers: response.headers ?? {}, attempts: attempt, alreadyDone: true };
				}
				const errorBody = redactDeep(answerText(response.body), this.secrets);
				const fail = () => apiError(this.node, status, errorBody, request.subject ?? {}, request.itemIndex);
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
					throw networkError(this.node, error, request.itemIndex);
				}
				unsure = true;
				delay = backoff(attempt, policy);
				if (waited + delay > policy.maxTotalWaitMs) throw networkError(this.node, error, request.itemIndex);
			}
			waited += delay;
			// A throttle already paused the limiter; sleeping here as well keeps this
			// request from jumping the queue of those waiting for the same pause.
			await sleep(delay);
		}
	}

	/**
	 * Reads a paged list from an endpoint of the catalogue (`pagination.page` zero-based,
	 * `pagination.size`).
	 * Stops at an empty page, at a page shorter than the longest seen (a server
	 * may clamp the size below what was asked), or when `limit` items are collected.
	 * A page equal to one already read is an error (the server ignores the page number and
	 * the list would never end), except a short first page served again: a list that is
	 * not paged at all, read whole.
	 */
	async callPaged<T = IDataObject>(endpoint: Endpoint, options: PagedCallOptions): Promise<T[]> {
		const path = pathOf(endpoint, options.params);
		const subject: RequestSubject = {
			notFound: notFoundOf(endpoint, options.params),
			permission: endpoint.permission,
			...options.subject,
		};
		const wanted = options.returnAll ? Infinity : Math.max(0, options.limit ?? 50);
		const size = Math.min(MAX_PAGE_SIZE, Number.isFinite(wanted) ? Math.max(1, wanted) : MAX_PAGE_SIZE);
		const results: T[] = [];
		let longest = 0;
		const seen = new Map<string, number>();
		for (let page = 0; results.length < wanted; page++) {
			if (page >= MAX_PAGES) throw this.endlessList(path, `read ${MAX_PAGES} pages without reaching the end`, options.itemIndex);
			const { body, statusCode } = await this.request<unknown>({
				method: endpoint.method,
				path,
				qs: { ...options.qs, 'pagination.page': page, 'pagination.size': size },
				endpoint,
				subject,
				itemIndex: options.itemIndex,
			});
			const pageOf = pageItems<T>(body);
			if (!pageOf) throw notAList(this.node, statusCode, body, options.itemIndex);
			const { items, last } = pageOf;
			if (items.length === 0) break;
			const signature = createHash('sha1').update(JSON.stringify(items)).digest('base64');
			const earlier = seen.get(signature);
			if (earlier !== undefined) {
				if (earlier === 0 && page === 1 && items.length < size) break;
				throw this.endlessList(path, `page ${page} repeats page ${earlier}`, options.itemIndex);
			}
			seen.set(signature, page);
			results.push(...items);
			longest = Math.max(longest, items.length);
			if (last || items.length < longest) break;
		}
		return results.slice(0, wanted);
	}

	private endlessList(path: string, what: string, itemIndex?: number): NodeApiError {
		return new NodeApiError(
			this.node,
			{ message: what },
			{
				message: `Knolyx: the list ${path} does not end: ${what} [200]`,
				description:
					'The platform seems to ignore the page number, so reading every page would never stop. Use Limit instead of Return All, or report it to Knolyx.',
				itemIndex,
			},
		);
	}
}

/**
 * A page may be a plain array or a Spring-style page object `{ content, last }`; anything else
 * (an object of another shape, null, text) is no page: undefined.
 */
function pageItems<T>(body: unknown): { items: T[]; last: boolean } | undefined {
	if (Array.isArray(body)) return { items: body as T[], last: false };
	if (body && typeof body === 'object') {
		const record = body as IDataObject;
		for (const key of ['content', 'items', 'data', 'results']) {
			if (Array.isArray(record[key])) return { items: record[key] as T[], last: record.last === true };
		}
	}
	return undefined;
}

export { AdaptiveLimiter } from './limiter';
export { ENDPOINTS, endpointOf } from './catalogue';
export type { Endpoint, EndpointName } from './catalogue';
export type { RequestSubject, KnolyxPermission } from './errors';
export type { KnolyxFile } from './file';
