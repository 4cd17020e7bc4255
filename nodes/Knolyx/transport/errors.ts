import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { cutOnCodePoint, jsonStart, MAX_TEXT_READ, readableText } from '../helpers/readableText';

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
	| 'EVENT_MANAGE'
	| 'COMMUNITY_READ'
	| 'PAYMENT_INFO_READ'
	| 'RESOURCE_LIST'
	| 'RESOURCE_GET';

/** What a failed request was about, so the error can say which id was not found. */
export interface RequestSubject {
	/** e.g. "workgroup 12 or user ana@example.com" */
	notFound?: string;
	permission?: KnolyxPermission;
	/** What a 403 means here besides a missing permission, e.g. "the user has no access to the community". */
	forbidden?: string;
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
			'Check the Base URL of the Knolyx API credential: https://api.knolyx.com, or the https address Knolyx gave your organisation, with its path (such as /api) when it has one.',
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
	"Set the Base URL of the Knolyx API credential to the API's own address: https://api.knolyx.com, or the https address Knolyx gave your organisation, with its path (such as /api) when it has one.";

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
