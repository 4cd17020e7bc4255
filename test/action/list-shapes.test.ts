/**
 * Issue 45, lists: every shape a paged list may take (docs/api.md "Lists"), each a row of a
 * table run through a real n8n-core workflow over real HTTP against the sandbox, which plays the
 * shape as a variant (sandbox/variants.ts), a fault or, for answers no platform state gives (a
 * page object that contradicts itself, a list served in a new order on each read), as edge rules
 * answered in turn. Each row asserts what the node outputs (every entry once) or the error naming
 * what the page object said, and how many requests it took.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { VariantName } from '../../sandbox';
import { shuffled } from '../../sandbox/variants';
import { clearEdges, edgeReport, setEdge } from '../harness';
import { listSearch, routes, run, useSandbox } from './setup';

const ctx = useSandbox();
beforeEach(async () => {
	ctx.sandbox.setVariants([]);
	await clearEdges(ctx.sandbox.url);
});

const COURSES = '/public/api/v1/course';
const courseGetMany = (limit?: number): INodeParameters => ({
	resource: 'course',
	operation: 'getAll',
	...(limit === undefined ? { returnAll: true } : { returnAll: false, limit }),
});
const courses = (from: number, count: number) =>
	Array.from({ length: count }, (_, i) => ({ id: from + i, title: `Course ${from + i}` }));

/** Edge rules on the course list, one answer each, served in turn (the last one for every read after). */
async function serveInTurn(bodies: unknown[]): Promise<void> {
	for (const [i, body] of bodies.entries())
		await setEdge(ctx.sandbox.url, {
			path: COURSES,
			method: 'GET',
			...(i < bodies.length - 1 && { times: 1 }),
			answer: { status: 200, contentType: 'application/json', body: JSON.stringify(body) },
		});
}

interface Shape {
	shape: string;
	/** Courses on the platform (the demo's 3 included); edge rows serve their own. */
	total?: number;
	variants?: VariantName[];
	repeatPages?: boolean;
	edges?: unknown[];
	limit?: number;
	/** The entries output, each once (their count)… */
	outputs?: number;
	/** …or the error naming what came. */
	error?: RegExp;
	requests: number;
}

const SHAPES: Shape[] = [
	{ shape: 'size honoured (100 a page)', total: 300, outputs: 300, requests: 4 },
	{
		shape: 'size clamped below (30 a page)',
		total: 300,
		variants: ['smallPages'],
		outputs: 300,
		requests: 11,
	},
	{
		shape: "the platform's own larger size (150 a page)",
		total: 300,
		variants: ['largePages'],
		outputs: 300,
		requests: 3,
	},
	{
		shape: "the platform's own larger size (150 a page), Limit 200",
		total: 300,
		variants: ['largePages'],
		limit: 200,
		outputs: 200,
		requests: 2,
	},
	{
		shape: 'page number ignored, size honoured',
		total: 150,
		repeatPages: true,
		error: /does not end: page 1 repeats page 0/,
		requests: 3,
	},
	{
		shape: 'page number ignored, its own 20 a page, page objects saying last: false and 300',
		edges: [{ content: courses(1, 20), last: false, totalElements: 300 }],
		error:
			/does not end: page 1 repeats entries already read, but it says totalElements 300, and 20 entries came/,
		requests: 2,
	},
	{
		shape: 'page and size ignored (the list served whole)',
		total: 300,
		variants: ['unpagedLists'],
		outputs: 300,
		requests: 2,
	},
	{
		shape: 'page objects without last or totals, the last page repeated past the end',
		total: 300,
		variants: ['pageObjects'],
		outputs: 300,
		requests: 4,
	},
	{
		shape: 'page objects with last and totals',
		total: 300,
		variants: ['pageTotals'],
		outputs: 300,
		requests: 3,
	},
	{
		shape: 'an empty first page whose page object says totalElements 300',
		edges: [{ content: [], totalElements: 300 }],
		error: /does not end: page 0 is empty, but it says totalElements 300, and 0 entries came/,
		requests: 1,
	},
	{
		shape: 'a page object saying last: true short of its totalElements',
		edges: [{ content: courses(1, 20), last: true, totalElements: 300 }],
		error: /page 0 says it is the last, with totalElements 300, after 20 entries/,
		requests: 1,
	},
	{
		// Page 2 mixes entries read before with new ones, as a list that moved would: read again
		// whole, and the two reads agree (issue 55).
		shape: 'pages that wrap past the end to the start (250 at 100 a page)',
		total: 250,
		variants: ['wrappingPages'],
		outputs: 250,
		requests: 8,
	},
	{
		shape: 'served whole, in another order on each read',
		edges: [courses(1, 60), shuffled(courses(1, 60), 1), shuffled(courses(1, 60), 2)],
		outputs: 60,
		requests: 2,
	},
	{
		shape: 'served whole, in another order on each read, Limit 120',
		edges: [courses(1, 60), shuffled(courses(1, 60), 1), shuffled(courses(1, 60), 2)],
		limit: 120,
		outputs: 60,
		requests: 2,
	},
	{
		// Read again until two reads agree (issue 55): the third and fourth reads list the same 61.
		shape: 'served whole, gaining an entry between two reads',
		edges: [courses(1, 60), courses(1, 61)],
		outputs: 61,
		requests: 5,
	},
	{
		// The entry removed between the two reads is not output (it was, as the 60th, before
		// issue 55): the third and fourth reads agree on 59.
		shape: 'served whole, losing an entry between two reads',
		edges: [courses(1, 60), courses(2, 59)],
		outputs: 59,
		requests: 4,
	},
	{
		// Issue 55: a short page in the middle is no end; it costs the empty page after the last.
		shape: 'a page shortened in the middle (100, 95, 100, 40)',
		edges: [courses(1, 100), courses(101, 95), courses(196, 100), courses(296, 40), []],
		outputs: 335,
		requests: 5,
	},
	{
		// Issue 55: a list served whole that differs on every read (four reads, none agreeing).
		shape: 'served whole, other entries on every read',
		edges: [
			courses(1, 60),
			courses(2, 59),
			courses(101, 60),
			courses(102, 59),
			courses(201, 60),
			courses(202, 59),
			courses(301, 60),
			courses(302, 59),
		],
		error:
			/the list \/course changed while it was read: read 4 times, it changed each time \(the last read lists 60 entries; gone since the read before: 201, 202, 203, 204, 205, …; new: 301, 302, 303, 304, 305, …\)/,
		requests: 8,
	},
];

describe('Course → Get Many under every list shape (docs/api.md, Lists)', () => {
	it.each(SHAPES.map((row) => [row.shape, row] as const))('%s', async (_shape, row) => {
		if (row.total !== undefined) ctx.sandbox.seed({ generate: { courses: row.total - 3 } });
		if (row.edges) await serveInTurn(row.edges);
		if (row.repeatPages) ctx.sandbox.setFaults({ repeatPages: true });
		ctx.sandbox.setVariants(row.variants ?? []);
		const result = await run(ctx.sandbox, courseGetMany(row.limit), [{}], {
			continueOnFail: true,
		});
		const requests = row.edges
			? (await edgeReport(ctx.sandbox.url)).reduce((sum, rule) => sum + rule.served, 0)
			: (routes(ctx.sandbox)[`GET ${COURSES}`] ?? 0);
		if (row.error) {
			expect(result.json).toHaveLength(1);
			expect(String(result.json[0].error)).toMatch(row.error);
		} else {
			expect(result.json.map((entry) => entry.error)).not.toContainEqual(expect.anything());
			expect(result.json).toHaveLength(row.outputs as number);
			expect(new Set(result.json.map((entry) => entry.id)).size).toBe(row.outputs);
		}
		expect(requests).toBe(row.requests);
	});
});

describe('a list that moves while its pages are read (issue 55)', () => {
	it('the Course picker: a page shortened in the middle (100, 95, 100, 40) gives all 335', async () => {
		await serveInTurn([courses(1, 100), courses(101, 95), courses(196, 100), courses(296, 40), []]);
		const picked = await listSearch(ctx.sandbox, 'searchCourses');
		expect(new Set(picked.results.map((choice) => choice.value)).size).toBe(335);
	});

	it('Course → Get Many: a course moved to the front between pages 1 and 2 is read again, 300 of 300', async () => {
		ctx.sandbox.seed({ generate: { courses: 297 } });
		const ids = [...ctx.sandbox.state.courses.keys()];
		expect(ids).toHaveLength(300);
		const res = await fetch(`${ctx.sandbox.url}/sandbox/read-edits`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ list: 'courses', id: ids[250], action: 'moveToFront', beforePage: 2 }),
		});
		expect(res.status).toBeLessThan(300);
		const result = await run(ctx.sandbox, courseGetMany());
		expect(result.error).toBeUndefined();
		expect(result.json.map((course) => course.id).sort((a, b) => Number(a) - Number(b))).toEqual(
			[...ids].sort((a, b) => a - b),
		);
		// The read that moved (4 pages, page 2 mixing a course read before with new ones), then
		// two reads that agree (4 pages each).
		expect(routes(ctx.sandbox)[`GET ${COURSES}`]).toBe(12);
	});
});

describe("every list the node reads, at the platform's own page size", () => {
	const control = async (path: string, body: unknown) =>
		await fetch(`${ctx.sandbox.url}/sandbox${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
	const ids = (entries: Array<{ id?: unknown; value?: unknown }>, field: 'id' | 'value') =>
		new Set(entries.map((entry) => entry[field])).size;

	it('Course → Get Many, Limit 200 and the Course picker: 300 courses served 150 a page', async () => {
		ctx.sandbox.seed({ generate: { courses: 297 } });
		ctx.sandbox.setVariants(['largePages']);
		const all = await run(ctx.sandbox, courseGetMany());
		expect(ids(all.json as Array<{ id: unknown }>, 'id')).toBe(300);
		expect((await run(ctx.sandbox, courseGetMany(200))).json).toHaveLength(200);
		const picked = await listSearch(ctx.sandbox, 'searchCourses');
		expect(ids(picked.results, 'value')).toBe(300);
	});

	it('Event → Get Many, Event → Get Attendees and the Event picker: 300 each served 150 a page', async () => {
		const communityId = String(ctx.demo.communityId);
		const eventId = String(ctx.demo.eventId);
		const inCommunity = () =>
			[...ctx.sandbox.state.events.values()].filter(
				(event) => String(event.communityId) === communityId,
			).length;
		await control(`/communities/${communityId}/events`, { count: 300 - inCommunity() });
		const having = inCommunity();
		expect(having).toBe(300);
		const attending = ctx.sandbox.state.attendance.get(ctx.demo.eventId)?.size ?? 0;
		await control(`/events/${eventId}/attendees`, { count: 300 - attending });
		ctx.sandbox.setVariants(['largePages']);
		const listed = await run(ctx.sandbox, {
			resource: 'event',
			operation: 'getAll',
			communityId,
			returnAll: true,
		});
		expect(ids(listed.json as Array<{ id: unknown }>, 'id')).toBe(having);
		expect(listed.json).toHaveLength(having);
		const people = await run(ctx.sandbox, {
			resource: 'event',
			operation: 'getAttendees',
			communityId,
			eventId,
			returnAll: true,
		});
		expect(people.json).toHaveLength(300);
		expect(ids(people.json as Array<{ id: unknown }>, 'id')).toBe(300);
		const picked = await listSearch(
			ctx.sandbox,
			'searchCommunityEvents',
			undefined,
			{},
			{
				communityId,
			},
		);
		expect(picked.results).toHaveLength(having);
	});

	const WORKGROUPS = Array.from({ length: 300 }, (_, i) => ({ id: 1 + i, name: `Group ${1 + i}` }));
	const WORKGROUP_PAGES = {
		'in page objects saying more': [
			{ content: WORKGROUPS.slice(0, 150), last: false, totalElements: 300 },
			{ content: WORKGROUPS.slice(150), last: true, totalElements: 300 },
		],
		// The guides show no paging on the workgroup list, and an array says nothing of what
		// follows: a first page longer than asked is read on, as on every list; an empty page ends it.
		'in plain arrays (no page object)': [WORKGROUPS.slice(0, 150), WORKGROUPS.slice(150), []],
	};
	it.each(Object.entries(WORKGROUP_PAGES))(
		'Workgroup → Get Many and the Workgroup picker: 300 workgroups, 150 a page %s',
		async (_how, pages) => {
			for (const body of [...pages, ...pages])
				await setEdge(ctx.sandbox.url, {
					path: '/public/api/v1/workgroup',
					method: 'GET',
					times: 1,
					answer: { status: 200, contentType: 'application/json', body: JSON.stringify(body) },
				});
			const all = await run(ctx.sandbox, {
				resource: 'workgroup',
				operation: 'getAll',
				returnAll: true,
			});
			expect(all.json).toEqual(WORKGROUPS);
			expect((await listSearch(ctx.sandbox, 'searchWorkgroups')).results).toHaveLength(300);
			// Each page once for Get Many and once for the picker, nothing more.
			expect((await edgeReport(ctx.sandbox.url)).map((rule) => rule.served)).toEqual(
				[...pages, ...pages].map(() => 1),
			);
		},
	);
});

describe('the webhook list is read page by page', () => {
	const addWebhooks = (count: number) => {
		for (let i = 0; i < count; i++) {
			const id = ctx.sandbox.state.nextId('webhook');
			ctx.sandbox.state.webhooks.set(id, {
				id,
				name: `Hook ${i + 1}`,
				url: `https://hooks.example.com/${i + 1}`,
				securityToken: 'token',
				createdAt: new Date().toISOString(),
			});
		}
	};

	it('Webhook → Get Many outputs all 25 webhooks of a list paged 20 at a time', async () => {
		addWebhooks(25);
		ctx.sandbox.setVariants(['pagedWebhooks']);
		const out = await run(ctx.sandbox, { resource: 'webhook', operation: 'getAll' });
		expect(out.json).toHaveLength(25);
		expect(out.json.map((hook) => hook.id)).toEqual([...ctx.sandbox.state.webhooks.keys()]);
	});

	it('Webhook → Create answered 502 after it applied, the list paged 20 at a time: one webhook, its id', async () => {
		addWebhooks(25);
		ctx.sandbox.setVariants(['pagedWebhooks', 'webhookCreate502']);
		const out = await run(ctx.sandbox, {
			resource: 'webhook',
			operation: 'create',
			name: 'crm sync',
			url: 'https://crm.example.com/knolyx',
		});
		expect(out.error).toBeUndefined();
		const ours = [...ctx.sandbox.state.webhooks.values()].filter(
			(hook) => hook.url === 'https://crm.example.com/knolyx',
		);
		expect(ours).toHaveLength(1);
		expect(out.json[0].id).toBe(ours[0].id);
		expect(routes(ctx.sandbox)['POST /public/api/v1/webhook']).toBe(1);
	});
});
