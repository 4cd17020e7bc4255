import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions, INode } from 'n8n-workflow';

import type { AnswerFormat } from './catalogue';
import type { RawAnswer } from './decode';
import { answerTooLarge, networkError, redirectRefused } from './errors';
import { stringifyLossless } from '../helpers/json';

/**
 * The HTTP exchange: one request sent through n8n's helper, redirects followed by the node's own
 * policy (never by n8n's helper: it would send the credential on to wherever a redirect points),
 * and the final answer's body read whole within bounds. The request's deadline covers everything
 * from connecting to the last byte (n8n's own `timeout` only fires when the connection goes idle,
 * so a body that trickles or never ends would be read for ever), and a body larger than the bound
 * is not read into memory.
 */

/** The most read from one JSON answer: far more than any page of the API (100 entries). */
const MAX_JSON_BYTES = 16 * 1024 * 1024;
/** The most read from one file answer (Course → Get Image). */
const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** Redirects followed for one request (within the base URL's origin, or for a file). */
const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A response body as n8n's helper hands it over with `encoding: 'stream'`. */
interface BodyStream extends AsyncIterable<unknown> {
	destroy(error?: Error): void;
}

function isBodyStream(value: unknown): value is BodyStream {
	return (
		!!value &&
		typeof (value as BodyStream).destroy === 'function' &&
		typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
	);
}

/**
 * Stops reading a body that is not wanted (a redirect's, one that came too late) and closes its
 * connection. It is left through its iterator: a stream n8n's helper wraps (axios does, to count
 * bytes) does not pass a destroy() on to the connection before it is read.
 */
function discardBody(body: unknown): void {
	if (!isBodyStream(body)) return;
	const iterator = body[Symbol.asyncIterator]();
	void (async () => {
		try {
			// The first chunk is enough: returning the iterator then closes the stream.
			await iterator.next();
			await iterator.return?.();
		} catch {
			// Already failed or closed: nothing left to close.
		}
	})();
}

/** The request did not end within its deadline; `code` makes it a lost answer to the retry logic. */
class DeadlineError extends Error {
	readonly code = 'ETIMEDOUT';

	constructor(readonly timeoutMs: number) {
		super(`timeout of ${timeoutMs}ms exceeded: the answer did not end in time`);
	}
}

/** An answer larger than what the node reads. */
class AnswerTooLargeError extends Error {
	constructor(
		/** Bytes announced (Content-Length) or read before stopping. */
		readonly bytes: number,
		readonly limit: number,
		/** Whether `bytes` is the whole size (announced) or only where reading stopped. */
		readonly announced: boolean,
	) {
		super(`answer larger than ${limit} bytes`);
	}
}

/** A deadline from now, as an AbortSignal (its timer does not keep n8n's process alive). */
function deadline(timeoutMs: number): { signal: AbortSignal; timeoutMs: number } {
	return { signal: AbortSignal.timeout(timeoutMs), timeoutMs };
}

/**
 * Waits for `work` until the deadline. When the deadline comes first, whatever `work` resolves
 * to later is handed to `late` (to close it) and a DeadlineError is thrown now.
 */
async function beforeDeadline<T>(
	limit: { signal: AbortSignal; timeoutMs: number },
	work: Promise<T>,
	late: (value: T) => void,
): Promise<T> {
	return await new Promise<T>((resolve, reject) => {
		const expire = () => reject(new DeadlineError(limit.timeoutMs));
		if (limit.signal.aborted) expire();
		else limit.signal.addEventListener('abort', expire, { once: true });
		work.then(
			(value) => {
				limit.signal.removeEventListener('abort', expire);
				if (limit.signal.aborted) late(value);
				else resolve(value);
			},
			(error: unknown) => {
				limit.signal.removeEventListener('abort', expire);
				reject(error);
			},
		);
	});
}

function declaredLength(headers: Record<string, unknown> | undefined): number | undefined {
	const value = headers?.['content-length'];
	const text = Array.isArray(value) ? value[0] : value;
	const length = Number(text);
	return text !== undefined && text !== '' && Number.isFinite(length) && length >= 0
		? length
		: undefined;
}

/** A body read whole, or why reading stopped (the connection is then closed). */
type BodyRead =
	| { bytes: Buffer }
	| { tooLarge: AnswerTooLargeError }
	| { lost: DeadlineError | Error };

/**
 * The whole body as bytes, read until the deadline and at most `maxBytes`; reading stops (the
 * connection is closed) as soon as either bound is passed.
 */
async function readBody(
	body: unknown,
	headers: Record<string, unknown> | undefined,
	maxBytes: number,
	limit: { signal: AbortSignal; timeoutMs: number },
): Promise<BodyRead> {
	if (!isBodyStream(body)) {
		if (Buffer.isBuffer(body)) return { bytes: body };
		return {
			bytes: Buffer.from(
				typeof body === 'string'
					? body
					: body === undefined || body === null
						? ''
						: JSON.stringify(body),
			),
		};
	}
	const announced = declaredLength(headers);
	const stop = () => body.destroy(new DeadlineError(limit.timeoutMs));
	if (limit.signal.aborted) stop();
	else limit.signal.addEventListener('abort', stop, { once: true });
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body) {
			// Checked once reading has begun: leaving the loop then closes the connection too (a
			// stream n8n's helper wraps does not pass a destroy() on before it is read).
			if (announced !== undefined && announced > maxBytes)
				return { tooLarge: new AnswerTooLargeError(announced, maxBytes, true) };
			const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
			size += bytes.length;
			if (size > maxBytes) return { tooLarge: new AnswerTooLargeError(size, maxBytes, false) };
			chunks.push(bytes);
		}
	} catch (error) {
		body.destroy();
		return { lost: limit.signal.aborted ? new DeadlineError(limit.timeoutMs) : (error as Error) };
	} finally {
		limit.signal.removeEventListener('abort', stop);
	}
	if (limit.signal.aborted) return { lost: new DeadlineError(limit.timeoutMs) };
	return { bytes: Buffer.concat(chunks, size) };
}

/** Where a redirect answer points, resolved against the URL asked; undefined for other answers. */
function redirectTarget(
	statusCode: number,
	headers: Record<string, unknown> | undefined,
	from: string,
): URL | undefined {
	if (!REDIRECT_STATUSES.has(statusCode)) return undefined;
	const value = headers?.location;
	const location = Array.isArray(value) ? value[0] : value;
	if (typeof location !== 'string' || location.trim() === '') return undefined;
	try {
		return new URL(location.trim(), from);
	} catch {
		return undefined;
	}
}

/** "16 MiB", for messages. */
function mebibytes(bytes: number): string {
	const value = bytes / (1024 * 1024);
	return `${Number.isInteger(value) ? value : value.toFixed(1)} MiB`;
}

/** n8n's HTTP helpers as the exchange uses them. */
export interface Http {
	/** A request with the credential's authentication. */
	authenticated(options: IHttpRequestOptions): Promise<unknown>;
	/** A request without it (a file that lives on another origin). */
	plain(options: IHttpRequestOptions): Promise<unknown>;
}

/** One request to the API, as the exchange sends it. */
export interface Outgoing {
	method: IHttpRequestMethods;
	url: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** How the endpoint's answer is read: a file is read as bytes and may be fetched elsewhere. */
	format: AnswerFormat;
	itemIndex?: number;
}

function optionsOf(request: Outgoing, timeoutMs: number): IHttpRequestOptions {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: request.url,
		qs: request.qs,
		json: request.format !== 'binary',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: timeoutMs,
		// Bodies are read here, not by the HTTP helper: within the deadline and the size
		// bound, long integers exact, a web page told apart from the API's JSON.
		encoding: 'stream',
		// The helper would send the credential's headers on to wherever a redirect points.
		disableFollowRedirect: true,
	};
	if (request.format === 'lossless' && request.body !== undefined) {
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
	return options;
}

/**
 * Sends one request and follows its redirects: within the base URL's origin, and for a file
 * also elsewhere (without the credential); never a write turned into a read, never more than
 * MAX_REDIRECTS. The final answer comes back with its body read whole (bytes for a file, text
 * for the others). A lost connection or a passed deadline is thrown as it came (its code tells
 * the retry loop); everything else the node refuses is thrown as a node error.
 */
export async function exchange(
	node: INode,
	http: Http,
	request: Outgoing,
	timeoutMs: number,
): Promise<RawAnswer> {
	const options = optionsOf(request, timeoutMs);
	const limit = deadline(timeoutMs);
	const origin = new URL(request.url).origin;
	/** False once a file download left the base URL's origin: the credential stays behind. */
	let withCredential = true;
	for (let hop = 0; ; hop++) {
		const sent = withCredential ? http.authenticated(options) : http.plain(options);
		const response = (await beforeDeadline(limit, sent as Promise<RawAnswer>, (late) =>
			discardBody(late.body),
		)) as RawAnswer;
		const target = redirectTarget(response.statusCode, response.headers, String(options.url));
		if (!target) return await readWhole(node, response, request, limit);
		discardBody(response.body);
		const status = response.statusCode;
		if (hop >= MAX_REDIRECTS)
			throw redirectRefused(node, status, target, 'tooMany', request.itemIndex, MAX_REDIRECTS);
		if (withCredential && target.origin !== origin) {
			if (request.format !== 'binary')
				throw redirectRefused(node, status, target, 'otherOrigin', request.itemIndex);
			// A file may live elsewhere (a CDN): fetched there without the credential.
			withCredential = false;
			options.headers = {};
		}
		if (request.method !== 'GET' && status !== 307 && status !== 308) {
			throw redirectRefused(node, status, target, 'changesMethod', request.itemIndex);
		}
		options.url = target.href;
		// The address a redirect gives carries its own query.
		delete options.qs;
	}
}

/** A final answer with its body read whole (within the deadline and the size bound). */
async function readWhole(
	node: INode,
	response: RawAnswer,
	request: Outgoing,
	limit: ReturnType<typeof deadline>,
): Promise<RawAnswer> {
	const file = request.format === 'binary';
	const read = await readBody(
		response.body,
		response.headers,
		file ? MAX_FILE_BYTES : MAX_JSON_BYTES,
		limit,
	);
	if ('lost' in read) throw networkError(node, read.lost, limit.timeoutMs, request.itemIndex);
	if ('tooLarge' in read) {
		const { bytes, limit: most, announced } = read.tooLarge;
		const size = { bytes: mebibytes(bytes), limit: mebibytes(most), announced };
		throw answerTooLarge(
			node,
			response.statusCode,
			size,
			file ? 'file' : 'json',
			request.itemIndex,
		);
	}
	// JSON is read as text here, and decoded once its status says how (decode.ts).
	const body: unknown = file ? read.bytes : read.bytes.toString('utf8');
	return { statusCode: response.statusCode, headers: response.headers ?? {}, body };
}
