/**
 * Reading an answer within bounds: the request's deadline covers everything from connecting to
 * the last byte (n8n's own `timeout` only fires when the connection goes idle, so a body that
 * trickles or never ends would be read for ever), and a body larger than the bound is not read
 * into memory. Redirects are handed back to the transport (never followed by n8n's helper).
 */

/** The most read from one JSON answer: far more than any page of the API (100 entries). */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;
/** The most read from one file answer (Course → Get Image). */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** Redirects followed for one request (within the base URL's origin, or for a file). */
export const MAX_REDIRECTS = 5;

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
export function discardBody(body: unknown): void {
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
export class DeadlineError extends Error {
	readonly code = 'ETIMEDOUT';

	constructor(readonly timeoutMs: number) {
		super(`timeout of ${timeoutMs}ms exceeded: the answer did not end in time`);
	}
}

/** An answer larger than what the node reads. */
export class AnswerTooLargeError extends Error {
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
export function deadline(timeoutMs: number): { signal: AbortSignal; timeoutMs: number } {
	return { signal: AbortSignal.timeout(timeoutMs), timeoutMs };
}

/**
 * Waits for `work` until the deadline. When the deadline comes first, whatever `work` resolves
 * to later is handed to `late` (to close it) and a DeadlineError is thrown now.
 */
export async function beforeDeadline<T>(
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
export type BodyRead =
	| { bytes: Buffer }
	| { tooLarge: AnswerTooLargeError }
	| { lost: DeadlineError | Error };

/**
 * The whole body as bytes, read until the deadline and at most `maxBytes`; reading stops (the
 * connection is closed) as soon as either bound is passed.
 */
export async function readBody(
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
export function redirectTarget(
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
export function mebibytes(bytes: number): string {
	const value = bytes / (1024 * 1024);
	return `${Number.isInteger(value) ? value : value.toFixed(1)} MiB`;
}
