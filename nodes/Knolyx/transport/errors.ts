import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** Which permission of the API key each kind of request needs (docs/api.md, README "Operations"). */
export type KnolyxPermission =
	| 'USER_PROVISION'
	| 'WORKGROUP_ADD_MEMBER'
	| 'WORKGROUP_REMOVE_MEMBER'
	| 'WORKGROUP_LIST'
	| 'COURSE_LIST'
	| 'COURSE_GET'
	| 'WEBHOOK_MANAGE'
	| 'BUSINESS_RULE_MANAGE'
	| 'EVENT_READ'
	| 'EVENT_MANAGE';

/** What a failed request was about, so the error can say which id was not found. */
export interface RequestSubject {
	/** e.g. "workgroup 12 or user ana@example.com" */
	notFound?: string;
	permission?: KnolyxPermission;
	/** What a 403 means here besides a missing permission, e.g. "the user has no access to the community". */
	forbidden?: string;
}

/** The most of the platform's own text an error message carries. */
const MAX_MESSAGE_LENGTH = 300;

/**
 * The most of an answer's text an error reads (UTF-16 units): the text is cut to this before it
 * is looked at, so a web page or a message of megabytes costs no more than this.
 */
export const MAX_TEXT_READ = 8192;

/** Entities an error page uses for what it shows; any other is left as written. */
const ENTITIES: ReadonlyArray<[string, string]> = [
	['&nbsp;', ' '],
	['&amp;', '&'],
	['&lt;', '‹'],
	['&gt;', '›'],
	['&quot;', '"'],
	['&#39;', "'"],
];

/** Elements whose content is no text: skipped up to their closing tag. */
const HIDDEN_ELEMENTS = ['script', 'style'];

/** Whether a character (its UTF-16 unit) separates words: white space, a control, an invisible format mark. */
function isBlank(code: number): boolean {
	return (
		code <= 0x20 ||
		(code >= 0x7f && code <= 0xa0) ||
		code === 0x1680 ||
		(code >= 0x2000 && code <= 0x200f) ||
		(code >= 0x2028 && code <= 0x202f) ||
		code === 0x205f ||
		(code >= 0x2066 && code <= 0x2069) ||
		code === 0x3000 ||
		code === 0xfeff
	);
}

const isAsciiLetter = (code: number) =>
	(code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);

/** `text` cut to at most `length` UTF-16 units, never inside a surrogate pair. */
function cutOnCodePoint(text: string, length: number): string {
	if (text.length <= length) return text;
	const last = text.charCodeAt(length - 1);
	return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/**
 * Platform text fit for a message: markup, comments, scripts and styles out, a few entities read,
 * controls and invisible formatting marks as spaces, spaces folded, capped at MAX_MESSAGE_LENGTH.
 * Bounded work whatever the text: it is cut to MAX_TEXT_READ first, then read in one pass (each
 * search for a closing `>`, `-->` or `</script` starts where the last one ended, so no character
 * is looked at more than a few times), without a regular expression; reading stops once the
 * message is full.
 */
export function readableText(text: string): string {
	const head = cutOnCodePoint(text, MAX_TEXT_READ);
	// Tag names are compared in ASCII lower case; the copy has the same length and positions.
	const lower = head.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
	const out: string[] = [];
	let length = 0;
	let pendingSpace = false;
	/** Where the next `>` is (searched again only once passed); -1: none after `nextCloseFrom`. */
	let nextClose = -2;
	const closeAfter = (from: number): number => {
		if (nextClose === -1 || (nextClose >= from && nextClose !== -2)) return nextClose;
		nextClose = head.indexOf('>', from);
		return nextClose;
	};
	const emit = (piece: string) => {
		if (pendingSpace && length > 0) {
			out.push(' ');
			length += 1;
		}
		pendingSpace = false;
		out.push(piece);
		length += piece.length;
	};
	let at = 0;
	while (at < head.length && length <= MAX_MESSAGE_LENGTH) {
		const code = head.charCodeAt(at);
		if (code === 0x3c /* < */) {
			if (head.startsWith('<!--', at)) {
				const end = head.indexOf('-->', at + 4);
				// A comment never closed hides the rest.
				at = end === -1 ? head.length : end + 3;
				pendingSpace = true;
				continue;
			}
			const next = head.charCodeAt(at + 1);
			const isTag =
				isAsciiLetter(next) ||
				next === 0x21 /* ! */ ||
				(next === 0x2f /* / */ && isAsciiLetter(head.charCodeAt(at + 2)));
			const end = isTag ? closeAfter(at) : -1;
			if (end !== -1) {
				const hidden = HIDDEN_ELEMENTS.find(
					(name) =>
						lower.startsWith(name, at + 1) && !isAsciiLetter(head.charCodeAt(at + 1 + name.length)),
				);
				at = end + 1;
				if (hidden) {
					// Skipped up to its closing tag (and that tag), or to the end when it has none.
					const closing = lower.indexOf(`</${hidden}`, at);
					const closingEnd = closing === -1 ? -1 : closeAfter(closing);
					at = closingEnd === -1 ? head.length : closingEnd + 1;
				}
				pendingSpace = true;
				continue;
			}
		} else if (code === 0x26 /* & */) {
			const entity = ENTITIES.find(([name]) => head.startsWith(name, at));
			if (entity) {
				if (entity[1] === ' ') pendingSpace = true;
				else emit(entity[1]);
				at += entity[0].length;
				continue;
			}
		} else if (isBlank(code)) {
			pendingSpace = true;
			at += 1;
			continue;
		}
		// A run of ordinary characters, as one piece.
		let end = at + 1;
		while (end < head.length) {
			const following = head.charCodeAt(end);
			if (following === 0x3c || following === 0x26 || isBlank(following)) break;
			end += 1;
		}
		emit(head.slice(at, end));
		at = end;
	}
	const plain = out.join('');
	return plain.length > MAX_MESSAGE_LENGTH
		? `${cutOnCodePoint(plain, MAX_MESSAGE_LENGTH)}…`
		: plain;
}

/** Pulls the platform's own message out of an error body of any shape. */
function platformMessage(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const text = cutOnCodePoint(body, MAX_TEXT_READ).trim();
		if (text === '' || text.startsWith('<')) return undefined;
		return readableText(text) || undefined;
	}
	if (body && typeof body === 'object') {
		const record = body as IDataObject;
		for (const key of ['message', 'error_description', 'detail', 'error']) {
			const value = record[key];
			if (typeof value === 'string' && value.trim() !== '') return readableText(value) || undefined;
		}
	}
	return undefined;
}

function describe(status: number, message: string | undefined, subject: RequestSubject): string {
	switch (status) {
		case 400:
			return 'The platform refused the request as invalid. Check the fields named in the message.';
		case 401:
			return 'Check the Knolyx API credential: the API key and the project ID must both be the ones issued for this project, and the base URL must point at your Knolyx API.';
		case 403:
			if (subject.forbidden) {
				return `${subject.forbidden}. Otherwise the API key lacks the ${subject.permission ?? 'needed'} permission.`;
			}
			return subject.permission
				? `The API key probably lacks the ${subject.permission} permission. Ask a Knolyx administrator to add it to the key, or use a key that has it.`
				: 'The API key is not allowed to do this. Check its permissions in Knolyx.';
		case 404:
			return subject.notFound
				? `Not found on the platform: ${subject.notFound}. Check the ID.`
				: 'The platform did not find what was asked for. Check the IDs.';
		case 409:
			return 'The platform reports a conflict: it is already in that state.';
		case 429:
			return 'The platform kept rate-limiting the requests after several retries. Lower the concurrency in the node options or retry later.';
		default:
			if (status >= 500)
				return 'The Knolyx platform failed to answer after several retries. Try again later.';
			return message ?? `The platform answered with status ${status}.`;
	}
}

/** The error body kept on an n8n error: the platform's fields, long texts cut to a readable length. */
function keptBody(body: unknown, status: number, message: string | undefined): JsonObject {
	if (!body || typeof body !== 'object' || Array.isArray(body))
		return { message: message ?? `HTTP ${status}` };
	return Object.fromEntries(
		Object.entries(body as JsonObject).map(([key, value]) => [
			key,
			typeof value === 'string' ? readableText(value) : value,
		]),
	) as JsonObject;
}

/** A failed answer of the platform as an n8n error with the platform's message and a hint. */
export function apiError(
	node: INode,
	status: number,
	body: unknown,
	subject: RequestSubject,
	itemIndex?: number,
	extra: { waitTooLong?: string } = {},
): NodeApiError {
	const message = platformMessage(body);
	const response = keptBody(body, status, message);
	if (extra.waitTooLong) {
		return new NodeApiError(node, response, {
			message: `Knolyx: ${extra.waitTooLong} [${status}]`,
			description:
				"The platform asked for a pause longer than the node waits for one item, so this item failed at once and the other items went on. Retry it later (for example with the node's Retry On Fail setting, or a later run).",
			httpCode: String(status),
			itemIndex,
		});
	}
	// The message alone (all an AI agent or a Continue On Fail item may show) names what was
	// not found, or the permission a 403 is about.
	let about = '';
	if (status === 404 && subject.notFound) about = ` (${subject.notFound})`;
	const bareForbidden = !message || /^(forbidden|access denied)\.?$/i.test(message);
	if (status === 403 && subject.permission && bareForbidden) {
		about = ` (needs the ${subject.permission} permission)`;
	}
	return new NodeApiError(node, response, {
		message: message
			? `Knolyx: ${message}${about} [${status}]`
			: `Knolyx answered with status ${status}${about}`,
		description: describe(status, message, subject),
		httpCode: String(status),
		itemIndex,
	});
}

/**
 * A 2xx answer that is not the API's JSON (a web page): the base URL points at the web app,
 * e.g. a tenant URL without its /api.
 */
export function wrongBaseUrl(
	node: INode,
	status: number,
	contentType: string,
	text: string,
	itemIndex?: number,
): NodeApiError {
	const what =
		/html/.test(contentType) || text.startsWith('<')
			? 'a web page (HTML)'
			: 'text that is not JSON';
	return new NodeApiError(node, { message: readableText(text).slice(0, 120) } as JsonObject, {
		message: `Knolyx answered with ${what}, not the API's JSON: the base URL looks wrong [${status}]`,
		description:
			'Check the Base URL of the Knolyx API credential: https://api.knolyx.com, or https://{tenant}.knolyx.com/api for a tenant deployment (with /api).',
		httpCode: String(status),
		itemIndex,
	});
}

/** Seconds, for messages. */
export function seconds(ms: number): string {
	return ms >= 3_600_000 ? `${Math.round(ms / 3_600_000)} h` : `${Math.round(ms / 1000)} s`;
}

/**
 * A request that never got a whole answer (reset, refused, timed out) after the retries. The
 * message is the node's own: n8n would put its generic text for the code in its place ("consider
 * setting the 'Retry on Fail' option", which the node's own retries have already done).
 */
export function networkError(
	node: INode,
	error: Error,
	timeoutMs: number,
	itemIndex?: number,
): NodeApiError {
	const code = networkErrorCode(error) ?? 'network error';
	const timedOut = code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT';
	const message = timedOut
		? `Knolyx did not answer within the Timeout (${seconds(timeoutMs)} per attempt) [${code}]`
		: `Knolyx could not be reached (${code})`;
	const failure = new NodeApiError(node, { message: error.message, code } as JsonObject, {
		message,
		description: timedOut
			? "The request ran past the Timeout, from connecting to the last byte of the answer. Raise Timeout under the node's Request Options if Knolyx is slow, or run it again later."
			: 'The connection to the Knolyx API failed after several retries. Check the base URL of the credential and the network, then retry.',
		itemIndex,
	});
	// The code stays in the error (retries and checks read it there); the message is ours again.
	failure.message = message;
	return failure;
}

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'ECONNABORTED',
	'EAI_AGAIN',
	'ENOTFOUND',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** The network error code of an error thrown by the HTTP helper, if it is one. */
export function networkErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const record = current as {
			code?: unknown;
			message?: unknown;
			cause?: unknown;
			errorResponse?: unknown;
		};
		if (typeof record.code === 'string' && NETWORK_CODES.has(record.code)) return record.code;
		if (
			typeof record.message === 'string' &&
			/socket hang up|timeout of \d{1,12}ms exceeded/i.test(record.message)
		) {
			return record.message.includes('timeout') ? 'ETIMEDOUT' : 'ECONNRESET';
		}
		// A NodeApiError made by networkError() keeps the code in its errorResponse (n8n
		// replaces the message of known network codes with its own text).
		current = record.cause ?? record.errorResponse;
	}
	return undefined;
}

/** An error as n8n shows it: n8n's own node errors pass through, anything else is wrapped. */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined && error.context.itemIndex === undefined)
			error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

const CHECK_BASE_URL =
	"Set the Base URL of the Knolyx API credential to the API's own address: https://api.knolyx.com, or https://{tenant}.knolyx.com/api for a tenant deployment.";

/** An address for a message: no credentials in it, cut to a readable length. */
function shownUrl(url: URL): string {
	const copy = new URL(url.href);
	copy.username = '';
	copy.password = '';
	const text = copy.href;
	return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * A redirect the node does not follow: to another origin (the API key and project ID are only
 * ever sent to the base URL's), a write that the redirect would turn into a read, or too many hops.
 */
export function redirectRefused(
	node: INode,
	status: number,
	target: URL,
	why: 'otherOrigin' | 'changesMethod' | 'tooMany',
	itemIndex?: number,
	maxRedirects = 0,
): NodeApiError {
	const where = shownUrl(target);
	const message = {
		otherOrigin: `Knolyx redirected the request to another address (${where}): not followed, so the API key is not sent there; check the base URL [${status}]`,
		changesMethod: `Knolyx answered the write with a redirect (${where}) that would turn it into a read: not followed; check the base URL [${status}]`,
		tooMany: `Knolyx redirected the request more than ${maxRedirects} times (last to ${where}): not followed further; check the base URL [${status}]`,
	}[why];
	const description =
		why === 'otherOrigin'
			? `The node sends the API key and the project ID only to the host of the credential's Base URL, never to the host a redirect points at. ${CHECK_BASE_URL}`
			: CHECK_BASE_URL;
	return new NodeApiError(node, { message: `redirect to ${where}` } as JsonObject, {
		message,
		description,
		httpCode: String(status),
		itemIndex,
	});
}

/** An answer larger than the node reads (the rest was not read). */
export function answerTooLarge(
	node: INode,
	status: number,
	size: { bytes: string; limit: string; announced: boolean },
	kind: 'json' | 'file',
	itemIndex?: number,
): NodeApiError {
	const what = size.announced
		? `${size.bytes}, more than the ${size.limit}`
		: `more than ${size.limit}, the most`;
	return new NodeApiError(node, { message: `answer larger than ${size.limit}` } as JsonObject, {
		message: `Knolyx answered with ${what} this node reads from one answer [${status}]`,
		description:
			kind === 'file'
				? `The file is larger than the ${size.limit} the node downloads; the rest was not read.`
				: `No answer of the Knolyx API is this large, so the rest was not read. ${CHECK_BASE_URL}`,
		httpCode: String(status),
		itemIndex,
	});
}

/**
 * The start of a value written as JSON, about `room` characters of it: only as much of the value
 * is visited as that start shows (a list of a million entries costs no more than its first few).
 */
export function jsonStart(value: unknown, room: number): string {
	const parts: string[] = [];
	let left = room;
	const put = (text: string) => {
		parts.push(text);
		left -= text.length;
	};
	const write = (current: unknown): void => {
		if (left <= 0) return;
		if (typeof current === 'string') {
			put(JSON.stringify(cutOnCodePoint(current, left)));
		} else if (Array.isArray(current)) {
			put('[');
			for (let index = 0; index < current.length && left > 0; index++) {
				if (index > 0) put(',');
				write(current[index]);
			}
			put(']');
		} else if (current !== null && typeof current === 'object') {
			put('{');
			let first = true;
			for (const key in current) {
				if (left <= 0) break;
				if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
				if (!first) put(',');
				first = false;
				put(`${JSON.stringify(cutOnCodePoint(key, left))}:`);
				write((current as Record<string, unknown>)[key]);
			}
			put('}');
		} else {
			put(JSON.stringify(current) ?? String(current));
		}
	};
	write(value);
	return parts.join('');
}

/** The shapes a 2xx answer of a read must have: what a caller expects from it. */
const SHAPES = {
	list: { asked: 'a list request', wanted: 'a list', expected: 'a list (or a page of one)' },
	object: { asked: 'a read', wanted: 'an object', expected: 'a JSON object' },
} as const;

/**
 * A read answered 2xx with something of another shape (e.g. `{"status":"MAINTENANCE"}` for a
 * list, `null` or `42` for an object): taken for an empty list or an empty object, it would make
 * a poll forget what it knew, a creation be sent again, or a Get output nothing.
 */
export function oddAnswer(
	node: INode,
	shape: keyof typeof SHAPES,
	status: number,
	body: unknown,
	itemIndex?: number,
): NodeApiError {
	const { asked, wanted, expected } = SHAPES[shape];
	const shown = readableText(
		typeof body === 'string' ? body : jsonStart(body, MAX_TEXT_READ),
	).slice(0, 120);
	return new NodeApiError(node, { message: shown } as JsonObject, {
		message: `Knolyx answered ${asked} with something that is not ${wanted} [${status}]`,
		description: `Expected ${expected}; the answer began with: ${shown || '(nothing)'}. The platform may be under maintenance, or the base URL may point at something else. The node did not act on this answer; run it again later.`,
		httpCode: String(status),
		itemIndex,
	});
}
