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
	IWebhookFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { RequestSubject } from './errors';
import { apiError, asNodeError, networkError, networkErrorCode } from './errors';
import { fileAnswer } from './file';
import { AdaptiveLimiter } from './limiter';
import { redactDeep } from '../helpers/redact';

export type KnolyxContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export const API_PREFIX = '/public/api/v1';
export const CREDENTIAL_TYPE = 'knolyxApi';
/** The largest page the platform is known to serve; larger requests may be clamped. */
export const MAX_PAGE_SIZE = 100;

/**
 * Builds an API path with every placeholder value encoded, so an e-mail such as
 * `a/b?c#d@x.com` stays one path segment and can never reach another endpoint.
 */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
	let path = strings[0];
	values.forEach((value, index) => {
		path += encodeURIComponent(String(value)) + strings[index + 1];
	});
	return path;
}

/** Joins the credential's base URL and an API path; tolerates trailing slashes and tenant URLs. */
export function joinUrl(baseUrl: string, path: string): string {
	const base = baseUrl.trim().replace(/\/+$/, '');
	return `${base}${API_PREFIX}${path.startsWith('/') ? path : `/${path}`}`;
}

export interface KnolyxRequest {
	method: IHttpRequestMethods;
	/** Path below /public/api/v1, built with `apiPath`. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** For the error message: what a 404 means and which permission a 403 lacks. */
	subject?: RequestSubject;
	itemIndex?: number;
	/**
	 * Whether a connection lost before the answer may be retried. False for
	 * writes that must not be applied twice blindly (the rule list save): the
	 * caller then re-reads and decides.
	 */
	retryOnNetworkError?: boolean;
	/** Statuses returned to the caller instead of thrown (e.g. 409 "already attending"). */
	acceptStatuses?: number[];
	/** The answer is a file: a 2xx body is a KnolyxFile (see file.ts). */
	binary?: boolean;
}

export interface KnolyxResponse<T = unknown> {
	statusCode: number;
	body: T;
	/** How many attempts it took (1 = first try). */
	attempts: number;
}

export interface RetryPolicy {
	maxAttempts: number;
	/** Give up when the next wait would push the total waiting past this. */
	maxTotalWaitMs: number;
	baseDelayMs: number;
	maxDelayMs: number;
	timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
	maxAttempts: 8,
	maxTotalWaitMs: 120_000,
	baseDelayMs: 250,
	maxDelayMs: 15_000,
	timeoutMs: 30_000,
};

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);
const THROTTLE_STATUSES = new Set([429, 503]);

/** Parses Retry-After: whole seconds or an HTTP date. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	const raw = String(text).trim();
	if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
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

/**
 * The one place that talks HTTP to Knolyx. Every request goes through n8n's
 * `httpRequestWithAuthentication` with the `knolyxApi` credential, shares one
 * adaptive limiter per node run, and is retried on 429/502/503/504 and lost
 * connections with backoff, honouring Retry-After.
 */
export class KnolyxClient {
	private baseUrl: string | undefined;

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
			const credentials = this.credentials?.data ?? (await this.ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE));
			this.baseUrl = String(credentials.baseUrl ?? '');
			const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
			if (apiKey.length >= 6) this.secrets = [apiKey];
		}
		return this.baseUrl;
	}

	private async send(request: KnolyxRequest): Promise<RawResponse> {
		const options: IHttpRequestOptions = {
			method: request.method,
			url: joinUrl(await this.base(), request.path),
			qs: request.qs,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: this.policy.timeoutMs,
		};
		if (Array.isArray(request.body) && request.body.length === 0) {
			// n8n's HTTP helper silently drops an empty array or object body; the empty rule
			// list (delete the last rule, Replace All with Allow Empty List) must still be sent.
			options.body = '[]';
			options.headers = { 'Content-Type': 'application/json' };
		} else if (request.body !== undefined) {
			options.body = request.body;
		}
		if (request.binary) Object.assign(options, { json: false, encoding: 'arraybuffer' });
		const response = (await this.ctx.helpers.httpRequestWithAuthentication.call(
			this.ctx,
			CREDENTIAL_TYPE,
			options,
			this.credentials && { credentialsDecrypted: this.credentials },
		)) as RawResponse;
		return request.binary ? fileAnswer(response) : response;
	}

	async request<T = unknown>(request: KnolyxRequest): Promise<KnolyxResponse<T>> {
		const policy = this.policy;
		const retryOnNetworkError = request.retryOnNetworkError ?? true;
		let waited = 0;
		for (let attempt = 1; ; attempt++) {
			let response: RawResponse | undefined;
			let failure: Error | undefined;
			try {
				response = await this.limiter.run(async () => await this.send(request));
			} catch (error) {
				if (!networkErrorCode(error)) throw asNodeError(this.node, error, request.itemIndex);
				failure = error as Error;
			}

			let delay: number;
			if (response) {
				const status = response.statusCode;
				if ((status >= 200 && status < 300) || request.acceptStatuses?.includes(status)) {
					this.limiter.onSuccess();
					return { statusCode: status, body: response.body as T, attempts: attempt };
				}
				if (!RETRIED_STATUSES.has(status)) {
					throw apiError(this.node, status, redactDeep(response.body, this.secrets), request.subject ?? {}, request.itemIndex);
				}
				const retryAfter = parseRetryAfter(response.headers?.['retry-after']);
				delay = retryAfter ?? backoff(attempt, policy);
				if (THROTTLE_STATUSES.has(status)) this.limiter.onThrottle(delay, status === 429);
				if (attempt >= policy.maxAttempts || waited + delay > policy.maxTotalWaitMs) {
					throw apiError(this.node, status, redactDeep(response.body, this.secrets), request.subject ?? {}, request.itemIndex);
				}
			} else {
				const error = failure as Error;
				if (!retryOnNetworkError || attempt >= policy.maxAttempts) {
					throw networkError(this.node, error, request.itemIndex);
				}
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
	 * Reads a paged list (`pagination.page` zero-based, `pagination.size`).
	 * Stops at an empty page, at a page shorter than the longest seen (a server
	 * may clamp the size below what was asked), at a page that repeats the
	 * previous one, or when `limit` items are collected.
	 */
	async getPaged<T = IDataObject>(
		path: string,
		options: { returnAll: boolean; limit?: number; qs?: IDataObject; subject?: RequestSubject; itemIndex?: number },
	): Promise<T[]> {
		const wanted = options.returnAll ? Infinity : Math.max(0, options.limit ?? 50);
		const size = Math.min(MAX_PAGE_SIZE, Number.isFinite(wanted) ? Math.max(1, wanted) : MAX_PAGE_SIZE);
		const results: T[] = [];
		let longest = 0;
		let previous = '';
		for (let page = 0; results.length < wanted; page++) {
			const { body } = await this.request<unknown>({
				method: 'GET',
				path,
				qs: { ...options.qs, 'pagination.page': page, 'pagination.size': size },
				subject: options.subject,
				itemIndex: options.itemIndex,
			});
			const { items, last } = pageItems<T>(body);
			if (items.length === 0) break;
			const signature = JSON.stringify(items);
			if (signature === previous) break;
			previous = signature;
			results.push(...items);
			longest = Math.max(longest, items.length);
			if (last || items.length < longest) break;
		}
		return results.slice(0, wanted);
	}
}

/** A page may be a plain array or a Spring-style page object `{ content, last }`. */
function pageItems<T>(body: unknown): { items: T[]; last: boolean } {
	if (Array.isArray(body)) return { items: body as T[], last: false };
	if (body && typeof body === 'object') {
		const record = body as IDataObject;
		for (const key of ['content', 'items', 'data', 'results']) {
			if (Array.isArray(record[key])) return { items: record[key] as T[], last: record.last === true };
		}
	}
	return { items: [], last: true };
}

export { AdaptiveLimiter } from './limiter';
export type { RequestSubject, KnolyxPermission } from './errors';
export type { KnolyxFile } from './file';
