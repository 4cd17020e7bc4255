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
 *          ?settled=first: once the first rule's first answer has ended (finished or closed early)
 *   DELETE /sandbox/edges   removes every rule
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router, type RequestHandler } from 'express';

import { badRequest } from './errors';
import { coursePng } from './image';
import { checkObject, is, type Schema } from './validation';

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
	/** Matching requests passed on to the API before the rule answers (e.g. the read after a write). */
	after?: number;
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
	/** Matching requests passed on because of `after`. */
	passed: number;
	answers: EdgeAnswerLog[];
}

// ---- strict validation (sandbox/validation.ts): an unknown field or a wrong value is a 400 naming it ----

/** What a rule's fields are called in messages ("colour is not a rule field here"). */
const NOUN = 'rule field';
const ONE_LINE = /^[^\r\n]*$/;
const oneLine = (maxLength: number) =>
	is.text({ pattern: ONE_LINE, meaning: 'one line of text', maxLength });
/** null: no Content-Type header at all. */
const contentType = is.text({
	nullable: true,
	pattern: ONE_LINE,
	meaning: 'one line of text',
	maxLength: 200,
});

const REDIRECT_SCHEMA: Schema = {
	status: is.oneOf(REDIRECT_STATUSES),
	location: is.text({
		pattern: /^(https?:\/\/|\/)[^\r\n]*$/,
		meaning: 'an http(s) URL or a path starting with /',
		maxLength: 2000,
	}),
};

/** What an answer and a stream both take: their status and Content-Type. */
const HEAD_SCHEMA: Schema = { status: is.integer(200, 599), contentType };

const ANSWER_SCHEMA: Schema = {
	...HEAD_SCHEMA,
	contentDisposition: oneLine(4000),
	body: is.text({ maxLength: 20_000_000 }),
	png: is.boolean,
	trickleMs: is.integer(0, 60_000),
};

const STREAM_SCHEMA: Schema = {
	...HEAD_SCHEMA,
	png: is.boolean,
	chunkBytes: is.integer(1, 1_048_576),
	everyMs: is.integer(0, 60_000),
	totalBytes: is.integer(1),
};

const RULE_SCHEMA: Schema = {
	path: is.text({
		pattern: /^\/[^?]*$/,
		meaning: 'a path that starts with / and holds no query',
		maxLength: 2000,
	}),
	// Taken in any case ("get" is GET).
	method: (value, field) =>
		is.oneOf(METHODS)(typeof value === 'string' ? value.toUpperCase() : value, field),
	times: is.integer(1, 1_000_000),
	after: is.integer(0, 1_000_000),
	redirect: is.shape(REDIRECT_SCHEMA, { required: ['location'], noun: NOUN }),
	answer: is.shape(ANSWER_SCHEMA, { noun: NOUN, oneOf: [{ names: ['body', 'png'] }] }),
	stream: is.shape(STREAM_SCHEMA, { noun: NOUN }),
};

/** A rule's body as RULE_SCHEMA has checked it. */
interface RuleBody {
	path: string;
	method?: string;
	times?: number;
	after?: number;
	redirect?: Partial<EdgeRedirect>;
	answer?: Partial<EdgeAnswer>;
	stream?: Partial<EdgeStream>;
}

/** A rule from a control request body; throws ApiError(400) naming the first bad field. */
export function parseEdgeRule(body: unknown, id: number): EdgeRule {
	const raw = checkObject(body, RULE_SCHEMA, 'body', {
		required: ['path'],
		noun: NOUN,
		oneOf: [{ names: ['redirect', 'answer', 'stream'], required: true }],
	}) as unknown as RuleBody;
	const rule: EdgeRule = { id, path: raw.path };
	if (raw.method !== undefined) rule.method = raw.method.toUpperCase();
	if (raw.times !== undefined) rule.times = raw.times;
	if (raw.after) rule.after = raw.after;
	const { redirect, answer, stream } = raw;
	if (redirect)
		rule.redirect = { status: redirect.status ?? 302, location: redirect.location as string };
	if (answer) {
		rule.answer = {
			status: answer.status ?? 200,
			contentType: answer.contentType === undefined ? 'application/json' : answer.contentType,
			trickleMs: answer.trickleMs ?? 0,
		};
		for (const key of ['contentDisposition', 'body', 'png'] as const)
			if (answer[key] !== undefined) Object.assign(rule.answer, { [key]: answer[key] });
	}
	if (stream) {
		rule.stream = {
			status: stream.status ?? 200,
			contentType:
				stream.contentType === undefined ? 'application/octet-stream' : stream.contentType,
			png: stream.png ?? false,
			chunkBytes: stream.chunkBytes ?? 65_536,
			everyMs: stream.everyMs ?? 0,
		};
		if (stream.totalBytes !== undefined) rule.stream.totalBytes = stream.totalBytes;
	}
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

function serve(entry: Entry, res: ServerResponse, settled: () => void): void {
	const { rule } = entry;
	const log: EdgeAnswerLog = { bytesSent: 0, finished: false, closedEarly: false };
	entry.answers.push(log);
	if (entry.answers.length > MAX_ANSWERS) entry.answers.shift();
	res.once('close', () => {
		if (!log.finished) log.closedEarly = true;
		settled();
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

	/** Called each time an answer has ended (finished, or closed by the client). */
	private readonly onSettled = new Set<() => void>();

	add(body: unknown): EdgeRule {
		if (this.entries.length >= MAX_RULES)
			throw badRequest(`at most ${MAX_RULES} rules; DELETE /sandbox/edges first`);
		const rule = parseEdgeRule(body, this.nextId);
		this.nextId += 1;
		this.entries.push({ rule, served: 0, passed: 0, answers: [] });
		return rule;
	}

	clear(): void {
		this.entries = [];
	}

	/** Resolves once the first rule's first answer has ended (finished, or closed early). */
	firstSettled(): Promise<void> {
		const done = () => {
			const log = this.entries[0]?.answers[0];
			return !!log && (log.finished || log.closedEarly);
		};
		if (done()) return Promise.resolve();
		return new Promise((resolve) => {
			const check = () => {
				if (!done()) return;
				this.onSettled.delete(check);
				resolve();
			};
			this.onSettled.add(check);
		});
	}

	report(): Array<EdgeRule & { served: number; answers: EdgeAnswerLog[] }> {
		return this.entries.map((entry) => ({
			...entry.rule,
			served: entry.served,
			answers: entry.answers.map((log) => ({ ...log })),
		}));
	}

	/**
	 * Answers a request a rule matches (the oldest matching rule with uses left), once `after`
	 * matching requests have gone on to the API; passes the others on.
	 */
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
			if (entry.passed < (entry.rule.after ?? 0)) {
				entry.passed += 1;
				return next();
			}
			entry.served += 1;
			req.resume();
			serve(entry, res, () => {
				for (const listener of [...this.onSettled]) listener();
			});
		};
	}
}

/** POST/GET/DELETE /sandbox/edges (mounted under /sandbox with a JSON body parser). */
export function edgeRoutes(edges: Edges): Router {
	const router = Router();
	router.post('/edges', (req, res) => {
		res.status(201).json({ rule: edges.add(req.body) });
	});
	router.get('/edges', async (req, res) => {
		// ?settled=first: answered once the first rule's first answer has ended.
		if (req.query.settled === 'first') await edges.firstSettled();
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
