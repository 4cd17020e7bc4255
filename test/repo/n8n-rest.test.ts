/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- development tooling: runs scripts/n8n/rest.mjs (the suites' n8n client) in a child Node against a local server; never inside n8n, not published */
/**
 * The suites' n8n client (scripts/n8n/rest.mjs) reads `/types/nodes.json`, the file n8n writes
 * anew after a package is installed: an answer that is not a list yet (half written) is asked again
 * until it is one, and one that never becomes a list fails with a message naming the file. Over
 * real HTTP on 127.0.0.1; the client runs in a child Node (it is an ES module).
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

/** nodeTypes() in a child Node: its result, or its error's message. */
function nodeTypesOf(url: string, timeoutMs: number): Promise<string> {
	const script = `import { N8nRest } from ${JSON.stringify(REST)};
new N8nRest(${JSON.stringify(url)}).nodeTypes({ timeoutMs: ${timeoutMs} }).then(
	(types) => console.log(JSON.stringify(types)),
	(error) => console.log('error: ' + error.message),
);`;
	return new Promise((resolve, reject) =>
		execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) =>
			error ? reject(error) : resolve(stdout.trim()),
		),
	);
}

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
