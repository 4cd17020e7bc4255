/**
 * Issue 55, point 3: ids are exact everywhere the contract says `integer, long`. The platform's
 * lists and reads hold ids above 2^53 - 1, which a JavaScript number rounds (…993 becomes …992),
 * so two entries whose ids differ in the last digit merged into one (120 courses came out as 61).
 * Each list, picker and read is played over real HTTP by the sandbox's edge rules (answers no
 * seeded state gives: the sandbox's own ids are numbers), and an id a list output, mapped by
 * expression into the next node's id field, reaches the platform with the same digits.
 * The output form (docs/api.md, "Ids"): a number up to 2^53 - 1, its digits (a string) above.
 */
import type { INodeParameters } from 'n8n-workflow';

import { clearEdges, edgeReport, setEdge } from '../harness';
import { listSearch, run, runChain, useSandbox } from './setup';

const ctx = useSandbox();
beforeEach(async () => {
	ctx.sandbox.setVariants([]);
	await clearEdges(ctx.sandbox.url);
});

const API = '/public/api/v1';
/** 2^53 + 1: the first integer a number cannot hold. */
const BASE = 9007199254740993n;
/** `count` ids from 2^53 + 1 on: every second one rounds onto its neighbour as a number. */
const longIds = (count: number, from = 0) =>
	Array.from({ length: count }, (_, i) => (BASE + BigInt(from + i)).toString());
/** JSON text of entries whose ids are written as the long integer literals they are. */
const entriesText = (ids: string[], field: string, extra = '') =>
	`[${ids.map((id) => `{"id":${id},"${field}":"${field} ${id}"${extra}}`).join(',')}]`;

/** Answers GET `path` with these JSON texts in turn (the last for every read after). */
async function serveInTurn(path: string, bodies: string[], method = 'GET'): Promise<void> {
	for (const [i, body] of bodies.entries())
		await setEdge(ctx.sandbox.url, {
			path,
			method,
			...(i < bodies.length - 1 && { times: 1 }),
			answer: { status: 200, contentType: 'application/json', body },
		});
}

/** 120 entries in pages of 100 and 20, then the empty page that ends the list. */
async function serveLongList(path: string, field: string, extra = ''): Promise<string[]> {
	const ids = longIds(120);
	await serveInTurn(path, [
		entriesText(ids.slice(0, 100), field, extra),
		entriesText(ids.slice(100), field, extra),
		'[]',
	]);
	return ids;
}

const served = async () =>
	(await edgeReport(ctx.sandbox.url)).reduce((sum, rule) => sum + rule.served, 0);

describe('lists whose ids are above 2^53 - 1: every entry once, its id exact', () => {
	it('Course → Get Many: 120 courses are 120 items, each id its digits', async () => {
		const ids = await serveLongList(`${API}/course`, 'title');
		const out = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'getAll',
			returnAll: true,
		});
		expect(out.error).toBeUndefined();
		expect(out.json.map((course) => course.id)).toEqual(ids);
		expect(out.json[1]).toEqual({ id: ids[1], title: `title ${ids[1]}` });
	});

	it('Workgroup → Get Many: 120 workgroups, each id exact', async () => {
		const ids = await serveLongList(`${API}/workgroup`, 'name');
		const out = await run(ctx.sandbox, {
			resource: 'workgroup',
			operation: 'getAll',
			returnAll: true,
		});
		expect(out.json.map((group) => group.id)).toEqual(ids);
	});

	it('Event → Get Many and Get Attendees: 120 each, ids exact (the attendees keyed by user id)', async () => {
		const communityId = '9223372036854775807';
		const eventId = longIds(1, 500)[0];
		const events = await serveLongList(
			`${API}/community/${communityId}/event/paged`,
			'title',
			',"startDateTime":"2026-12-01 10:00:00"',
		);
		const listed = await run(ctx.sandbox, {
			resource: 'event',
			operation: 'getAll',
			communityId,
			returnAll: true,
		});
		expect(listed.error).toBeUndefined();
		expect(listed.json.map((event) => event.id)).toEqual(events);

		const users = longIds(120, 1000);
		const attendees = (from: number, to: number) =>
			`[${users
				.slice(from, to)
				.map((id) => `{"userId":${id},"email":"u${id}@example.com"}`)
				.join(',')}]`;
		await serveInTurn(`${API}/community/${communityId}/event/${eventId}/attendees/paged`, [
			attendees(0, 100),
			attendees(100, 120),
			'[]',
		]);
		const people = await run(ctx.sandbox, {
			resource: 'event',
			operation: 'getAttendees',
			communityId,
			eventId: { __rl: true, mode: 'id', value: eventId },
			returnAll: true,
		});
		expect(people.error).toBeUndefined();
		expect(people.json.map((person) => person.userId)).toEqual(users);
	});

	it('the Course, Workgroup and Event pickers: 120 choices, each value the exact id', async () => {
		const courses = await serveLongList(`${API}/course`, 'title');
		const pickedCourses = await listSearch(ctx.sandbox, 'searchCourses');
		expect(pickedCourses.results.map((choice) => choice.value).sort()).toEqual(courses);

		const groups = await serveLongList(`${API}/workgroup`, 'name');
		const pickedGroups = await listSearch(ctx.sandbox, 'searchWorkgroups');
		expect(pickedGroups.results.map((choice) => choice.value).sort()).toEqual(groups);

		const communityId = '9007199254740997';
		const events = await serveLongList(`${API}/community/${communityId}/event/paged`, 'title');
		const pickedEvents = await listSearch(
			ctx.sandbox,
			'searchCommunityEvents',
			undefined,
			{},
			{ communityId },
		);
		expect(pickedEvents.results.map((choice) => choice.value).sort()).toEqual(events);
		// A filter typed as the id finds exactly that one.
		await clearEdges(ctx.sandbox.url);
		await serveLongList(`${API}/course`, 'title');
		const one = await listSearch(ctx.sandbox, 'searchCourses', courses[7]);
		expect(one.results).toEqual([{ name: `title ${courses[7]}`, value: courses[7] }]);
	});

	it('Course → Get outputs a long id as its digits', async () => {
		const id = longIds(1, 3)[0];
		await serveInTurn(`${API}/course/${id}`, [`{"id":${id},"title":"Long","bundleId":${id}}`]);
		const out = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'get',
			courseId: { __rl: true, mode: 'id', value: id },
		});
		expect(out.error).toBeUndefined();
		expect(out.json).toEqual([{ id, title: 'Long', bundleId: id }]);
	});
});

describe("a long id output by a list, mapped into the next node's id field, reaches Knolyx exactly", () => {
	/** Runs Get Many, then `next` on its first item, the id mapped by expression. */
	async function chain(list: INodeParameters, next: INodeParameters) {
		return await runChain(ctx.sandbox, [
			{ name: 'List', parameters: list },
			{ name: 'Next', parameters: next, executeOnce: true },
		]);
	}
	const mapped = { __rl: true, mode: 'id', value: '={{ $json.id }}' } as INodeParameters;

	it('Course → Get Many → Course → Get', async () => {
		const ids = await serveLongList(`${API}/course`, 'title');
		await serveInTurn(`${API}/course/${ids[0]}`, [`{"id":${ids[0]},"title":"First"}`]);
		const result = await chain(
			{ resource: 'course', operation: 'getAll', returnAll: true },
			{ resource: 'course', operation: 'get', courseId: mapped },
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Next')).toEqual([{ id: ids[0], title: 'First' }]);
		const rules = await edgeReport(ctx.sandbox.url);
		expect(rules.find((rule) => rule.path === `${API}/course/${ids[0]}`)?.served).toBe(1);
	});

	it('Workgroup → Get Many → Workgroup → Add Member', async () => {
		const ids = await serveLongList(`${API}/workgroup`, 'name');
		const path = `${API}/workgroup/${ids[0]}/member/ada%40example.com/`;
		await serveInTurn(
			path,
			[`{"workgroupId":${ids[0]},"email":"ada@example.com","removalDate":null}`],
			'PUT',
		);
		const result = await chain(
			{ resource: 'workgroup', operation: 'getAll', returnAll: true },
			{
				resource: 'workgroup',
				operation: 'addMember',
				workgroupId: mapped,
				email: 'ada@example.com',
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Next')[0]).toMatchObject({
			workgroupId: ids[0],
			email: 'ada@example.com',
		});
		const rules = await edgeReport(ctx.sandbox.url);
		expect(rules.find((rule) => rule.path === path)?.served).toBe(1);
	});

	it('Event → Get Many → Event → Get', async () => {
		const communityId = '9007199254740999';
		const ids = await serveLongList(`${API}/community/${communityId}/event/paged`, 'title');
		const path = `${API}/community/${communityId}/event/${ids[0]}`;
		await serveInTurn(path, [`{"id":${ids[0]},"title":"First"}`]);
		const result = await chain(
			{ resource: 'event', operation: 'getAll', communityId, returnAll: true },
			{ resource: 'event', operation: 'get', communityId, eventId: mapped },
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Next')).toEqual([{ id: ids[0], title: 'First' }]);
		expect((await edgeReport(ctx.sandbox.url)).find((rule) => rule.path === path)?.served).toBe(1);
	});

	it('an id past 2^63 - 1, or a number past 2^53 - 1 (already rounded), is refused naming the field; nothing is sent', async () => {
		const tooLong = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'get',
			courseId: { __rl: true, mode: 'id', value: '9223372036854775808' },
		});
		expect(tooLong.error?.message).toBe(
			'Course: "9223372036854775808" is not a numeric ID (item 0)',
		);
		const rounded = await run(
			ctx.sandbox,
			{
				resource: 'course',
				operation: 'get',
				courseId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			},
			[{ id: 2 ** 53 }],
		);
		expect(rounded.error?.message).toBe('Course: "9007199254740992" is not a numeric ID (item 0)');
		expect(await served()).toBe(0);
		expect(ctx.sandbox.stats().requests).toBe(0);
	});
});
