/**
 * Knolyx Poll Trigger at the edges, with n8n-core's poll executor, the sandbox's edge rules and
 * real HTTP: a list read answered with something that is not a list (e.g. `200
 * {"status":"MAINTENANCE"}` during maintenance) fails the poll and changes no state, so the next
 * good poll emits exactly what was added meanwhile (not every known attendee again); a read
 * redirected to another host fails without sending the key there.
 */
import { startOtherHost } from '../../sandbox/edges';
import { DEMO, startSandbox, type Sandbox } from '../../sandbox';
import { clearEdges, edgeReport, setEdge } from '../harness';
import { attendeesOfEvent, executionsJson, host, PlatformActivity } from './helpers';

let sandbox: Sandbox;
let platform: PlatformActivity;

beforeEach(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo' });
	platform = new PlatformActivity(sandbox);
});

afterEach(async () => {
	await clearEdges(sandbox.url);
	await sandbox.close();
});

describe('Knolyx Poll Trigger: an answer that is not a list', () => {
	it.each([
		['an unknown object', '{"status":"MAINTENANCE"}'],
		['null', 'null'],
		['an empty body', ''],
	])(
		'two polls answered 200 with %s fail and change nothing; the next good poll emits only the new attendees',
		async (_what, body) => {
			const communityId = sandbox.demo!.communityId;
			const eventId = sandbox.demo!.eventId;
			await platform.register(eventId, { count: 250 });
			const trigger = host(sandbox, attendeesOfEvent(communityId, eventId));
			expect(await trigger.activate()).toEqual({});
			const savedBefore = JSON.stringify(trigger.saved);
			const memoryBefore = JSON.stringify(trigger.nodeStaticData);

			await setEdge(sandbox.url, {
				path: `/public/api/v1/community/${communityId}/event/${eventId}/attendees/paged`,
				times: 2,
				answer: { body },
			});
			for (let poll = 0; poll < 2; poll++) {
				const failed = await trigger.tick();
				expect(failed.error?.message).toBe(
					'Knolyx answered a list request with something that is not a list [200]',
				);
				expect(failed.emitted).toBeUndefined();
				expect(JSON.stringify(trigger.nodeStaticData)).toBe(memoryBefore);
				expect(JSON.stringify(trigger.saved)).toBe(savedBefore);
			}
			expect((await edgeReport(sandbox.url))[0].served).toBe(2);

			const added = await platform.register(eventId, { count: 2 });
			const next = await trigger.tick();
			expect(next.error).toBeUndefined();
			expect(next.emitted?.map((item) => item.json.id)).toEqual(
				added.map((attendee) => attendee.id),
			);
			expect(await trigger.tick()).toEqual({});
			expect(executionsJson(trigger)).toHaveLength(1);
		},
	);
});

describe('Knolyx Poll Trigger: a read redirected to another host', () => {
	it('fails the poll without following it; that host sees no key, and nothing is recorded', async () => {
		const other = await startOtherHost();
		try {
			const communityId = sandbox.demo!.communityId;
			const eventId = sandbox.demo!.eventId;
			await setEdge(sandbox.url, {
				path: `/public/api/v1/community/${communityId}/event/${eventId}/attendees/paged`,
				redirect: { status: 302, location: `${other.url}/sign-in` },
			});
			const trigger = host(sandbox, attendeesOfEvent(communityId, eventId));
			const tick = await trigger.activate();
			expect(tick.error?.message).toBe(
				`Knolyx redirected the request to another address (${other.url}/sign-in): not followed, so the API key is not sent there; check the base URL [302]`,
			);
			expect(trigger.nodeStaticData ?? {}).toEqual({});
			const sent = other.seen.flatMap((seen) =>
				Object.entries(seen.headers).filter(
					([, value]) => value === DEMO.apiKey || value === DEMO.projectId,
				),
			);
			expect(sent).toEqual([]);
		} finally {
			await other.close();
		}
	});
});

describe('Knolyx Poll Trigger: ids past 2^53 - 1 (issue 55)', () => {
	const courses = (ids: string[]) =>
		`[${ids.map((id) => `{"id":${id},"title":"Course ${id}"}`).join(',')}]`;
	/** The course list answered with these ids, every read (edge rules replaced). */
	const serve = async (ids: string[]) => {
		await clearEdges(sandbox.url);
		await setEdge(sandbox.url, {
			path: '/public/api/v1/course',
			method: 'GET',
			answer: { status: 200, contentType: 'application/json', body: courses(ids) },
		});
	};

	it('New Course: a course whose id differs from a known one only past 2^53 is new, emitted once with its exact id', async () => {
		// …992 and …993 are one number; the memory must tell them apart.
		await serve(['9007199254740992', '9007199254740994']);
		const trigger = host(sandbox, { event: 'newCourse' });
		expect(await trigger.activate()).toEqual({});
		await serve(['9007199254740992', '9007199254740993', '9007199254740994']);
		const next = await trigger.tick();
		expect(next.error).toBeUndefined();
		expect(next.emitted?.map((item) => item.json.id)).toEqual(['9007199254740993']);
		expect(await trigger.tick()).toEqual({});
		expect(
			executionsJson(trigger)
				.flat()
				.map((item) => item.id),
		).toEqual(['9007199254740993']);
	});
});
