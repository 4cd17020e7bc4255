/**
 * Knolyx Poll Trigger as n8n runs it: n8n-core's poll executor and PollContext (test/harness/poll-host),
 * the platform played by the sandbox on 127.0.0.1, changes made through its control endpoints as
 * people using the platform's own pages would, everything over real HTTP.
 */
import { MAX_REMEMBERED } from '../../nodes/Knolyx/poll/state';
import { demoKeyWithout } from '../../sandbox';
import { prng } from '../../sandbox/faults';
import {
	ATTENDEES_ROUTE,
	attendeesOfEvent,
	EVENTS_ROUTE,
	executionsJson,
	host,
	ids,
	requestsTo,
	runManually,
	searchEvents,
	useDemoPlatform,
} from './helpers';

const demo = useDemoPlatform();

/**
 * A fault seed for which, with `errorRate` 0.5, the first `okBefore` API requests pass and the next
 * one fails (the sandbox draws 6 numbers per request, the second decides an injected error).
 */
function seedFailingRequest(okBefore: number): number {
	for (let seed = 1; seed < 100_000; seed++) {
		const draw = prng(seed);
		const errors = Array.from({ length: okBefore + 1 }, () => {
			const draws = Array.from({ length: 6 }, () => draw());
			return draws[1] < 0.5;
		});
		if (errors.slice(0, okBefore).every((e) => !e) && errors[okBefore]) return seed;
	}
	throw new Error('no seed found');
}

describe('Knolyx Poll Trigger: New Attendee of one event', () => {
	it('records what exists on the first poll and emits nothing, then emits exactly the attendees added in between', async () => {
		await demo.platform.register(demo.eventId, { count: 250 });
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));

		const first = await trigger.activate();
		expect(first).toEqual({});
		expect(trigger.executions()).toEqual([]);

		const added = await demo.platform.register(demo.eventId, { count: 2 });
		const second = await trigger.tick();
		expect(second.error).toBeUndefined();
		expect(second.emitted?.map((item) => item.json)).toEqual(
			added.map((attendee) => ({
				...attendee,
				communityId: demo.communityId,
				eventId: demo.eventId,
				detectedAt: expect.any(String),
			})),
		);
		const detectedAt = Date.parse(String(second.emitted?.[0].json.detectedAt));
		expect(Math.abs(Date.now() - detectedAt)).toBeLessThan(60_000);

		expect(await trigger.tick()).toEqual({});
		expect(trigger.executions()).toHaveLength(1);
	});

	it('emits the shape the action node returns for an attendee, plus communityId, eventId and detectedAt', async () => {
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		await trigger.activate();
		const [ada] = await demo.platform.register(demo.eventId, { email: 'ada@example.com' });
		const { emitted } = await trigger.tick();
		expect(emitted?.map((item) => item.json)).toEqual([
			{
				id: ada.id,
				name: 'Ada Lovelace',
				email: 'ada@example.com',
				communityId: demo.communityId,
				eventId: demo.eventId,
				detectedAt: expect.any(String),
			},
		]);
	});

	it('over 20 polls with attendees added between some of them, emits every attendee exactly once, in order', async () => {
		await demo.platform.register(demo.eventId, { count: 95 });
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		await trigger.activate();

		// Additions that cross the 100-a-page boundary several times; nothing between polls 0, 3, 6, ...
		const added: unknown[] = [];
		const pollsWithAdditions: number[] = [];
		for (let poll = 0; poll < 20; poll++) {
			if (poll % 3 !== 0) {
				const batch = await demo.platform.register(demo.eventId, { count: 1 + (poll % 4) * 2 });
				added.push(...ids(batch));
				pollsWithAdditions.push(poll);
			}
			const tick = await trigger.tick();
			expect(tick.error).toBeUndefined();
			expect(tick.emitted === undefined).toBe(poll % 3 === 0);
		}
		const emitted = executionsJson(trigger).flat();
		expect(ids(emitted)).toEqual(added);
		expect(new Set(ids(emitted)).size).toBe(emitted.length);
		expect(trigger.executions()).toHaveLength(pollsWithAdditions.length);
	});

	it('keeps its state across a restart: a new node instance with the saved static data emits only what was added meanwhile', async () => {
		await demo.platform.register(demo.eventId, { count: 3 });
		const before = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		await before.activate();
		const early = await demo.platform.register(demo.eventId, { count: 1 });
		expect(ids(executionsJson(before).flat())).toEqual([]);
		expect(ids((await before.tick()).emitted?.map((i) => i.json) ?? [])).toEqual(ids(early));

		// n8n stops; two people register while it is down; n8n starts and activates the workflow again.
		const whileDown = await demo.platform.register(demo.eventId, { count: 2 });
		const after = host(
			demo.sandbox,
			attendeesOfEvent(demo.communityId, demo.eventId),
			before.saved,
		);
		const reactivation = await after.activate('init');
		expect(reactivation.emitted?.map((item) => item.json.id)).toEqual(ids(whileDown));
		expect(await after.tick()).toEqual({});
		expect(JSON.stringify(after.saved).length).toBeGreaterThan(0);
	});

	it('a page that fails is read again on the next poll: nothing lost, nothing repeated', async () => {
		await demo.platform.register(demo.eventId, { count: 250 });
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		await trigger.activate();
		const savedBefore = JSON.stringify(trigger.saved);
		const memoryBefore = JSON.stringify(trigger.nodeStaticData);

		const added = await demo.platform.register(demo.eventId, { count: 5 }); // on the third page
		// The second page answers 500, which the transport does not retry: the poll fails.
		demo.sandbox.setFaults({ errorRate: 0.5, errorStatuses: [500], seed: seedFailingRequest(1) });
		demo.sandbox.resetStats();
		const failed = await trigger.tick();
		expect(failed.error?.message).toMatch(/Knolyx|failed|500/i);
		expect(demo.sandbox.stats().faultsInjected['error:500']).toBe(1);
		expect(requestsTo(demo.sandbox, ATTENDEES_ROUTE)).toBe(2);
		expect(failed.emitted).toBeUndefined();
		expect(JSON.stringify(trigger.nodeStaticData)).toBe(memoryBefore);
		expect(JSON.stringify(trigger.saved)).toBe(savedBefore);

		demo.sandbox.resetFaults();
		const next = await trigger.tick();
		expect(next.emitted?.map((item) => item.json.id)).toEqual(ids(added));
		expect(await trigger.tick()).toEqual({});
		expect(ids(executionsJson(trigger).flat())).toEqual(ids(added));
	});

	it('rides out 503 answers with the transport retries and emits once', async () => {
		await demo.platform.register(demo.eventId, { count: 150 });
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		await trigger.activate();
		const added = await demo.platform.register(demo.eventId, { count: 3 });
		demo.sandbox.setFaults({ errorRate: 0.5, errorStatuses: [503], seed: seedFailingRequest(1) });
		demo.sandbox.resetStats();
		const tick = await trigger.tick();
		expect(tick.error).toBeUndefined();
		expect(demo.sandbox.stats().faultsInjected['error:503']).toBeGreaterThanOrEqual(1);
		expect(tick.emitted?.map((item) => item.json.id)).toEqual(ids(added));
		demo.sandbox.resetFaults();
		expect(await trigger.tick()).toEqual({});
	});

	it('counts someone who cancelled and registered again as new once they were absent from two complete reads', async () => {
		const [ada] = await demo.platform.register(demo.eventId, { email: 'ada@example.com' });
		const [alan] = await demo.platform.register(demo.eventId, { email: 'alan@example.com' });
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		await trigger.activate();

		// Ada cancels; two polls see her absent; she registers again: new.
		await demo.platform.cancel(demo.eventId, Number(ada.id));
		expect(await trigger.tick()).toEqual({});
		expect(await trigger.tick()).toEqual({});
		await demo.platform.register(demo.eventId, { userId: Number(ada.id) });
		expect((await trigger.tick()).emitted?.map((item) => item.json.email)).toEqual([
			'ada@example.com',
		]);

		// Alan cancels and is back before a second poll saw him absent: not new (a single absence may be
		// an entry that moved between the pages of one read).
		await demo.platform.cancel(demo.eventId, Number(alan.id));
		expect(await trigger.tick()).toEqual({});
		await demo.platform.register(demo.eventId, { userId: Number(alan.id) });
		expect(await trigger.tick()).toEqual({});
		expect(ids(executionsJson(trigger).flat())).toEqual([ada.id]);
	});

	it('skips a poll that starts while the previous one is still reading, so nothing is emitted twice', async () => {
		await demo.platform.register(demo.eventId, { count: 150 });
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		await trigger.activate();
		const added = await demo.platform.register(demo.eventId, { count: 2 });
		demo.sandbox.setFaults({ latencyMs: 100 });
		const ticks = await Promise.all([trigger.tick(), trigger.tick()]);
		expect(ticks.filter((tick) => tick.emitted !== undefined)).toHaveLength(1);
		expect(ids(executionsJson(trigger).flat())).toEqual(ids(added));
	});

	// A short last page is no end since issue 55 (a page may be shortened in the middle of a
	// list): the empty page after it ends the list, one request more for 250 (4, was 3).
	it('costs one request per 100 attendees, plus the empty page that ends the list, on every poll', async () => {
		await demo.platform.register(demo.eventId, { count: 250 });
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		await trigger.activate();
		demo.sandbox.resetStats();
		await trigger.tick();
		expect(requestsTo(demo.sandbox, ATTENDEES_ROUTE)).toBe(4);
		await demo.platform.register(demo.eventId, { count: 50 });
		demo.sandbox.resetStats();
		await trigger.tick();
		expect(requestsTo(demo.sandbox, ATTENDEES_ROUTE)).toBe(4);
	});

	it(`refuses to remember more than ${MAX_REMEMBERED} entries: the poll fails, nothing is emitted or recorded`, async () => {
		await demo.platform.register(demo.eventId, { count: 10 });
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		await trigger.activate();
		const memoryBefore = JSON.stringify(trigger.nodeStaticData);
		await demo.platform.register(demo.eventId, { count: MAX_REMEMBERED - 9 });
		const tick = await trigger.tick();
		expect(tick.error?.message).toContain(`more than the ${MAX_REMEMBERED}`);
		expect(tick.emitted).toBeUndefined();
		expect(JSON.stringify(trigger.nodeStaticData)).toBe(memoryBefore);
	}, 90_000);

	it('refuses a bad Community ID or Event before any request, naming the field', async () => {
		demo.sandbox.resetStats();
		const badCommunity = await host(demo.sandbox, {
			...attendeesOfEvent(demo.communityId, demo.eventId),
			communityId: 'abc',
		}).activate();
		expect(badCommunity.error?.message).toBe('Community ID: "abc" is not a numeric ID');
		const noEvent = await host(demo.sandbox, {
			...attendeesOfEvent(demo.communityId, demo.eventId),
			eventId: { __rl: true, mode: 'id', value: '' },
		}).activate();
		expect(noEvent.error?.message).toBe('Event: empty is not a numeric ID');
		expect(demo.sandbox.stats().requests).toBe(0);
	});

	it("fails the activation with the platform's answer when the event does not exist or the key may not read events", async () => {
		const missing = await host(demo.sandbox, attendeesOfEvent(demo.communityId, 999)).activate();
		expect(missing.error?.message).toBeDefined();
		expect(JSON.stringify(missing.error)).toContain('event 999 of community');
		const forbidden = await host(
			demo.sandbox,
			attendeesOfEvent(demo.communityId, demo.eventId),
			undefined,
			demoKeyWithout('EVENT_READ'),
		).activate();
		expect(JSON.stringify(forbidden.error)).toContain('EVENT_READ');
	});
});

describe('Knolyx Poll Trigger: New Attendee of every event of a community', () => {
	it('emits new attendees of known events and every attendee of an event published after the first poll', async () => {
		await demo.platform.register(demo.eventId, { count: 2 });
		const trigger = host(demo.sandbox, {
			event: 'newAttendee',
			attendeesOf: 'community',
			communityId: String(demo.communityId),
		});
		expect(await trigger.activate()).toEqual({});

		const known = await demo.platform.register(demo.eventId, { count: 1 });
		const [published] = await demo.platform.publishEvent(demo.communityId, {
			title: 'Autumn Workshop',
		});
		const atNew = await demo.platform.register(Number(published.id), { count: 2 });
		const { emitted } = await trigger.tick();
		expect(emitted?.map((item) => [item.json.eventId, item.json.id])).toEqual([
			[demo.eventId, known[0].id],
			[published.id, atNew[0].id],
			[published.id, atNew[1].id],
		]);
		demo.sandbox.resetStats();
		expect(await trigger.tick()).toEqual({});
		// The events (2), then the attendees of each of the two events (3 and 2): a list shorter than a
		// page costs two requests, as the transport reads on until an empty page.
		expect(requestsTo(demo.sandbox, EVENTS_ROUTE)).toBe(2);
		expect(requestsTo(demo.sandbox, ATTENDEES_ROUTE)).toBe(4);
	});
});

describe('Knolyx Poll Trigger: New Event and New Course', () => {
	it('emits each event published in the community once, shaped like Event → Get Many', async () => {
		const trigger = host(demo.sandbox, {
			event: 'newEvent',
			communityId: String(demo.communityId),
		});
		expect(await trigger.activate()).toEqual({});
		const published = await demo.platform.publishEvent(demo.communityId, { count: 3 });
		const { emitted } = await trigger.tick();
		expect(emitted?.map((item) => item.json)).toEqual(
			published.map((event) => ({ ...event, detectedAt: expect.any(String) })),
		);
		expect(await trigger.tick()).toEqual({});
	});

	it('emits each course added to the catalogue once, shaped like Course → Get Many, across pages', async () => {
		const trigger = host(demo.sandbox, { event: 'newCourse' });
		expect(await trigger.activate()).toEqual({});
		const added = await demo.platform.addCourse({ count: 120 });
		const { emitted } = await trigger.tick();
		expect(emitted?.map((item) => item.json)).toEqual(
			added.map((course) => ({
				id: course.id,
				title: course.title,
				detectedAt: expect.any(String),
			})),
		);
		expect(await trigger.tick()).toEqual({});
		const more = await demo.platform.addCourse({ title: 'Late Course' });
		expect((await trigger.tick()).emitted?.map((item) => item.json.title)).toEqual([more[0].title]);
	});

	it('starts from a new baseline when the settings change (another community)', async () => {
		const [other] = demo.sandbox.seed({ communities: [{ name: 'Other' }] }).communities;
		await demo.platform.publishEvent(other, { count: 2 });
		const first = host(demo.sandbox, { event: 'newEvent', communityId: String(demo.communityId) });
		await first.activate();
		const changed = host(
			demo.sandbox,
			{ event: 'newEvent', communityId: String(other) },
			first.saved,
		);
		expect(await changed.activate()).toEqual({});
		expect(await changed.tick()).toEqual({});
	});
});

describe('Knolyx Poll Trigger: manual runs and the Event picker', () => {
	it('a manual run emits the newest entry and remembers nothing', async () => {
		await demo.platform.register(demo.eventId, { count: 130 });
		const last = (await demo.platform.register(demo.eventId, { email: 'ada@example.com' }))[0];
		const manual = await runManually(
			demo.sandbox,
			attendeesOfEvent(demo.communityId, demo.eventId),
		);
		expect(manual.error).toBeUndefined();
		expect(manual.items).toEqual([
			{
				...last,
				communityId: demo.communityId,
				eventId: demo.eventId,
				detectedAt: expect.any(String),
			},
		]);

		const course = await runManually(demo.sandbox, { event: 'newCourse' });
		expect(course.items.map((item) => item.title)).toEqual(['Data Literacy']);

		// A published workflow still starts from its own baseline.
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		expect(await trigger.activate()).toEqual({});
	});

	it('a manual run with nothing to show says so', async () => {
		const manual = await runManually(
			demo.sandbox,
			attendeesOfEvent(demo.communityId, demo.eventId),
		);
		expect(manual.error?.message).toBe(
			`No attendee in event ${demo.eventId} of community ${demo.communityId} yet, so there is no test entry to show`,
		);
	});

	it('the Event picker lists the events of the community typed in the node, searchable by title', async () => {
		await demo.platform.publishEvent(demo.communityId, { title: 'Autumn Workshop' });
		const all = await searchEvents(demo.sandbox, String(demo.communityId));
		expect(all.results.map((r) => r.name.replace(/ \(.*\)$/, ''))).toEqual(
			expect.arrayContaining(['Monthly Automation Meetup', 'Autumn Workshop']),
		);
		const filtered = await searchEvents(demo.sandbox, String(demo.communityId), 'autumn');
		expect(filtered.results).toHaveLength(1);
		expect(filtered.results[0].value).toMatch(/^\d+$/);
		await expect(searchEvents(demo.sandbox, '')).rejects.toThrow(
			'Community ID: enter the numeric ID of the community first',
		);
	});
});
