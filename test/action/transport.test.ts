/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The transport as a workflow sees it, against the sandbox's fault injection: retries (429 with
 * Retry-After, 5xx bursts, lost connections), what is not retried, the credential test, the
 * error messages of 401/403/404, and the base URL forms (trailing slash, tenant path prefix).
 */
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { IBinaryData } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { demoKeyWithout } from '../../sandbox';
import { forwardTo, listenOnLoopback } from '../faults/proxy';
import { clearEdges, runNode, setEdge, testCredential } from '../harness';
import {
	credentialsFor,
	DEMO,
	NODE_TYPE,
	RULE_READ,
	RULE_SAVE,
	membership,
	rl,
	routes,
	run,
	runOk,
	startPrefixProxy,
	type PrefixProxy,
	useSandbox,
} from './setup';

const ctx = useSandbox();

const courseGet = { resource: 'course', operation: 'get', courseId: rl('={{ $json.id }}') };
const courseItems = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ id: 101 + (i % 3) }));

/** What a gateway in front of the sandbox does to one answer: replace it, or add headers to the sandbox's. */
type Rewrite =
	| { status: number; headers?: OutgoingHttpHeaders; body: string }
	| { addHeaders: OutgoingHttpHeaders };

interface Gateway {
	url: string;
	/** The rewrite of the next answers (undefined: pass them through). */
	rewrite: Rewrite | undefined;
	/** When each request arrived (ms since epoch). */
	arrivals: number[];
	close(): Promise<void>;
}

/**
 * A gateway in front of the sandbox, as a reverse proxy or a platform version would stand there:
 * real HTTP both ways; it answers what the sandbox does not (error bodies of other shapes, a file's
 * Content-Disposition).
 */
async function startGateway(target: string, gateway: Gateway): Promise<void> {
	const targetUrl = new URL(target);
	const server = createServer((req, res) => {
		gateway.arrivals.push(Date.now());
		const rewrite = gateway.rewrite;
		if (rewrite && 'status' in rewrite) {
			req.resume();
			res.writeHead(rewrite.status, rewrite.headers).end(rewrite.body);
			return;
		}
		forwardTo(targetUrl, req, res, () => rewrite?.addHeaders);
	});
	({ url: gateway.url, close: gateway.close } = await listenOnLoopback(server));
}

/** A gateway for the tests of one describe block: started before them, closed after them. */
function useGateway(): Gateway {
	const gateway: Gateway = {
		url: '',
		rewrite: undefined,
		arrivals: [],
		close: async () => undefined,
	};
	beforeAll(async () => await startGateway(ctx.sandbox.url, gateway));
	afterAll(async () => await gateway.close());
	return gateway;
}

describe('retries', () => {
	it('429 with Retry-After: waits as told, retries, and every item succeeds', async () => {
		ctx.sandbox.setFaults({ rateLimitPerSecond: 4 });
		const started = Date.now();
		const out = await runOk(ctx.sandbox, courseGet, courseItems(8));
		const elapsed = Date.now() - started;
		expect(out.map((course) => course.id)).toEqual(courseItems(8).map((item) => item.id));
		const stats = ctx.sandbox.stats();
		expect(stats.faultsInjected.rateLimit).toBeGreaterThan(0);
		expect(stats.requests).toBe(8 + stats.faultsInjected.rateLimit);
		// Retry-After is 1 second: nothing was retried before it passed.
		expect(elapsed).toBeGreaterThanOrEqual(1000);
	});

	it('a burst of 502/503/504 is retried until every item succeeds', async () => {
		ctx.sandbox.setFaults({ errorRate: 0.35, errorStatuses: [502, 503, 504], seed: 7 });
		const out = await runOk(ctx.sandbox, courseGet, courseItems(12));
		expect(out).toHaveLength(12);
		const stats = ctx.sandbox.stats();
		expect(stats.faultsInjected.error).toBeGreaterThan(0);
		expect(stats.requests).toBe(12 + stats.faultsInjected.error);
	});

	it('writes retried after a 503 are applied once (provision, add member)', async () => {
		ctx.sandbox.setFaults({ errorRate: 0.3, errorStatuses: [503], seed: 3 });
		const items = Array.from({ length: 6 }, (_, i) => ({ email: `retry${i}@example.com` }));
		const out = await runOk(
			ctx.sandbox,
			{
				resource: 'user',
				operation: 'enrol',
				email: '={{ $json.email }}',
				firstName: 'R',
				lastName: 'T',
				workgroupId: rl(201),
			},
			items,
		);
		expect(out.every((o) => o.created === true)).toBe(true);
		for (const { email } of items) expect(membership(ctx.sandbox, 201, email)).toBeDefined();
		expect(ctx.sandbox.state.onboardingEmails).toHaveLength(6);
		expect(ctx.sandbox.stats().duplicateWrites).toBe(0);
		expect(ctx.sandbox.stats().faultsInjected.error).toBeGreaterThan(0);
	});

	it('connections reset before the answer are retried for reads', async () => {
		ctx.sandbox.setFaults({ resetRate: 0.3, seed: 11 });
		const out = await runOk(ctx.sandbox, courseGet, courseItems(10));
		expect(out).toHaveLength(10);
		expect(ctx.sandbox.stats().faultsInjected.reset).toBeGreaterThan(0);
	});

	it('a 400 is not retried: one save, and the platform message names the bad field', async () => {
		const rules = JSON.stringify([
			{
				name: 'No type',
				startDateTime: '2030-01-01 00:00:00',
				endDateTime: '2031-01-01 00:00:00',
				restrictions: { minimumTime: false, browseOrder: 'anyOrder' },
				associations: {},
			},
		]);
		const result = await run(ctx.sandbox, {
			resource: 'rule',
			operation: 'replaceAll',
			courseId: rl(101),
			rules,
		});
		expect(result.error?.message).toBe(
			'Knolyx: rules[0].type must be one of PUBLIC, PRIVATE [400]',
		);
		// Replace All reads the list first (to tell, after a lost answer, whether its save was applied).
		expect(routes(ctx.sandbox)).toEqual({ [RULE_READ]: 1, [RULE_SAVE]: 1 });
		expect(ctx.sandbox.state.rules.get(101)).toHaveLength(1);
	});

	it('a 500 is not retried (the write may have been applied); an HTML error page is not dumped into the message', async () => {
		ctx.sandbox.setFaults({ malformedRate: 1 });
		const result = await run(ctx.sandbox, {
			resource: 'user',
			operation: 'provision',
			email: 'x@example.com',
			firstName: 'X',
			lastName: 'Y',
		});
		expect(result.error?.message).toBe('Knolyx answered with status 500');
		expect(ctx.sandbox.stats().requests).toBe(1);
	});
});

describe('the credential test', () => {
	const test = (data: Partial<{ baseUrl: string; projectId: string; apiKey: string }>) =>
		testCredential(new KnolyxApi(), {
			baseUrl: ctx.sandbox.url,
			projectId: DEMO.projectId,
			apiKey: DEMO.apiKey,
			...data,
		});

	it('is OK with a good key, even one without permissions', async () => {
		expect(await test({})).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(await test({ apiKey: DEMO.noPermissionApiKey })).toMatchObject({ status: 'OK' });
		expect(ctx.sandbox.stats().byRoute).toEqual({ 'GET /public/api/v1/key': 2 });
	});

	it('says clearly that the key or project id is wrong', async () => {
		for (const data of [{ apiKey: 'wrong-key' }, { projectId: 'wrong-project' }]) {
			const result = await test(data);
			expect(result.status).toBe('Error');
			expect(result.message).toContain('Knolyx refused the API key or the project ID (401)');
		}
	});

	it('says when the base URL has no Knolyx API', async () => {
		const result = await test({ baseUrl: `${ctx.sandbox.url}/not-knolyx` });
		expect(result).toMatchObject({
			status: 'Error',
			message: expect.stringContaining('No Knolyx API at this base URL'),
		});
	});
});

describe('error messages', () => {
	it.each([
		[
			'USER_PROVISION',
			{
				resource: 'user',
				operation: 'provision',
				email: 'x@example.com',
				firstName: 'X',
				lastName: 'Y',
			},
		],
		[
			'WORKGROUP_ADD_MEMBER',
			{
				resource: 'workgroup',
				operation: 'addMember',
				workgroupId: rl(201),
				email: 'ada@example.com',
			},
		],
		[
			'WORKGROUP_REMOVE_MEMBER',
			{
				resource: 'workgroup',
				operation: 'removeMember',
				workgroupId: rl(204),
				email: 'ada@example.com',
			},
		],
		['WORKGROUP_LIST', { resource: 'workgroup', operation: 'getAll' }],
		['COURSE_LIST', { resource: 'course', operation: 'getAll' }],
		['COURSE_GET', { resource: 'course', operation: 'get', courseId: rl(101) }],
		['WEBHOOK_MANAGE', { resource: 'webhook', operation: 'getAll' }],
		[
			'BUSINESS_RULE_MANAGE',
			{ resource: 'rule', operation: 'addWorkgroup', courseId: rl(101), workgroupId: rl(201) },
		],
		[
			'EVENT_MANAGE',
			{
				resource: 'event',
				operation: 'attend',
				communityId: '301',
				eventId: '401',
				userId: '1001',
			},
		],
	] as const)('403 names the missing permission %s', async (permission, parameters) => {
		const result = await run(ctx.sandbox, parameters, [{}], {
			credentials: { apiKey: demoKeyWithout(permission) },
		});
		expect(result.error?.message).toContain(permission);
		expect(result.error?.message).toContain('[403]');
		expect((result.error as { description?: string }).description).toContain(
			`lacks the ${permission} permission`,
		);
		expect(ctx.sandbox.stats().requests).toBe(1);
	});

	it('403 of a read-only key on a write names the permission', async () => {
		const result = await run(
			ctx.sandbox,
			{ resource: 'rule', operation: 'getAll', courseId: rl(101) },
			[{}],
			{ credentials: { apiKey: DEMO.readOnlyApiKey } },
		);
		expect(result.error?.message).toContain('BUSINESS_RULE_MANAGE');
	});

	it.each([
		['course 999', { resource: 'course', operation: 'get', courseId: rl(999) }],
		['course 998', { resource: 'rule', operation: 'getAll', courseId: rl(998) }],
		['course 997', { resource: 'rule', operation: 'delete', courseId: rl(997) }],
		[
			'workgroup 299 or user ada@example.com',
			{
				resource: 'workgroup',
				operation: 'addMember',
				workgroupId: rl(299),
				email: 'ada@example.com',
			},
		],
		[
			'user nobody@example.com',
			{
				resource: 'workgroup',
				operation: 'addMember',
				workgroupId: rl(201),
				email: 'nobody@example.com',
			},
		],
		['webhook 77', { resource: 'webhook', operation: 'get', webhookId: '77' }],
		['webhook 78', { resource: 'webhook', operation: 'ping', webhookId: '78' }],
		[
			'event 499 of community 301',
			{ resource: 'event', operation: 'get', communityId: '301', eventId: '499' },
		],
		['community 399', { resource: 'event', operation: 'getAll', communityId: '399' }],
		[
			'user 1999',
			{
				resource: 'event',
				operation: 'attend',
				communityId: '301',
				eventId: '401',
				userId: '1999',
			},
		],
	] as const)('404 names %s', async (what, parameters) => {
		const result = await run(ctx.sandbox, parameters);
		expect(result.error?.message).toContain(what);
		expect(result.error?.message).toContain('[404]');
		expect(ctx.sandbox.stats().requests).toBe(1);
	});

	it('a user without community access is refused attendance with a clear 403', async () => {
		const alan = ctx.demo.users['alan@example.com'];
		const result = await run(ctx.sandbox, {
			resource: 'event',
			operation: 'attend',
			communityId: '301',
			eventId: '401',
			userId: String(alan),
		});
		expect(result.error?.message).toBe(
			'Knolyx: User has no access to the community of this event [403]',
		);
		expect((result.error as { description?: string }).description).toContain(
			'add the user to a workgroup that gives access',
		);
		expect(ctx.sandbox.state.attendance.get(401)?.has(alan) ?? false).toBe(false);
	});
});

describe('base URL forms', () => {
	let proxy: PrefixProxy;
	beforeAll(async () => {
		proxy = await startPrefixProxy(ctx.sandbox.url, '/api');
	});
	afterAll(async () => {
		await proxy.close();
	});

	const bases = () => [
		`${ctx.sandbox.url}/`,
		`${ctx.sandbox.url}//`,
		` ${ctx.sandbox.url} `,
		proxy.url,
		`${proxy.url}/`,
	];

	it('trailing slashes, spaces and a tenant-like path prefix (/api) all reach the API', async () => {
		for (const baseUrl of bases()) {
			const [course] = await runOk(
				ctx.sandbox,
				{ resource: 'course', operation: 'get', courseId: rl(102) },
				[{}],
				{ credentials: { baseUrl } },
			);
			expect([baseUrl, course.title]).toEqual([baseUrl, 'Advanced Automation']);
			await runOk(
				ctx.sandbox,
				{
					resource: 'workgroup',
					operation: 'addMember',
					workgroupId: rl(202),
					email: 'alan@example.com',
				},
				[{}],
				{ credentials: { baseUrl } },
			);
		}
		expect(membership(ctx.sandbox, 202, 'alan@example.com')).toBeDefined();
		expect(Object.keys(ctx.sandbox.stats().byRoute).sort()).toEqual([
			'GET /public/api/v1/course/{id}',
			'PUT /public/api/v1/workgroup/{id}/member/{email}',
		]);
	});

	it('the credential test works with the same forms', async () => {
		for (const baseUrl of [`${ctx.sandbox.url}/`, proxy.url, `${proxy.url}/`]) {
			expect(
				await testCredential(new KnolyxApi(), {
					baseUrl,
					projectId: DEMO.projectId,
					apiKey: DEMO.apiKey,
				}),
			).toMatchObject({ status: 'OK' });
		}
	});
});

describe('Retry-After (the wait a 429 asks for)', () => {
	const gateway = useGateway();
	beforeEach(() => {
		gateway.rewrite = undefined;
		gateway.arrivals = [];
	});

	/** One course read whose first answer is a 429 with this Retry-After. */
	const readAfter429 = async (retryAfter: string) => {
		ctx.sandbox.setFaults({ errorRate: 1, errorStatuses: [429], maxFaults: 1, retryAfter });
		const result = await run(
			ctx.sandbox,
			{ resource: 'course', operation: 'get', courseId: rl(102) },
			[{}],
			{ credentials: { baseUrl: gateway.url } },
		);
		const gapMs =
			gateway.arrivals.length > 1 ? gateway.arrivals[1] - gateway.arrivals[0] : undefined;
		return { result, gapMs, requests: gateway.arrivals.length };
	};

	it.each([
		['2', 2000],
		['0.5', 500],
	])('whole or fractional seconds (%s) are waited before the retry', async (retryAfter, waitMs) => {
		const { result, gapMs, requests } = await readAfter429(retryAfter);
		expect(result.error).toBeUndefined();
		expect(result.json[0].title).toBe('Advanced Automation');
		expect(requests).toBe(2);
		// The normal first backoff is at most 250 ms: a longer gap is the Retry-After.
		expect(gapMs).toBeGreaterThanOrEqual(waitMs - 5);
	});

	it.each([
		['seconds', '7200'],
		['an HTTP date', new Date(Date.now() + 7_200_500).toUTCString()],
	])(
		'a wait longer than the node waits, given as %s, fails the item at once, naming the wait',
		async (_form, retryAfter) => {
			const { result, requests } = await readAfter429(retryAfter);
			expect(result.error?.message).toBe(
				'Knolyx: Knolyx asked to wait 2 h before retrying (Retry-After), longer than the node waits for one item (120 s) [429]',
			);
			expect(requests).toBe(1);
		},
	);

	it.each([
		['an HTTP date in the past', new Date(0).toUTCString()],
		['a word', 'soon'],
		['a negative number', '-5'],
		['a bare number that is no date', '+-3'],
	])('%s gets the normal backoff, and the retry succeeds', async (_what, retryAfter) => {
		const { result, requests } = await readAfter429(retryAfter);
		expect(result.error).toBeUndefined();
		expect(result.json[0].title).toBe('Advanced Automation');
		expect(requests).toBe(2);
	});
});

describe('the platform message of an error answer, whatever its shape', () => {
	const gateway = useGateway();

	const json = { 'Content-Type': 'application/json' };
	const text = { 'Content-Type': 'text/plain' };
	it.each([
		['message', json, JSON.stringify({ message: 'm' }), 'Knolyx: m [400]'],
		[
			'error_description',
			json,
			JSON.stringify({ error: 'invalid_request', error_description: 'd' }),
			'Knolyx: d [400]',
		],
		['detail', json, JSON.stringify({ title: 'Bad Request', detail: 'x' }), 'Knolyx: x [400]'],
		['error alone', json, JSON.stringify({ error: 'e' }), 'Knolyx: e [400]'],
		['plain text', text, 'plain text', 'Knolyx: plain text [400]'],
		['blank text', text, '  ', 'Knolyx answered with status 400'],
		['an empty message', json, JSON.stringify({ message: '' }), 'Knolyx answered with status 400'],
		[
			'a message of 400 characters (cut to 300)',
			json,
			JSON.stringify({ message: 'x'.repeat(400) }),
			`Knolyx: ${'x'.repeat(300)}… [400]`,
		],
		[
			'plain text of 400 characters (cut to 300)',
			text,
			'y'.repeat(400),
			`Knolyx: ${'y'.repeat(300)}… [400]`,
		],
	])('%s', async (_shape, headers, body, message) => {
		gateway.rewrite = { status: 400, headers, body };
		const result = await run(
			ctx.sandbox,
			{ resource: 'course', operation: 'get', courseId: rl(102) },
			[{}],
			{ credentials: { baseUrl: gateway.url } },
		);
		expect(result.error?.message).toBe(message);
	});
});

describe('the file name of a course image (Content-Disposition)', () => {
	const gateway = useGateway();

	it.each([
		['attachment; filename="cover.png"', 'cover.png'],
		// The extension follows the bytes (a PNG here); < > : " | ? * become '_' (helpers/fileName.ts).
		['inline; filename=cover.jpg', 'cover.png'],
		[
			'attachment; filename="fallback.png"; filename*=UTF-8\'\'caf%C3%A9%20cover.png',
			'café cover.png',
		],
		['attachment; filename="say \\"hi\\".png"', 'say _hi_.png'],
		['attachment; filename="../../etc/passwd"', 'passwd.png'],
		['attachment; filename="C:\\\\temp\\\\x.png"', 'x.png'],
		// A right-to-left override (U+202E) would show "a…exe.png"; a header carries it percent-encoded.
		["attachment; filename*=UTF-8''a%E2%80%AEgnp.exe", 'agnp.png'],
		['attachment; filename*=UTF-8\'\'%E0%A4%A; filename="plain.png"', 'plain.png'],
		['attachment; filename=".."', undefined],
		['attachment', undefined],
		[undefined, undefined],
	])('%s → %s', async (contentDisposition, expected) => {
		gateway.rewrite =
			contentDisposition === undefined
				? undefined
				: { addHeaders: { 'Content-Disposition': contentDisposition } };
		const result = await runNode({
			nodeType: new Knolyx(),
			type: NODE_TYPE,
			parameters: { resource: 'course', operation: 'getImage', courseId: rl(101) },
			items: [{}],
			credentials: { knolyxApi: { ...credentialsFor(ctx.sandbox, { baseUrl: gateway.url }) } },
			credentialTypes: [new KnolyxApi()],
		});
		expect(result.error).toBeUndefined();
		const fileName = expected ?? 'course-101-image.png';
		expect(result.items[0].json).toMatchObject({ courseId: 101, fileName, mimeType: 'image/png' });
		expect((result.items[0].binary?.data as IBinaryData).fileName).toBe(fileName);
	});
});

describe('the id of a created webhook, whatever the shape of the answer', () => {
	afterEach(async () => await clearEdges(ctx.sandbox.url));

	// An edge rule answers the creation (POST) as a platform version with another creation answer
	// would; the list read before it is the sandbox's own.
	it.each([
		['{ id, name }', JSON.stringify({ id: 12, name: 'x' }), 12],
		['{ webhookId }', JSON.stringify({ webhookId: 'a1b2c3d4e5f60718' }), 'a1b2c3d4e5f60718'],
		['a bare number', '13', '13'],
		['a bare string', JSON.stringify('14'), '14'],
	])('%s', async (_shape, body, id) => {
		await setEdge(ctx.sandbox.url, {
			path: '/public/api/v1/webhook',
			method: 'POST',
			answer: { body },
		});
		const [out] = await runOk(ctx.sandbox, {
			resource: 'webhook',
			operation: 'create',
			name: 'Shapes',
			url: 'https://example.com/hook',
		});
		expect(out.id).toEqual(id);
	});

	// Issue 35: no id, and none in the list (the edge answered, nothing was created): a failure
	// naming the webhook, never an output without an id.
	// Issue 55: a token that is not unmistakably an id ("ab", " cd ", a word, 0) is asked of the
	// list, never taken from the answer (these were ids before: a301be0); here the list does not
	// hold it (the edge answered, nothing was created).
	it.each([
		['an empty object', '{}'],
		['an empty string', JSON.stringify('')],
		['{ webhookId: "ab" }', JSON.stringify({ webhookId: 'ab' })],
		['the bare string " cd "', JSON.stringify(' cd ')],
		['{ id: 0 }', JSON.stringify({ id: 0 })],
	])('%s: fails naming the webhook', async (_shape, body) => {
		await setEdge(ctx.sandbox.url, {
			path: '/public/api/v1/webhook',
			method: 'POST',
			answer: { body },
		});
		const result = await run(ctx.sandbox, {
			resource: 'webhook',
			operation: 'create',
			name: 'Shapes',
			url: 'https://example.com/hook',
		});
		expect(result.error?.message).toBe(
			'Knolyx accepted the webhook "Shapes" for https://example.com/hook but did not return its ID, and it is not in the webhook list',
		);
	});
});
