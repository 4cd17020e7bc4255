/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- development tooling: runs scripts/n8n/rest.mjs (the suites' n8n client) in a child Node against a local server; never inside n8n, not published */
/**
 * The suites' n8n client (scripts/n8n/rest.mjs) reads `/types/nodes.json`, the file n8n writes
 * anew after a package is installed: an answer that is not a list yet (half written) is asked again
 * until it is one, and one that never becomes a list fails with a message naming the file. A request
 * n8n turned away because its database was not ready (its 503 before any route runs) is sent again
 * until n8n takes it. Over real HTTP on 127.0.0.1; the client runs in a child Node (it is an ES
 * module).
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const REST = pathToFileURL(join(__dirname, '..', '..', 'scripts', 'n8n', 'rest.mjs')).href;

/** A server whose nth answer to /types/nodes.json is answers[n] (the last one from then on). */
async function typesServer(answers: string[]): Promise<{ server: Server; url: string }> {
	let n = 0;
	const server = createServer((req, res) => {
		const body = answers[Math.min(n++, answers.length - 1)];
		res.writeHead(200, { 'content-type': 'application/json' }).end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A call of the client in a child Node (`call`: on `client`): its result as JSON, or its error's message. */
function clientCall(url: string, call: string): Promise<string> {
	const script = `import { N8nRest } from ${JSON.stringify(REST)};
const client = new N8nRest(${JSON.stringify(url)});
${call}.then(
	(result) => console.log(JSON.stringify(result)),
	(error) => console.log('error: ' + error.message),
);`;
	return new Promise((resolve, reject) =>
		execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) =>
			error ? reject(error) : resolve(stdout.trim()),
		),
	);
}

const nodeTypesOf = (url: string, timeoutMs: number) =>
	clientCall(url, `client.nodeTypes({ timeoutMs: ${timeoutMs} })`);

test('a node types file still being written is read again until it is a list', async () => {
	const { server, url } = await typesServer(['[{"name":"n8n-nodes-knolyx.kno', '[{"name":"a"}]']);
	try {
		expect(await nodeTypesOf(url, 10_000)).toBe('[{"name":"a"}]');
	} finally {
		server.close();
	}
});

test('one that never becomes a list fails, naming the file and what it held', async () => {
	const { server, url } = await typesServer(['<html>not yet</html>']);
	try {
		expect(await nodeTypesOf(url, 1_000)).toBe(
			'error: n8n GET /types/nodes.json: no list of node types after 1 s: <html>not yet</html>',
		);
	} finally {
		server.close();
	}
});

/** A server that turns the first `refusals` requests away as n8n does while its database ping fails; records what reached it. */
async function notReadyServer(
	refusals: number,
): Promise<{ server: Server; url: string; seen: string[] }> {
	let n = 0;
	const seen: string[] = [];
	const server = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			if (n++ < refusals) {
				res
					.writeHead(503, { 'content-type': 'application/json' })
					.end('{"code":503,"message":"Database is not ready!"}');
				return;
			}
			seen.push(`${req.method} ${req.url} ${body}`);
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"ok":true}}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** request() in a child Node: its result, or its error's message. */
const requestOf = (url: string, method: string, path: string, body?: unknown) =>
	clientCall(
		url,
		`client.request(${JSON.stringify(method)}, ${JSON.stringify(path)}, ${body === undefined ? 'undefined' : JSON.stringify(body)})`,
	);

test('a request n8n turned away with "Database is not ready!" is sent again until n8n takes it, once', async () => {
	const { server, url, seen } = await notReadyServer(2);
	try {
		expect(
			await requestOf(url, 'PATCH', '/rest/community-packages', { name: 'n8n-nodes-knolyx' }),
		).toBe('{"ok":true}');
		expect(seen).toEqual(['PATCH /rest/community-packages {"name":"n8n-nodes-knolyx"}']);
	} finally {
		server.close();
	}
});

test('other 503 answers are not sent again', async () => {
	const server = createServer((_req, res) => {
		res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"busy"}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		expect(await requestOf(url, 'GET', '/rest/x')).toBe(
			'error: n8n GET /rest/x: HTTP 503 {"message":"busy"}',
		);
	} finally {
		server.close();
	}
});
