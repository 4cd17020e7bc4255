/**
 * The transport at the edges, over real HTTP against the sandbox's edge rules (sandbox/edges.ts)
 * and a second server playing another host: redirects never carry the credential to another
 * origin (actions, Get Image, the credential test, the trigger's registration; the Poll
 * Trigger's in test/poll/edges.test.ts), Timeout bounds the whole request (a trickling or endless answer is cut), answers have a
 * size bound, and a list that is not a list is an error.
 */
import type { IBinaryData, IDataObject, INodeParameters } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { coursePng } from '../../sandbox/image';
import { startOtherHost, type OtherHost } from '../../sandbox/edges';
import {
	clearEdges,
	edgeReport,
	setEdge,
	settledEdgeReport,
	testCredential,
	triggerHosts,
} from '../harness';
import {
	CREDENTIAL_TEST_BOUND_MS,
	credentialsFor,
	DEMO,
	rl,
	run,
	testCredentialWithin,
	useSandbox,
	knolyxTrigger,
} from './setup';

const ctx = useSandbox();
let other: OtherHost;
const hosts = triggerHosts();

beforeAll(async () => {
	other = await startOtherHost();
});
afterAll(async () => {
	await other.close();
});
afterEach(async () => {
	await hosts.endAll();
	other.seen.length = 0;
	await clearEdges(ctx.sandbox.url);
});

const API = '/public/api/v1';

const edge = async (rule: IDataObject) => await setEdge(ctx.sandbox.url, rule);
const edgeAnswers = async () => await settledEdgeReport(ctx.sandbox.url);

/** What the other host received of the credential: must stay empty. */
const leaked = () =>
	other.seen.flatMap((seen) =>
		['x-api-key', 'x-project-id'].filter((name) => seen.headers[name] !== undefined),
	);

const courseGet = (id: number, requestOptions: INodeParameters = {}): INodeParameters => ({
	resource: 'course',
	operation: 'get',
	courseId: rl(id),
	requestOptions,
});

describe("redirects: the credential never leaves the base URL's origin", () => {
	it.each([301, 302, 303, 307, 308])(
		'a read answered %i to another host fails naming where it pointed; that host sees no key',
		async (status) => {
			await edge({
				path: `${API}/course/101`,
				redirect: { status, location: `${other.url}/sign-in?next=%2Fcourse` },
			});
			const result = await run(ctx.sandbox, courseGet(101));
			expect(result.error?.message).toBe(
				`Knolyx redirected the request to another address (${other.url}/sign-in?next=%2Fcourse): not followed, so the API key is not sent there; check the base URL [${status}]`,
			);
			expect((result.error as { description?: string }).description).toContain('Base URL');
			expect(leaked()).toEqual([]);
		},
	);

	it("a redirect within the base URL's origin is followed, with the credential", async () => {
		await edge({
			path: `${API}/course/101`,
			redirect: { status: 307, location: `${API}/course/102` },
		});
		const result = await run(ctx.sandbox, courseGet(101));
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ id: 102 });
	});

	it('a redirect loop within the origin ends after a few hops with a clear error', async () => {
		await edge({
			path: `${API}/course/101`,
			redirect: { status: 302, location: `${API}/course/101` },
		});
		const result = await run(ctx.sandbox, courseGet(101));
		expect(result.error?.message).toMatch(/^Knolyx redirected the request more than 5 times/);
		expect((await edgeAnswers())[0].served).toBe(6);
	});

	it('Course → Get Image redirected to another host (a CDN) downloads the file there without the credential', async () => {
		await edge({
			path: `${API}/course/101/image`,
			redirect: { status: 302, location: `${other.url}/cdn/course-101.png` },
		});
		const result = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'getImage',
			courseId: rl(101),
		});
		expect(result.error).toBeUndefined();
		const binary = result.items[0].binary?.data as IBinaryData;
		expect(Buffer.from(binary.data, 'base64').equals(coursePng(102))).toBe(true);
		expect(binary.mimeType).toBe('image/png');
		expect(other.seen.map((seen) => seen.url)).toEqual(['/cdn/course-101.png']);
		expect(leaked()).toEqual([]);
	});

	it('the credential test refuses a base URL that redirects elsewhere and says why; the other host sees no key', async () => {
		await edge({ path: `${API}/key`, redirect: { status: 302, location: `${other.url}/login` } });
		const result = await testCredential(new KnolyxApi(), { ...credentialsFor(ctx.sandbox) });
		expect(result.status).toBe('Error');
		expect(result.message).toContain('redirects');
		expect(result.message).toContain('check the Base URL');
		expect(leaked()).toEqual([]);
	});

	it("the Knolyx Trigger's registration redirected to another host fails; that host sees no key", async () => {
		await edge({
			path: `${API}/webhook`,
			redirect: { status: 307, location: `${other.url}/webhook` },
		});
		const h = await hosts.start(knolyxTrigger(ctx.sandbox, ['COURSE_COMPLETED']));
		await expect(h.activate('trigger')).rejects.toThrow(
			/redirected the request to another address/,
		);
		expect(ctx.sandbox.state.webhooks.size).toBe(0);
		expect(leaked()).toEqual([]);
	});
});

describe('Timeout bounds the whole request', () => {
	it('a JSON answer that trickles one byte every 300 ms is cut at Timeout; the read is retried and succeeds', async () => {
		const slowBody = JSON.stringify({ id: 101, title: 'x'.repeat(2000) });
		await edge({ path: `${API}/course/101`, times: 1, answer: { body: slowBody, trickleMs: 300 } });
		const result = await run(ctx.sandbox, courseGet(101, { timeout: 1 }));
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ id: 101, title: expect.not.stringMatching(/^x+$/) });
		const [rule] = await edgeAnswers();
		expect(rule.answers[0]).toMatchObject({ finished: false, closedEarly: true });
		expect(rule.answers[0].bytesSent).toBeLessThan(slowBody.length);
	});

	it('a creation that trickles past Timeout on every attempt fails saying the Timeout ran out, not "Retry on Fail"', async () => {
		// A POST the platform may have applied is not simply resent: each attempt is checked
		// against the webhook list first (the edge answers without creating anything).
		await edge({
			path: `${API}/webhook`,
			method: 'POST',
			answer: {
				status: 201,
				body: JSON.stringify({ id: 5, pad: 'x'.repeat(100) }),
				trickleMs: 300,
			},
		});
		const result = await run(ctx.sandbox, {
			resource: 'webhook',
			operation: 'create',
			name: 'Slow',
			url: 'https://hooks.example.com/slow',
			requestOptions: { timeout: 1 },
		});
		expect(result.error?.message).toBe(
			'Knolyx did not answer within the Timeout (1 s per attempt) [ETIMEDOUT]',
		);
		expect((result.error as { description?: string }).description).toBe(
			"The request ran past the Timeout, from connecting to the last byte of the answer. Raise Timeout under the node's Request Options if Knolyx is slow, or run it again later.",
		);
		expect((await edgeAnswers())[0].served).toBeGreaterThan(1);
		expect(ctx.sandbox.state.webhooks.size).toBe(0);
	});

	it('an image that keeps streaming is cut at Timeout; the retry gets the image', async () => {
		await edge({
			path: `${API}/course/101/image`,
			times: 1,
			stream: { contentType: 'image/png', png: true, chunkBytes: 16_384, everyMs: 20 },
		});
		const result = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'getImage',
			courseId: rl(101),
			requestOptions: { timeout: 1 },
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ courseId: 101, fileSize: coursePng(101).length });
		const [rule] = await edgeAnswers();
		expect(rule.answers[0]).toMatchObject({ finished: false, closedEarly: true });
	});

	it('the credential test gives up on an answer that trickles (at its bound, 10 s; 1 s here)', async () => {
		// The answer would take 40 s; n8n's own timeout only fires on a connection gone idle.
		await edge({
			path: `${API}/key`,
			answer: { body: `{"key":"${'k'.repeat(200)}"}`, trickleMs: 200 },
		});
		const started = Date.now();
		const result = await testCredentialWithin(1000, credentialsFor(ctx.sandbox));
		expect(result.status).toBe('Error');
		expect(result.message).toBe('ERR_CANCELED');
		expect(Date.now() - started).toBeLessThan(CREDENTIAL_TEST_BOUND_MS);
		const [rule] = await edgeAnswers();
		expect(rule.answers[0]).toMatchObject({ finished: false, closedEarly: true });
	}, 25_000);
});

describe('answers have a size bound', () => {
	it('a JSON answer that never ends fails the item at 16 MiB with the limit, without reading the rest', async () => {
		await edge({ path: `${API}/course/101`, stream: { contentType: 'application/json' } });
		const result = await run(ctx.sandbox, courseGet(101));
		expect(result.error?.message).toBe(
			'Knolyx answered with more than 16 MiB, the most this node reads from one answer [200]',
		);
		const [rule] = await edgeAnswers();
		expect(rule.served).toBe(1);
		expect(rule.answers[0]).toMatchObject({ finished: false, closedEarly: true });
		expect(rule.answers[0].bytesSent).toBeLessThan(40 * 1024 * 1024);
	});

	it('a JSON answer announced larger than 16 MiB (Content-Length) fails before its body is read', async () => {
		await edge({
			path: `${API}/course`,
			stream: { contentType: 'application/json', totalBytes: 20 * 1024 * 1024 },
		});
		const result = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'getAll',
			returnAll: true,
		});
		expect(result.error?.message).toBe(
			'Knolyx answered with 20 MiB, more than the 16 MiB this node reads from one answer [200]',
		);
		const [rule] = await edgeAnswers();
		expect(rule.answers[0]).toMatchObject({ finished: false, closedEarly: true });
	});

	it('an image larger than 25 MiB fails the item with the size and the limit', async () => {
		await edge({
			path: `${API}/course/101/image`,
			stream: { contentType: 'image/png', png: true, totalBytes: 60 * 1024 * 1024 },
		});
		const result = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'getImage',
			courseId: rl(101),
		});
		expect(result.error?.message).toBe(
			'Knolyx answered with 60 MiB, more than the 25 MiB this node reads from one answer [200]',
		);
		expect((result.error as { description?: string }).description).toBe(
			'The file is larger than the 25 MiB the node downloads; the rest was not read.',
		);
		expect(result.items).toEqual([]);
		const [rule] = await edgeAnswers();
		expect(rule.answers[0]).toMatchObject({ finished: false, closedEarly: true });
		expect(rule.answers[0].bytesSent).toBeLessThan(60 * 1024 * 1024);
	});
});

describe('a list that is not a list', () => {
	it.each([
		['an unknown object', '{"status":"MAINTENANCE"}'],
		['null', 'null'],
		['a number', '42'],
	])(
		'Course → Get Many answered 200 with %s fails instead of returning nothing',
		async (_what, body) => {
			await edge({ path: `${API}/course`, answer: { body } });
			const result = await run(ctx.sandbox, {
				resource: 'course',
				operation: 'getAll',
				returnAll: true,
			});
			expect(result.error?.message).toBe(
				`Knolyx answered a list request with something that is not a list [200]`,
			);
			expect(result.items).toEqual([]);
		},
	);

	it("the platform's page object ({content, last}) is still read", async () => {
		await edge({
			path: `${API}/course`,
			answer: { body: JSON.stringify({ content: [{ id: 7, title: 'Paged' }], last: true }) },
		});
		const result = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'getAll',
			returnAll: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ id: 7, title: 'Paged' }]);
	});
});

describe("the sandbox's edge control checks what it is sent", () => {
	it.each([
		[{ path: '/x', answer: {}, colour: 'red' }, 'colour is not a rule field here'],
		[{ path: '/x', answer: { status: '200' } }, 'answer.status must be an integer'],
		[{ path: '/x', answer: { trickle: 5 } }, 'answer.trickle is not a rule field here'],
		[
			{ path: '/x', redirect: { status: 300, location: '/y' } },
			'redirect.status must be one of 301, 302, 303, 307, 308',
		],
		[
			{ path: '/x', redirect: { location: 'javascript:x' } },
			'redirect.location must be an http(s) URL',
		],
		[{ path: '/x', stream: { everyMs: true } }, 'stream.everyMs must be an integer'],
		[{ path: 'x', answer: {} }, 'path must be a path that starts with /'],
		[{ path: '/x' }, 'exactly one of redirect, answer, stream'],
		[{ path: '/x', answer: {}, stream: {} }, 'exactly one of redirect, answer, stream'],
		[{ path: '/x', times: 0, answer: {} }, 'times must be an integer'],
		[{ path: '/x', after: -1, answer: {} }, 'after must be an integer'],
		[{ path: '/x', answer: { contentType: 5 } }, 'answer.contentType must be one line of text'],
	])('%j → 400 naming the field', async (body, message) => {
		const res = await fetch(`${ctx.sandbox.url}/sandbox/edges`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		expect(res.status).toBe(400);
		expect(((await res.json()) as { message: string }).message).toContain(message);
		expect(await edgeReport(ctx.sandbox.url)).toEqual([]);
	});

	it('a rule with `times` answers that many requests, then the API answers as usual', async () => {
		await edge({
			path: `${API}/course/101`,
			times: 1,
			answer: { status: 503, body: '{"message":"edge"}' },
		});
		const first = await fetch(`${ctx.sandbox.url}${API}/course/101`, {
			headers: { 'X-Api-Key': DEMO.apiKey, 'X-Project-Id': DEMO.projectId },
		});
		const second = await fetch(`${ctx.sandbox.url}${API}/course/101`, {
			headers: { 'X-Api-Key': DEMO.apiKey, 'X-Project-Id': DEMO.projectId },
		});
		expect([first.status, second.status]).toEqual([503, 200]);
		expect((await edgeAnswers())[0]).toMatchObject({
			served: 1,
			answers: [{ finished: true, closedEarly: false }],
		});
	});

	it('a rule with `after` lets that many requests through to the API first, then answers', async () => {
		await edge({
			path: `${API}/course/101`,
			after: 2,
			times: 1,
			answer: { status: 503, body: '{"message":"edge"}' },
		});
		const statuses: number[] = [];
		for (let i = 0; i < 4; i++) {
			const answer = await fetch(`${ctx.sandbox.url}${API}/course/101`, {
				headers: { 'X-Api-Key': DEMO.apiKey, 'X-Project-Id': DEMO.projectId },
			});
			statuses.push(answer.status);
		}
		expect(statuses).toEqual([200, 200, 503, 200]);
		expect((await edgeAnswers())[0]).toMatchObject({ after: 2, served: 1 });
	});
});
