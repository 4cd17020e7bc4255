/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- development tooling: runs test/e2e/lib/form-upload.mjs (the suites' and bench row 11's form client) in a child Node against a local server; never inside n8n, not published */
/**
 * The form client of the e2e suites and bench row 11 follows an upload to the form's ending page
 * as n8n's form page does: its script (n8n's templates/form-trigger.handlebars, 2.41.1) stops
 * polling only at `form-waiting`, `success`, `null`, `canceled`, `crashed` or `error`, and polls
 * again after any other answer. While n8n's database ping fails, the status route answers an
 * error; the client took that for the end (bench row 11, 2026-12-07: "ending page" after 13 s,
 * 1 924 of 2 000 rows not written yet).
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CLIENT = pathToFileURL(join(__dirname, '..', 'e2e', 'lib', 'form-upload.mjs')).href;

/** A form whose status route gives `statuses` in turn ([code, text]; the last from then on). */
async function formServer(
	statuses: Array<[number, string]>,
): Promise<{ server: Server; url: string; polls: () => number }> {
	let polls = 0;
	let url = '';
	const server = createServer((req, res) => {
		if (req.method === 'POST' && req.url === '/form/f')
			return void res
				.writeHead(200, { 'content-type': 'application/json' })
				.end(JSON.stringify({ formWaitingUrl: `${url}/form-waiting/7` }));
		if (req.url?.startsWith('/form-waiting/7/n8n-execution-status')) {
			const [code, text] = statuses[Math.min(polls++, statuses.length - 1)];
			return void res.writeHead(code).end(text);
		}
		if (req.url === '/form-waiting/7')
			return void res
				.writeHead(200, { 'content-type': 'text/html' })
				.end('<h1>Every student is enrolled</h1><p>Created: 2</p>');
		res.writeHead(404).end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { server, url, polls: () => polls };
}

function upload(url: string, timeoutMs: number): Promise<Record<string, unknown>> {
	const script = `import { uploadToForm } from ${JSON.stringify(CLIENT)};
uploadToForm(${JSON.stringify(`${url}/form/f`)}, { file: { name: 'a.csv', content: 'email' }, timeoutMs: ${timeoutMs}, pollMs: 10 }).then(
	(r) => console.log(JSON.stringify({ executionState: r.executionState, title: r.title, pollErrors: r.pollErrors })),
	(error) => console.log(JSON.stringify({ error: error.message })),
);`;
	return new Promise((resolve, reject) =>
		execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) =>
			error ? reject(error) : resolve(JSON.parse(stdout.trim()) as Record<string, unknown>),
		),
	);
}

const DB_TIMED_OUT = '{"code":0,"message":"Database connection timed out"}';

test('an error answer of the status route is polled again, as the form page does, until the ending page', async () => {
	const form = await formServer([
		[200, 'running'],
		[500, DB_TIMED_OUT],
		[503, 'Service Unavailable'],
		[200, 'running'],
		[200, 'form-waiting'],
	]);
	try {
		expect(await upload(form.url, 10_000)).toEqual({
			executionState: 'form-waiting',
			title: 'Every student is enrolled',
			pollErrors: [`HTTP 500: ${DB_TIMED_OUT}`, 'HTTP 503: Service Unavailable'],
		});
		expect(form.polls()).toBe(5);
	} finally {
		form.server.close();
	}
});

test('an execution that ends in error ends the wait at once, with its state', async () => {
	const form = await formServer([
		[200, 'running'],
		[200, 'error'],
	]);
	try {
		expect(await upload(form.url, 10_000)).toEqual({ executionState: 'error', pollErrors: [] });
	} finally {
		form.server.close();
	}
});

test('a status route that keeps failing ends at the deadline, naming the state', async () => {
	const form = await formServer([[500, DB_TIMED_OUT]]);
	try {
		const got = await upload(form.url, 500);
		expect(String(got.error)).toMatch(/^the form's execution 7 is still .* after 500 ms$/);
	} finally {
		form.server.close();
	}
});
