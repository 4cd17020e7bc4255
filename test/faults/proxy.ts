/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * A scripted reverse proxy in front of the sandbox, serving it below a path prefix (as a tenant
 * URL does: the node's lock scope then differs from the sandbox's own URL, like another n8n
 * process). A script may hold a request before it is forwarded (to force an interleaving of two
 * writers), delay it past the client's timeout (the platform applies it late), or watch its answer.
 * A request is forwarded whole even when the client has given up on it: the platform got it.
 */
import {
	createServer,
	request as httpRequest,
	type IncomingMessage,
	type OutgoingHttpHeaders,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
	method: string;
	/** Path below the prefix, e.g. /public/api/v1/business-rule/course/101 */
	path: string;
	/** 0-based position among the requests this proxy received. */
	index: number;
	/** 0-based position among the requests of the same method. */
	methodIndex: number;
	body: string;
}

export interface ProxyScript {
	/** Awaited before the request is forwarded. */
	before?(request: ProxiedRequest): Promise<void> | void;
	/** An answer of the proxy's own: the request is then not forwarded (the platform never sees it). */
	answer?(request: ProxiedRequest): { status: number; body: string } | undefined;
	/** Called once the platform answered (the request was handled), before the client gets it. */
	after?(request: ProxiedRequest, status: number, body: string): void;
}

export interface ScriptedProxy {
	url: string;
	/** Every request with its status once answered (undefined while pending). */
	log: Array<ProxiedRequest & { status?: number; clientGone?: boolean }>;
	close(): Promise<void>;
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

export async function startScriptedProxy(
	target: string,
	prefix: string,
	script: ProxyScript = {},
): Promise<ScriptedProxy> {
	const targetUrl = new URL(target);
	const log: ScriptedProxy['log'] = [];
	const perMethod = new Map<string, number>();
	const server = createServer((req, res) => {
		void (async () => {
			const path = req.url ?? '/';
			if (!path.startsWith(`${prefix}/`)) {
				res
					.writeHead(404, { 'Content-Type': 'application/json' })
					.end('{"message":"outside the prefix"}');
				return;
			}
			const method = req.method ?? 'GET';
			const methodIndex = perMethod.get(method) ?? 0;
			perMethod.set(method, methodIndex + 1);
			const body = await readAll(req);
			const entry: ProxiedRequest & { status?: number; clientGone?: boolean } = {
				method,
				path: path.slice(prefix.length),
				index: log.length,
				methodIndex,
				body: body.toString('utf8'),
			};
			log.push(entry);
			res.once('close', () => {
				if (!res.writableFinished) entry.clientGone = true;
			});
			await script.before?.(entry);
			const own = script.answer?.(entry);
			if (own) {
				entry.status = own.status;
				res.writeHead(own.status, { 'Content-Type': 'application/json' }).end(own.body);
				return;
			}
			const headers = {
				...req.headers,
				host: targetUrl.host,
				'content-length': String(body.length),
			};
			const upstream = httpRequest(
				{ host: targetUrl.hostname, port: targetUrl.port, method, path: entry.path, headers },
				(answer) => {
					void readAll(answer).then((answerBody) => {
						entry.status = answer.statusCode ?? 502;
						script.after?.(entry, entry.status, answerBody.toString('utf8'));
						if (res.destroyed) return;
						res.writeHead(entry.status, answer.headers);
						res.end(answerBody);
					});
				},
			);
			upstream.on('error', () => res.destroy());
			upstream.end(body);
		})();
	});
	const { url, close } = await listenOnLoopback(server);
	return { url: `${url}${prefix}`, log, close };
}

/** Starts `server` on a free port of 127.0.0.1: its URL, and a close that also drops kept-alive connections. */
export async function listenOnLoopback(
	server: Server,
): Promise<{ url: string; close(): Promise<void> }> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/**
 * Streams one request to `target` unchanged and its answer back; `answered` sees the status before
 * the client does and may add headers to the answer.
 */
export function forwardTo(
	target: URL,
	req: IncomingMessage,
	res: ServerResponse,
	answered?: (status: number) => OutgoingHttpHeaders | void,
): void {
	const upstream = httpRequest(
		{
			host: target.hostname,
			port: target.port,
			method: req.method,
			path: req.url,
			headers: req.headers,
		},
		(answer) => {
			const status = answer.statusCode ?? 502;
			const extra = answered?.(status);
			res.writeHead(status, extra ? { ...answer.headers, ...extra } : answer.headers);
			answer.pipe(res);
		},
	);
	upstream.on('error', () => res.destroy());
	req.pipe(upstream);
}

/** A promise with its resolve function, to release a held request. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
	let resolve: () => void = () => {};
	const promise = new Promise<void>((r) => (resolve = r));
	return { promise, resolve };
}

export const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
