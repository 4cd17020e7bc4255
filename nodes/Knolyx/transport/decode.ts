import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { AnswerFormat, AnswerShape } from './catalogue';
import { oddAnswer, wrongBaseUrl } from './errors';
import { fileOf } from './file';
import { JsonTooDeepError, parseExact, parseJson, parseLossless } from '../helpers/json';
import { isRecord } from '../helpers/objects';
import { cutOnCodePoint } from '../helpers/readableText';

/**
 * Decoding an answer by its format: a 2xx body as the endpoint's catalogue entry says (JSON,
 * JSON keeping long integers exact, a file), checked for the shape its answers have; a web page
 * where JSON was due is an error; an error answer as its JSON or its text.
 */

/** A final answer, its body read whole: bytes for a file endpoint, text for the others. */
export interface RawAnswer {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/** What the error of an undecodable answer names: the request and its item. */
export interface Asked {
	method: string;
	path: string;
	itemIndex?: number;
}

function contentType(headers: Record<string, unknown> | undefined): string {
	const value = headers?.['content-type'];
	return typeof value === 'string' ? value.toLowerCase() : '';
}

/**
 * A 2xx answer nested deeper than MAX_JSON_DEPTH: no answer of the API is, and an item built from
 * it could be neither copied nor stored by n8n ("Maximum call stack size exceeded").
 */
function answerTooDeep(
	node: INode,
	asked: Asked,
	status: number,
	error: JsonTooDeepError,
	length: number,
): NodeApiError {
	return new NodeApiError(node, { message: 'answer nested too deep' } as JsonObject, {
		message: `Knolyx answered ${asked.method} ${asked.path} with JSON nested more than ${error.limit} levels deep [${status}]`,
		description: `The answer (${length} characters) passes ${error.limit} levels at character ${error.position}; no answer of the Knolyx API is nested deeper than a few levels, so nothing of it was read or output.`,
		httpCode: String(status),
		itemIndex: asked.itemIndex,
	});
}

/** One page of a list as the platform gave it. */
export interface ListPage<T> {
	items: T[];
	/** The page object's `last`, when it has one (a plain array has none). */
	last?: boolean;
	/** The page object's count of the whole list (`totalElements` or `total`), when it has one. */
	total?: number;
}

/** A count of a page object: a whole number, else none. */
function countOf(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * A page may be a plain array or a page object (Spring's `{ content, last, totalElements }`, or
 * the list under `items`, `data`, `results`, `webhooks`); anything else (an object of another
 * shape, null, text) is no page: undefined, which a caller must not take for an empty list.
 */
export function pageItems<T>(body: unknown): ListPage<T> | undefined {
	if (Array.isArray(body)) return { items: body as T[] };
	if (isRecord(body)) {
		for (const key of ['content', 'items', 'data', 'results', 'webhooks']) {
			if (!Array.isArray(body[key])) continue;
			const last = typeof body.last === 'boolean' ? body.last : undefined;
			const total = countOf(body.totalElements) ?? countOf(body.total);
			return {
				items: body[key] as T[],
				...(last !== undefined && { last }),
				...(total !== undefined && { total }),
			};
		}
	}
	return undefined;
}

/** Whether a 2xx body has the shape the catalogue says the endpoint's answers have. */
function hasShape(body: unknown, shape: AnswerShape): boolean {
	if (shape === 'object') return isRecord(body);
	if (shape === 'list') return Array.isArray(body);
	return pageItems(body) !== undefined;
}

/** The most of a write's text answer an item carries. */
const MAX_ANSWER_TEXT = 500;

/**
 * The longest text a write's 2xx answer may be to count as the platform's acknowledgement
 * (`OK`, `Created`, a short sentence); a longer one (a maintenance notice, a page of text) is not.
 */
export const MAX_ACKNOWLEDGEMENT = 512;

/**
 * A write whose answer the guides do not show (attend, member removal, ping, rule save, ...) may
 * be answered with an empty body or a short text such as `OK`: that is the platform's answer, handed
 * on as `{ answer }` so the item says what Knolyx answered. A web page never is (a base URL that
 * points at a website answers writes with 200 and HTML), nor a text longer than
 * MAX_ACKNOWLEDGEMENT characters: that fails, naming what came.
 */
function writeAnswer(
	node: INode,
	answer: RawAnswer,
	asked: Asked,
	type: string,
	text: string,
): { answer: string } | undefined {
	if (asked.method === 'GET' || type.includes('html') || text.startsWith('<')) return undefined;
	if (text.length > MAX_ACKNOWLEDGEMENT)
		throw new NodeApiError(node, { message: 'text answer too long' } as JsonObject, {
			message: `Knolyx answered ${asked.method} ${asked.path} with ${text.length} characters of text, not an acknowledgement [${answer.statusCode}]`,
			description: `A write is acknowledged by an empty body, JSON or a short text (at most ${MAX_ACKNOWLEDGEMENT} characters); this answer may say the write was not done. It began: "${cutOnCodePoint(text, 200)}"`,
			httpCode: String(answer.statusCode),
			itemIndex: asked.itemIndex,
		});
	return { answer: cutOnCodePoint(text, MAX_ANSWER_TEXT) };
}

/** The body of an answer as the endpoint's format says; a web page where JSON was due is an error. */
function bodyOf(node: INode, answer: RawAnswer, format: AnswerFormat, asked: Asked): unknown {
	if (format === 'binary') return fileOf(answer);
	let { body } = answer;
	if (format === 'json' && typeof body === 'string') {
		const text = body;
		// Parsed when it parses, else the text (as n8n's helper gives it): refused below.
		try {
			body = parseJson(text);
		} catch (error) {
			if (error instanceof JsonTooDeepError)
				throw answerTooDeep(node, asked, answer.statusCode, error, text.length);
		}
	}
	if (typeof body !== 'string') return body;
	const text = body.trim();
	const type = contentType(answer.headers);
	if (text === '')
		return writeAnswer(node, answer, asked, type, text) ?? (format === 'json' ? body : undefined);
	if (format !== 'json' && (type.includes('json') || /^[[{]/.test(text))) {
		try {
			return format === 'exact' ? parseExact(text) : parseLossless(text);
		} catch (error) {
			if (error instanceof JsonTooDeepError)
				throw answerTooDeep(node, asked, answer.statusCode, error, text.length);
			// Not JSON after all: refused below.
		}
	} else if (format === 'json' && type.includes('json')) {
		// A JSON string literal.
		return body;
	}
	const written = writeAnswer(node, answer, asked, type, text);
	if (written) return written;
	throw wrongBaseUrl(node, answer.statusCode, type, text, asked.itemIndex);
}

/**
 * A successful (or accepted) answer decoded as the endpoint reads it; a 2xx of another shape
 * than the catalogue's is an error, never an empty object or list.
 */
export function decodeAnswer(
	node: INode,
	answer: RawAnswer,
	endpoint: { answer: AnswerFormat; shape?: AnswerShape },
	asked: Asked,
): unknown {
	const body = bodyOf(node, answer, endpoint.answer, asked);
	const status = answer.statusCode;
	if (status >= 200 && status < 300 && endpoint.shape && !hasShape(body, endpoint.shape)) {
		const shape = endpoint.shape === 'object' ? 'object' : 'list';
		throw oddAnswer(node, shape, status, body, asked.itemIndex);
	}
	return body;
}

/**
 * An error answer: its JSON when it is JSON (any JSON for a JSON endpoint, an object or a list
 * for the others), else its text (also when it is nested deeper than the node reads).
 */
export function errorBodyOf(answer: RawAnswer, format: AnswerFormat): unknown {
	const { body } = answer;
	const text = Buffer.isBuffer(body)
		? body.toString('utf8')
		: body instanceof ArrayBuffer
			? Buffer.from(body).toString('utf8')
			: body;
	if (typeof text !== 'string' || (format !== 'json' && !/^\s*[[{]/.test(text))) return text;
	try {
		return parseJson(text);
	} catch {
		return text;
	}
}
