/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Edges: answers the platform (or a proxy, a CDN, a tenant's web front in front of it) may give
 * that the sandbox's API does not: for one path, a redirect (to the same origin or another one),
 * an arbitrary status/Content-Type/body (a problem+json, a web page or a PNG without Content-Type,
 * a long Content-Disposition name), a body trickled one byte at a time, or a stream that never
 * ends. Rules are set over HTTP (`POST /sandbox/edges`), checked strictly, and take precedence
 * over every other route, authentication included. `startOtherHost()` plays "another host": a
 * second server on 127.0.0.1 that records the headers it receives.
 *
 *   POST   /sandbox/edges   one rule (below); answers { rule } with its id
 *   GET    /sandbox/edges   { rules: [{ ...rule, served, answers: [{ bytesSent, finished, closedEarly }] }] }
 *   DELETE /sandbox/edges   removes every rule
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router, type RequestHandler } from 'express';

import { badRequest } from './errors';
import { coursePng } from './image';
import { isObject } from './validation';

const REDIRECT_STATUSES = [301, 302, 303, 307, 308] as const;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const MAX_RULES = 100;
/** Answers recorded per rule (the newest kept). */
const MAX_ANSWERS = 50;

export interface EdgeRedirect {
	status: (typeof REDIRECT_STATUSES)[number];
	/** Absolute URL, or a path on the sandbox itself (sent as given: a relative Location). */
	location: string;
}

export interface EdgeAnswer {
	status: number;
	/** null: no Content-Type header at all. */
	contentType: string | null;
	contentDisposition?: string;
	/** The body as text, or `png: true` for a small valid PNG. */
	body?: string;
	png?: boolean;
	/** Writes the body one byte every this many ms (0 = at once). */
	trickleMs: number;
}

export interface EdgeStream {
	status: number;
	contentType: string | null;
	/** Starts with a PNG signature (an image that never ends). */
	png: boolean;
	chunkBytes: number;
	/** Pause between chunks; 0 = as fast as the client reads. */
	everyMs: number;
	/** Bytes in all, announced in Content-Length; absent = endless (chunked, until the client closes). */
	totalBytes?: number;
}

export interface EdgeRule {
	id: number;
	path: string;
	method?: string;
	/** Requests this rule answers; absent = every one. */
	times?: number;
	redirect?: EdgeRedirect;
	answer?: EdgeAnswer;
	stream?: EdgeStream;
}

export interface EdgeAnswerLog {
	bytesSent: number;
	/** The whole answer was written. */
	finished: boolean;
	/** The client closed the connection before the answer ended. */
	closedEarly: boolean;
}

interface Entry {
	rule: EdgeRule;
	served: number;
	answers: EdgeAnswerLog[];
}

// ---- strict validation: an unknown field or a wrong type is a 400 naming the field ----

function only(value: Record<string, unknown>, allowed: string[], at: string): void {
	for (const key of Object.keys(value)) {
		if (!allowed.includes(key))
			throw badRequest(`${at}${key} is not a known field (known: ${allowed.join(', ')})`);
	}
}

function objectAt(value: unknown, field: string): Record<string, unknown> {
	if (!isObject(value)) throw badRequest(`${field} must be a JSON object`);
	return value;
}

function intAt(value: unknown, field: string, min: number, max: number): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		throw badRequest(`${field} must be an integer between ${min} and ${max}`);
	}
	return value;
}

/** An optional integer field of `raw`: `fallback` when absent. */
function intOr(
	raw: Record<string, unknown>,
	key: string,
	at: string,
	fallback: number,
	min: number,
	max: number,
): number {
	return raw[key] === undefined ? fallback : intAt(raw[key], `${at}.${key}`, min, max);
}

function stringAt(value: unknown, field: string, maxLength = 100_000): string {
	if (typeof value !== 'string' || value.length > maxLength)
		throw badRequest(`${field} must be a string of at most ${maxLength} characters`);
	return value;
}

function boolAt(value: unknown, field: string): boolean {
	if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false`);
	return value;
}

function contentTypeAt(value: unknown, field: string, fallback: string | null): string | null {
	if (value === undefined) return fallback;
	if (value === null) return null;
	const text = stringAt(value, field, 200);
	if (/[\r\n]/.test(text)) throw badRequest(`${field} must be one line`);
	return text;
}

function parseRedirect(value: unknown): EdgeRedirect {
	const raw = objectAt(value, 'redirect');
	only(raw, ['status', 'location'], 'redirect.');
	const status = raw.status ?? 302;
	if (!REDIRECT_STATUSES.includes(status as EdgeRedirect['status']))
		throw badRequest(`redirect.status must be one of ${REDIRECT_STATUSES.join(', ')}`);
	const location = stringAt(raw.location, 'redirect.location', 2000);
	if (!/^(https?:\/\/|\/)/.test(location) || /[\r\n]/.test(location))
		throw badRequest('redirect.location must be an http(s) URL or a path starting with /');
	return { status: status as EdgeRedirect['status'], location };
}

/** The object at `at` with only the `fields` named, and its status and Content-Type (defaults: 200, `contentType`). */
function answerHead(value: unknown, at: string, fields: string[], contentType: string) {
	const raw = objectAt(value, at);
	only(raw, ['status', 'contentType', ...fields], `${at}.`);
	return {
		raw,
		status: intOr(raw, 'status', at, 200, 200, 599),
		contentType: contentTypeAt(raw.contentType, `${at}.contentType`, contentType),
	};
}

function parseAnswer(value: unknown): EdgeAnswer {
	const { raw, status, contentType } = answerHead(
		value,
		'answer',
		['contentDisposition', 'body', 'png', 'trickleMs'],
		'application/json',
	);
	const answer: EdgeAnswer = {
		status,
		contentType,
		trickleMs: intOr(raw, 'trickleMs', 'answer', 0, 0, 60_000),
	};
	if (raw.contentDisposition !== undefined) {
		answer.contentDisposition = stringAt(raw.contentDisposition, 'answer.contentDisposition', 4000);
		if (/[\r\n]/.test(answer.contentDisposition))
			throw badRequest('answer.contentDisposition must be one line');
	}
	if (raw.body !== undefined) answer.body = stringAt(raw.body, 'answer.body', 20_000_000);
	if (raw.png !== undefined) answer.png = boolAt(raw.png, 'answer.png');
	if (answer.png && answer.body !== undefined)
		throw badRequest('answer.body and answer.png exclude each other');
	return answer;
}

function parseStream(value: unknown): EdgeStream {
	const { raw, status, contentType } = answerHead(
		value,
		'stream',
		['png', 'chunkBytes', 'everyMs', 'totalBytes'],
		'application/octet-stream',
	);
	const stream: EdgeStream = {
		status,
		contentType,
		png: raw.png === undefined ? false : boolAt(raw.png, 'stream.png'),
		chunkBytes: intOr(raw, 'chunkBytes', 'stream', 65_536, 1, 1_048_576),
		everyMs: intOr(raw, 'everyMs', 'stream', 0, 0, 60_000),
	};
	if (raw.totalBytes !== undefined)
		stream.totalBytes = intAt(raw.totalBytes, 'stream.totalBytes', 1, Number.MAX_SAFE_INTEGER);
	return stream;
}

/** A rule from a control request body; throws ApiError(400) naming the first bad field. */
export function parseEdgeRule(body: unknown, id: number): EdgeRule {
	const raw = objectAt(body, 'Body');
	only(raw, ['path', 'method', 'times', 'redirect', 'answer', 'stream'], '');
	const path = stringAt(raw.path, 'path', 2000);
	if (!path.startsWith('/') || path.includes('?'))
		throw badRequest('path must start with / and hold no query');
	const rule: EdgeRule = { id, path };
	if (raw.method !== undefined) {
		const method = stringAt(raw.method, 'method', 10).toUpperCase();
		if (!METHODS.includes(method)) throw badRequest(`method must be one of ${METHODS.join(', ')}`);
		rule.method = method;
	}
	if (raw.times !== undefined) rule.times = intAt(raw.times, 'times', 1, 1_000_000);
	const kinds = (['redirect', 'answer', 'stream'] as const).filter(
		(kind) => raw[kind] !== undefined,
	);
	if (kinds.length !== 1) throw badRequest('exactly one of redirect, answer, stream is required');
	if (raw.redirect !== undefined) rule.redirect = parseRedirect(raw.redirect);
	if (raw.answer !== undefined) rule.answer = parseAnswer(raw.answer);
	if (raw.stream !== undefined) rule.stream = parseStream(raw.stream);
	return rule;
}

// ---- answering ----

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function headersOf(
	contentType: string | null,
	extra: Record<string, string> = {},
): Record<string, string> {
	return { ...(contentType === null ? {} : { 'Content-Type': contentType }), ...extra };
}

/** Writes `body` one byte every `everyMs` ms; stops when the client goes away. */
function trickle(res: ServerResponse, body: Buffer, everyMs: number, log: EdgeAnswerLog): void {
	let at = 0;
	const timer = setInterval(() => {
		if (res.destroyed) return clearInterval(timer);
		if (at >= body.length) {
			clearInterval(timer);
			res.end(() => (log.finished = true));
			return;
		}
		res.write(body.subarray(at, at + 1));
		at += 1;
		log.bytesSent = at;
	}, everyMs);
	res.once('close', () => clearInterval(timer));
}

/** Writes chunks as the client takes them (or one every `everyMs`), up to `totalBytes` or for ever. */
function pump(res: ServerResponse, stream: EdgeStream, log: EdgeAnswerLog): void {
	const filler = Buffer.alloc(stream.chunkBytes, 0x41);
	let first = true;
	let timer: NodeJS.Timeout | undefined;
	res.once('close', () => timer && clearTimeout(timer));
	const next = (): void => {
		timer = undefined;
		for (;;) {
			if (res.destroyed) return;
			const left =
				stream.totalBytes === undefined ? filler.length : stream.totalBytes - log.bytesSent;
			if (left <= 0) {
				res.end(() => (log.finished = true));
				return;
			}
			let chunk = filler.subarray(0, Math.min(filler.length, left));
			if (first && stream.png)
				chunk = Buffer.concat([PNG_SIGNATURE, chunk]).subarray(0, chunk.length);
			first = false;
			const flowing = res.write(chunk);
			log.bytesSent += chunk.length;
			if (stream.everyMs > 0) {
				timer = setTimeout(next, stream.everyMs);
				return;
			}
			if (!flowing) {
				res.once('drain', next);
				return;
			}
		}
	};
	next();
}

function serve(entry: Entry, res: ServerResponse): void {
	const { rule } = entry;
	const log: EdgeAnswerLog = { bytesSent: 0, finished: false, closedEarly: false };
	entry.answers.push(log);
	if (entry.answers.length > MAX_ANSWERS) entry.answers.shift();
	res.once('close', () => {
		if (!log.finished) log.closedEarly = true;
	});
	if (rule.redirect) {
		const { location } = rule.redirect;
		const body = Buffer.from(
			`<html><body>Moved to <a href="${location}">${location}</a></body></html>`,
		);
		res.writeHead(rule.redirect.status, {
			Location: location,
			'Content-Type': 'text/html',
			'Content-Length': String(body.length),
		});
		log.bytesSent = body.length;
		res.end(body, () => (log.finished = true));
		return;
	}
	if (rule.answer) {
		const { answer } = rule;
		const body = answer.png ? coursePng(101) : Buffer.from(answer.body ?? '', 'utf8');
		const extra: Record<string, string> = answer.contentDisposition
			? { 'Content-Disposition': answer.contentDisposition }
			: {};
		if (answer.trickleMs > 0) {
			res.writeHead(answer.status, headersOf(answer.contentType, extra));
			trickle(res, body, answer.trickleMs, log);
			return;
		}
		res.writeHead(
			answer.status,
			headersOf(answer.contentType, { ...extra, 'Content-Length': String(body.length) }),
		);
		log.bytesSent = body.length;
		res.end(body, () => (log.finished = true));
		return;
	}
	const stream = rule.stream as EdgeStream;
	const length: Record<string, string> =
		stream.totalBytes === undefined ? {} : { 'Content-Length': String(stream.totalBytes) };
	res.writeHead(stream.status, headersOf(stream.contentType, length));
	pump(res, stream, log);
}

export class Edges {
	private entries: Entry[] = [];

	private nextId = 1;

	add(body: unknown): EdgeRule {
		if (this.entries.length >= MAX_RULES)
			throw badRequest(`at most ${MAX_RULES} rules; DELETE /sandbox/edges first`);
		const rule = parseEdgeRule(body, this.nextId);
		this.nextId += 1;
		this.entries.push({ rule, served: 0, answers: [] });
		return rule;
	}

	clear(): void {
		this.entries = [];
	}

	report(): Array<EdgeRule & { served: number; answers: EdgeAnswerLog[] }> {
		return this.entries.map((entry) => ({
			...entry.rule,
			served: entry.served,
			answers: entry.answers.map((log) => ({ ...log })),
		}));
	}

	/** Answers a request a rule matches (the oldest matching rule with uses left); passes the others on. */
	middleware(): RequestHandler {
		return (req, res, next) => {
			const path = req.path;
			const entry = this.entries.find(
				({ rule, served }) =>
					rule.path === path &&
					(rule.method === undefined || rule.method === req.method) &&
					(rule.times === undefined || served < rule.times),
			);
			if (!entry) return next();
			entry.served += 1;
			req.resume();
			serve(entry, res);
		};
	}
}

/** POST/GET/DELETE /sandbox/edges (mounted under /sandbox with a JSON body parser). */
export function edgeRoutes(edges: Edges): Router {
	const router = Router();
	router.post('/edges', (req, res) => {
		res.status(201).json({ rule: edges.add(req.body) });
	});
	router.get('/edges', (_req, res) => {
		res.json({ rules: edges.report() });
	});
	router.delete('/edges', (_req, res) => {
		edges.clear();
		res.status(204).end();
	});
	return router;
}

// ---- "another host" ----

export interface SeenRequest {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
}

export interface OtherHost {
	/** e.g. http://127.0.0.1:PORT (no trailing slash) */
	url: string;
	/** Every request received, oldest first. */
	seen: SeenRequest[];
	close(): Promise<void>;
}

/**
 * A second HTTP server on 127.0.0.1 that records every request's headers: a CDN, a sign-in page
 * or any host that is not the platform. Paths ending in .png answer a PNG (without any credential
 * check), everything else `200 {"message":"other host"}`.
 */
export async function startOtherHost(): Promise<OtherHost> {
	const seen: SeenRequest[] = [];
	const server = createServer((req, res) => {
		seen.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers } });
		req.resume();
		if ((req.url ?? '').split('?')[0].endsWith('.png')) {
			const png = coursePng(102);
			res
				.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(png.length) })
				.end(png);
			return;
		}
		res
			.writeHead(200, { 'Content-Type': 'application/json' })
			.end(JSON.stringify({ message: 'other host' }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
