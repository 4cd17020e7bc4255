// End-to-end in a real n8n (the built package linked as a community package, one
// n8n process, own user folder, 127.0.0.1 only) against the Knolyx sandbox, whose
// edge rules (sandbox/edges.ts, POST /sandbox/edges) make the credential's base
// URL redirect to another host: a second HTTP server in this file that records
// every header it receives.
//
//   1. Course → Get run by n8n: the redirect to the other host is not followed, the
//      execution fails naming where it pointed, the other host sees no key.
//   2. Course → Get Image redirected to the other host (a CDN): the file is
//      downloaded there without the credential's headers.
//   3. The credential test the editor calls (POST /rest/credentials/test): Error,
//      saying that the base URL redirects (n8n 2.x shows the credential's message,
//      n8n 1.x its own "Request failed with status code 302"); the other host sees
//      no key.
//   4. Webhook → Create whose answer trickles past a 1 s Timeout on every attempt: the
//      execution fails with the node's own timeout message (n8n would put its generic
//      "consider setting Retry on Fail" text in its place), and nothing is created.
// Run with `npm run test:e2e -- test/e2e/redirect.e2e.test.mjs` (and `--n8n 1.123.81`).

import http from 'node:http';

import { N8N_MAJOR, N8N_VERSION } from '../../scripts/n8n-runtime.mjs';

import {
	chainWorkflow,
	KNOLYX_CREDENTIALS,
	runManually,
	startTestFile,
	testCredentialData,
	TYPES,
} from './lib/n8n.mjs';
import { endTestFile, RUN_DIR } from './lib/processes.mjs';
import { DEMO } from './lib/sandbox.mjs';

const API = '/public/api/v1';
const TRIGGER = 'Run';

/** Manual trigger → one Knolyx node, Course → `operation` of course 101. */
function courseWorkflow(id, name, nodeName, operation) {
	return chainWorkflow({
		id,
		name,
		nodes: [
			{ name: TRIGGER, type: 'n8n-nodes-base.manualTrigger' },
			{
				name: nodeName,
				type: TYPES.action,
				credentials: KNOLYX_CREDENTIALS,
				parameters: {
					resource: 'course',
					operation,
					courseId: { __rl: true, mode: 'id', value: '101' },
				},
			},
		],
	});
}

const WF = {
	slowCreate: chainWorkflow({
		id: 'e2eSlowCreation',
		name: 'e2e: Webhook → Create past its Timeout',
		nodes: [
			{ name: TRIGGER, type: 'n8n-nodes-base.manualTrigger' },
			{
				name: 'Create Webhook',
				type: TYPES.action,
				credentials: KNOLYX_CREDENTIALS,
				parameters: {
					resource: 'webhook',
					operation: 'create',
					name: 'Slow',
					url: 'https://hooks.example.com/slow',
					requestOptions: { timeout: 1 },
				},
			},
		],
	}),
	course: courseWorkflow(
		'e2eRedirectCours',
		'e2e: Course → Get behind a redirect',
		'Get Course',
		'get',
	),
	image: courseWorkflow('e2eRedirectImage', 'e2e: Course image on a CDN', 'Get Image', 'getImage'),
};

/** "Another host": answers a PNG for *.png, JSON otherwise, and records the headers of every request. */
async function startOtherHost() {
	const seen = [];
	// A 1×1 PNG: its signature and IHDR are all the node looks at.
	const png = Buffer.from(
		'89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
			'1f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f0c0a30000000049454e44ae426082',
		'hex',
	);
	const server = http.createServer((req, res) => {
		seen.push({ url: req.url, headers: { ...req.headers } });
		req.resume();
		if (req.url.split('?')[0].endsWith('.png'))
			res.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
		else res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"message":"other host"}');
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		seen,
		png,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** Header names of the credential that reached the other host: must stay empty. */
const leaked = (other) =>
	other.seen.flatMap((s) =>
		['x-api-key', 'x-project-id'].filter((name) => s.headers[name] !== undefined),
	);

let sandbox;
let n8n;
let rest;
let other;

async function edge(rule) {
	const res = await fetch(`${sandbox.url}/sandbox/edges`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(rule),
	});
	if (res.status !== 201) throw new Error(`edge rule refused: ${res.status} ${await res.text()}`);
}

beforeAll(async () => {
	other = await startOtherHost();
	({ sandbox, n8n, rest } = await startTestFile({ workflows: Object.values(WF) }));
	console.log(
		`[e2e redirect] run folder ${RUN_DIR}; sandbox ${sandbox.url}; n8n ${n8n.url}; other host ${other.url}`,
	);
}, 300_000);

afterEach(async () => {
	other.seen.length = 0;
	if (sandbox) await fetch(`${sandbox.url}/sandbox/edges`, { method: 'DELETE' });
});

afterAll(async () => {
	await other?.close();
	await endTestFile('redirect', { n8n, sandbox });
}, 60_000);

describe(`Redirects in n8n ${N8N_VERSION}: the credential stays on the base URL's host`, () => {
	test('Course → Get whose base URL redirects to another host fails naming it; that host sees no key', async () => {
		const target = `${other.url}/sign-in?next=%2Fcourse`;
		await edge({ path: `${API}/course/101`, redirect: { status: 302, location: target } });
		const ex = await runManually(rest, WF.course.id, TRIGGER);
		expect(ex.status).toBe('error');
		expect(ex.run.resultData.error.message).toBe(
			`Knolyx redirected the request to another address (${target}): not followed, so the API key is not sent there; check the base URL [302]`,
		);
		expect(leaked(other)).toEqual([]);
	});

	test('Course → Get Image redirected to a CDN is downloaded there without the credential', async () => {
		await edge({
			path: `${API}/course/101/image`,
			redirect: { status: 307, location: `${other.url}/cdn/course-101.png` },
		});
		const ex = await runManually(rest, WF.image.id, TRIGGER);
		expect({ status: ex.status, error: ex.run.resultData.error?.message }).toEqual({
			status: 'success',
			error: undefined,
		});
		const item = ex.run.resultData.runData['Get Image'][0].data.main[0][0];
		expect(item.json).toEqual({
			courseId: 101,
			fileName: 'course-101-image.png',
			mimeType: 'image/png',
			fileSize: other.png.length,
		});
		expect(other.seen.map((s) => s.url)).toEqual(['/cdn/course-101.png']);
		expect(leaked(other)).toEqual([]);
	});

	test('the credential test (POST /rest/credentials/test) says the base URL redirects; the other host sees no key', async () => {
		await edge({ path: `${API}/key`, redirect: { status: 302, location: `${other.url}/login` } });
		const result = await testCredentialData(rest, {
			type: 'knolyxApi',
			data: { baseUrl: sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.apiKey },
		});
		console.log(
			`[e2e redirect] n8n ${N8N_VERSION} (major ${N8N_MAJOR}) credential test: ${JSON.stringify(result)}`,
		);
		expect(result.status).toBe('Error');
		if (N8N_MAJOR >= 2) {
			// The credential's own rule for a redirect status.
			expect(result.message).toMatch(/redirects \(302\) to another address/);
			expect(result.message).toMatch(/check the Base URL/);
		} else {
			// n8n 1.x answers a failed test request with its own message before it looks at the
			// credential's rules (as for 401 and 404, see n8n.e2e.test.mjs): the status, not followed.
			expect(result.message).toBe('Request failed with status code 302');
		}
		expect(leaked(other)).toEqual([]);
	});

	test("Webhook → Create past its Timeout on every attempt fails with the node's timeout message; nothing is created", async () => {
		await edge({
			path: `${API}/webhook`,
			method: 'POST',
			answer: {
				status: 201,
				body: JSON.stringify({ id: 5, pad: 'x'.repeat(100) }),
				trickleMs: 300,
			},
		});
		const ex = await runManually(rest, WF.slowCreate.id, TRIGGER);
		expect(ex.status).toBe('error');
		expect(ex.run.resultData.error.message).toBe(
			'Knolyx did not answer within the Timeout (1 s per attempt) [ETIMEDOUT]',
		);
		expect(ex.run.resultData.error.description).toMatch(/^The request ran past the Timeout/);
		const hooks = await (
			await fetch(`${sandbox.url}${API}/webhook`, {
				headers: { 'X-Api-Key': DEMO.apiKey, 'X-Project-Id': DEMO.projectId },
			})
		).json();
		expect(hooks.filter((hook) => hook.url === 'https://hooks.example.com/slow')).toEqual([]);
	});
});
