/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The API key never comes back out of the node, wherever an answer carries it (issue 37, point 4):
 * a table of answers that send the key back (as a JSON value, as a field name, nested, spelled
 * with JSON escapes, percent-encoded, in a text body, in a web page, in request headers a proxy
 * echoes, in the error_description field) through every way an answer ends (4xx, 5xx, a 2xx of
 * the wrong shape, a web page where JSON was due, a 2xx read whose data echoes it, a redirect
 * elsewhere or in a loop, an answer too large, a 429 asking to wait too long),
 * each run without Continue On Fail, with it, and with the error output. Everything the run
 * produced (output items, error items, the error in every view, the whole run data) is searched
 * for every spelling of the key. Real HTTP against the sandbox's edge rules and faults. Logs:
 * test/faults/secrets.test.ts.
 */
import { inspect } from 'node:util';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { PERMISSIONS } from '../../sandbox';
import { clearEdges, runNode, setEdge } from '../harness';
import { DEMO, NODE_TYPE, rl, useSandbox } from './setup';

const ctx = useSandbox();
const API = '/public/api/v1';

/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key the sandbox is seeded with; the test proves it never leaks */
/** Base64-like, so its percent-encoded and JSON-escaped spellings differ from it. */
const KEY = 'kx_live_Q7f3c2b9e1d4/a6f80c5e2+Tz=';
/* eslint-enable @n8n/community-nodes/no-hardcoded-secrets */

/** Every spelling of the key an answer may hold. */
const SPELLINGS = [
	...new Set([
		KEY,
		encodeURIComponent(KEY),
		JSON.stringify(KEY).slice(1, -1),
		KEY.replace(/\//g, '\\/'),
	]),
];

/** The key written with a JSON escape for every character: only a JSON reader sees it. */
const ESCAPED = [...KEY]
	.map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
	.join('');

/** Bodies that carry the key back: [what, Content-Type, body]. */
const BODIES: Array<[string, string, string]> = [
	['a JSON value', 'application/json', JSON.stringify({ message: `Invalid API key ${KEY}` })],
	[
		'a JSON field name',
		'application/json',
		JSON.stringify({ status: 401, [KEY]: 'unknown key', message: 'Unauthorized' }),
	],
	[
		'a nested value and field name',
		'application/json',
		JSON.stringify({ error: { details: [{ apiKey: KEY, [KEY]: true }] }, message: 'No' }),
	],
	[
		'a JSON-escaped value and field name',
		'application/json',
		`{"message":"key ${ESCAPED} refused","${ESCAPED}":1}`,
	],
	[
		'a percent-encoded URL',
		'application/json',
		JSON.stringify({ message: `See https://x.example/keys?key=${encodeURIComponent(KEY)}` }),
	],
	[
		'the error_description field',
		'application/json',
		JSON.stringify({ error: 'invalid_token', error_description: `token ${KEY} expired` }),
	],
	['a text body', 'text/plain', `Invalid API key ${KEY}`],
	[
		'a web page',
		'text/html',
		`<html><body><h1>Unauthorized</h1><p>The key ${KEY} is not valid.</p></body></html>`,
	],
	[
		'request headers a proxy echoes',
		'text/plain',
		`GET ${API}/course/101 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${KEY}\r\nX-Project-Id: ${DEMO.projectId}\r\n\r\n`,
	],
	['a JSON list', 'application/json', JSON.stringify([{ echo: KEY, [KEY]: 'x' }])],
];

type Mode = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
const MODES: Mode[] = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'];

const COURSE_GET: INodeParameters = { resource: 'course', operation: 'get', courseId: rl(101) };

/** Everything a run produced, as text: items, error items, the error in every view, the run data. */
async function everythingOf(parameters: INodeParameters, onError: Mode): Promise<string> {
	const result = await runNode({
		nodeType: new Knolyx(),
		type: NODE_TYPE,
		parameters,
		items: [{}] as IDataObject[],
		credentials: {
			knolyxApi: { baseUrl: ctx.sandbox.url, projectId: DEMO.projectId, apiKey: KEY },
		},
		credentialTypes: [new KnolyxApi()],
		onError,
	});
	const error = result.error as (Error & Record<string, unknown>) | undefined;
	return [
		JSON.stringify(result.items),
		JSON.stringify(result.errorItems),
		error ? [error.message, String(error.description), String(error.stack)].join('\n') : '',
		error ? JSON.stringify(error) : '',
		error
			? JSON.stringify({
					context: error.context,
					cause: error.cause,
					errorResponse: error.errorResponse,
					messages: error.messages,
				})
			: '',
		inspect(error, { depth: 30, showHidden: true }),
		JSON.stringify(result.run),
		inspect(result.run, { depth: 30 }),
	].join('\n');
}

const leaked = (text: string) => SPELLINGS.filter((spelling) => text.includes(spelling));

/** Runs the node in every mode after `arrange`; the key must be in none of it. */
async function expectNoKey(
	arrange: () => Promise<void>,
	parameters: INodeParameters = COURSE_GET,
	shows?: RegExp,
): Promise<void> {
	for (const mode of MODES) {
		await arrange();
		const produced = await everythingOf(parameters, mode);
		if (shows) expect(produced).toMatch(shows);
		expect({ mode, leaked: leaked(produced) }).toEqual({ mode, leaked: [] });
		await clearEdges(ctx.sandbox.url);
		ctx.sandbox.resetFaults();
	}
}

const answer = (path: string, status: number, contentType: string, body: string) => async () =>
	await setEdge(ctx.sandbox.url, { path, answer: { status, contentType, body } });

beforeEach(() => {
	ctx.sandbox.seed({
		apiKeys: [{ apiKey: KEY, projectId: DEMO.projectId, permissions: [...PERMISSIONS] }],
	});
});

afterEach(async () => {
	await clearEdges(ctx.sandbox.url);
	ctx.sandbox.resetFaults();
});

describe('the API key sent back in an answer appears in nothing the run produces', () => {
	describe.each(BODIES)('in %s', (_what, contentType, body) => {
		it.each([400, 401, 403, 404, 409, 500])('an answer with status %d', async (status) => {
			await expectNoKey(answer(`${API}/course/101`, status, contentType, body), COURSE_GET);
		});

		it('a 2xx answer to a read (its data, or why it is not what was due)', async () => {
			await expectNoKey(answer(`${API}/course/101`, 200, contentType, body), COURSE_GET);
		});

		it('a 2xx answer to a list read (Webhook → Get Many)', async () => {
			await expectNoKey(answer(`${API}/webhook`, 200, contentType, body), {
				resource: 'webhook',
				operation: 'getAll',
			});
		});

		it('an answer to a rule read, read losslessly (Course Access Rule → Get Many, 200 and 400)', async () => {
			for (const status of [200, 400])
				await expectNoKey(answer(`${API}/business-rule/course/101`, status, contentType, body), {
					resource: 'rule',
					operation: 'getAll',
					courseId: rl(101),
				});
		});

		it('an answer to a file read (Course → Get Image, 404)', async () => {
			await expectNoKey(answer(`${API}/course/101/image`, 404, contentType, body), {
				resource: 'course',
				operation: 'getImage',
				courseId: rl(101),
			});
		});
	});

	it('a 2xx read whose data echoes the key: the item keeps the rest', async () => {
		await expectNoKey(
			answer(
				`${API}/course/101`,
				200,
				'application/json',
				JSON.stringify({ id: 101, title: 'Intro', headers: { 'x-api-key': KEY, [KEY]: 'k' } }),
			),
			COURSE_GET,
			/"title":"Intro"/,
		);
	});

	it('a redirect to another address carrying the key', async () => {
		await expectNoKey(
			async () =>
				await setEdge(ctx.sandbox.url, {
					path: `${API}/course/101`,
					redirect: {
						status: 302,
						location: `http://127.0.0.1:9/login?key=${encodeURIComponent(KEY)}&k2=${KEY}`,
					},
				}),
			COURSE_GET,
			/redirected the request to another address/,
		);
	});

	it('redirects in a loop, each carrying the key', async () => {
		await expectNoKey(
			async () =>
				await setEdge(ctx.sandbox.url, {
					path: `${API}/course/101`,
					redirect: { status: 302, location: `${API}/course/101?key=${encodeURIComponent(KEY)}` },
				}),
			COURSE_GET,
			/redirected the request more than/,
		);
	});

	it('an answer too large', async () => {
		await expectNoKey(
			async () =>
				await setEdge(ctx.sandbox.url, {
					path: `${API}/course/101`,
					stream: { contentType: 'application/json', totalBytes: 17 * 1024 * 1024 },
				}),
			COURSE_GET,
			/this node reads from one answer/,
		);
	});

	it.each([
		['a message', `Slow down, ${KEY}`],
		['a web page', `<html><body>Slow down, ${KEY}</body></html>`],
	])('a 429 asking to wait longer than the node waits, with the key in %s', async (_what, body) => {
		await expectNoKey(
			async () =>
				ctx.sandbox.setFaults({
					errorRate: 1,
					errorStatuses: [429],
					retryAfter: '3600',
					errorBody: body,
				}),
			COURSE_GET,
			/Retry-After/,
		);
	});
});
