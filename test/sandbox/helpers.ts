/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/** Test helpers: an axios client for a sandbox and a tiny webhook receiver. Real HTTP only. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import axios, { type AxiosInstance } from 'axios';
import { DEMO, startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';

export { DEMO };

/** Client for /public/api/v1 with the given key; never throws on an HTTP status. */
export function apiClient(
	sandbox: Sandbox,
	apiKey: string = DEMO.apiKey,
	projectId: string = DEMO.projectId,
): AxiosInstance {
	return axios.create({
		baseURL: `${sandbox.url}/public/api/v1`,
		headers: { 'X-Api-Key': apiKey, 'X-Project-Id': projectId },
		validateStatus: () => true,
	});
}

/** Client for the /sandbox control endpoints. */
export function controlClient(sandbox: Sandbox): AxiosInstance {
	return axios.create({ baseURL: `${sandbox.url}/sandbox`, validateStatus: () => true });
}

/** Starts a sandbox for one test file; `get()` returns the current one. */
export function useSandbox(opts: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeEach(async () => {
		sandbox = await startSandbox({ port: 0, deliveryBackoffMs: 20, ...opts });
	});
	afterEach(async () => {
		await sandbox?.close();
		sandbox = undefined;
	});
	return () => {
		if (!sandbox) throw new Error('sandbox not started');
		return sandbox;
	};
}

export interface ReceivedCall {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: { id: string; type: string; data: Record<string, unknown> };
}

export interface Receiver {
	url: string;
	calls: ReceivedCall[];
	/** Status codes to answer, in order; after the list is used up: 200. */
	statuses: number[];
	close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
	const calls: ReceivedCall[] = [];
	const receiver = { calls, statuses: [] as number[] } as Omit<Receiver, 'url' | 'close'>;
	const server: Server = createServer((req, res) => {
		let raw = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => (raw += chunk));
		req.on('end', () => {
			calls.push({
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: JSON.parse(raw),
			});
			res.statusCode = receiver.statuses.shift() ?? 200;
			res.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return Object.assign(receiver, {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	});
}

export const futureDate = (days: number): string =>
	new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
