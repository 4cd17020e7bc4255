/**
 * Knolyx Poll Trigger at the edges (issue 22, point 5): a list edited while its pages are read (an
 * entry deleted or moved between two page requests, played by the sandbox's read edits), a list that
 * goes over the bound and comes back under it, and a state saved by the release before this one.
 * The node runs as n8n runs it (test/harness/poll-host), the sandbox over real HTTP.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MAX_REMEMBERED } from '../../nodes/Knolyx/poll/state';
import { attendeesOfEvent, executionsJson, host, ids, useDemoPlatform } from './helpers';

const demo = useDemoPlatform();

const everyEvent = (): INodeParameters => ({
	event: 'newAttendee',
	attendeesOf: 'community',
	communityId: String(demo.communityId),
});
const emittedPairs = (tick: { emitted?: Array<{ json: IDataObject }> }) =>
	tick.emitted?.map((item) => [item.json.eventId, item.json.id]);

/** 101 events in the community (the demo's and 100 published): the events list reads as a full page and a page of one. */
async function hundredAndOneEvents(): Promise<number[]> {
	const published = await demo.platform.publishEvent(demo.communityId, { count: 100 });
	return [demo.eventId, ...published.map((event) => Number(event.id))];
}

/** While the next check reads the events, the first one is rescheduled to the end of the list. */
async function moveFirstEventToEndWhileRead(events: number[]): Promise<void> {
	await demo.platform.duringRead({
		list: 'events',
		communityId: demo.communityId,
		id: events[0],
		action: 'moveToEnd',
		beforePage: 1,
	});
}

describe('Knolyx Poll Trigger: a list edited while its pages are read', () => {
	it('reads an event listed twice in one check once: its new attendee starts the workflow once', async () => {
		const events = await hundredAndOneEvents();
		const trigger = host(demo.sandbox, everyEvent());
		expect(await trigger.activate()).toEqual({});

		const lastOfFirstPage = events[99];
		const lastEvent = events[100];
		const [ada] = await demo.platform.register(lastOfFirstPage, { email: 'ada@example.com' });
		const [bob] = await demo.platform.register(lastEvent, { email: 'bob@example.com' });
		// After the first page is read, the last event moves to the front: the last event of the first
		// page is listed again on the second page, and the moved event on no page this time.
		await demo.platform.duringRead({
			list: 'events',
			communityId: demo.communityId,
			id: lastEvent,
			action: 'moveToFront',
			beforePage: 1,
		});
		const shifted = await trigger.tick();
		expect(await demo.platform.pendingEdits()).toEqual([]);
		expect(shifted.error).toBeUndefined();
		// The second page mixed an event read before with a new one: the list moved, so it is read
		// again until two reads agree (issue 55), and the moved event is read in this check (it
		// waited for the next check before). Each new attendee starts the workflow once.
		expect(emittedPairs(shifted)).toEqual([
			[lastEvent, bob.id],
			[lastOfFirstPage, ada.id],
		]);
		expect(await trigger.tick()).toEqual({});
		expect(ids(executionsJson(trigger).flat())).toEqual([bob.id, ada.id]);
	});

	it('at the first check, an event hidden by a moved event is recorded: its existing attendees are not new, later ones are', async () => {
		const events = await hundredAndOneEvents();
		const lastEvent = events[100];
		await demo.platform.register(lastEvent, { count: 3 });
		// While the first check reads the events, the first event is rescheduled to the end of the list:
		// the last event shifts to the page already read and the first reading of the list misses it.
		await moveFirstEventToEndWhileRead(events);
		const trigger = host(demo.sandbox, everyEvent());
		expect(await trigger.activate()).toEqual({});
		expect(await demo.platform.pendingEdits()).toEqual([]);

		// The three were registered before the workflow was published.
		expect(await trigger.tick()).toEqual({});
		// Someone registering for that event now is new; so is everyone registered for an event published
		// after the first check, also those who registered before the trigger saw the event.
		const [late] = await demo.platform.register(lastEvent, { count: 1 });
		const [published] = await demo.platform.publishEvent(demo.communityId, {
			title: 'Winter Workshop',
		});
		const early = await demo.platform.register(Number(published.id), { count: 2 });
		expect(emittedPairs(await trigger.tick())).toEqual([
			[lastEvent, late.id],
			[published.id, early[0].id],
			[published.id, early[1].id],
		]);
		expect(await trigger.tick()).toEqual({});
	});

	it('at the first check, an event deleted while the events are read neither fails the check nor hides the event after it', async () => {
		const events = await hundredAndOneEvents();
		const lastEvent = events[100];
		await demo.platform.register(lastEvent, { count: 3 });
		await demo.platform.register(events[0], { count: 2 });
		await demo.platform.duringRead({
			list: 'events',
			communityId: demo.communityId,
			id: events[0],
			action: 'delete',
			beforePage: 1,
		});
		const trigger = host(demo.sandbox, everyEvent());
		const first = await trigger.activate();
		expect(await demo.platform.pendingEdits()).toEqual([]);
		expect(first.error?.message).toBeUndefined();
		expect(first).toEqual({});

		expect(await trigger.tick()).toEqual({});
		const [late] = await demo.platform.register(lastEvent, { count: 1 });
		expect(emittedPairs(await trigger.tick())).toEqual([[lastEvent, late.id]]);
	});

	it('an event still listed whose attendees answer 404 fails the check and changes nothing: its attendees are never re-sent', async () => {
		await demo.platform.register(demo.eventId, { count: 3 });
		await demo.platform.publishEvent(demo.communityId, { title: 'Autumn Workshop' });
		const trigger = host(demo.sandbox, everyEvent());
		expect(await trigger.activate()).toEqual({});
		const saved = JSON.stringify(trigger.nodeStaticData);

		// A front (a proxy during maintenance) answers 404 for the event's attendees; the event is still listed.
		demo.sandbox.setFaults({
			errorRate: 1,
			errorStatuses: [404],
			onlyPath: `/event/${demo.eventId}/attendees`,
		});
		for (let check = 0; check < 3; check++) {
			const tick = await trigger.tick();
			expect(tick.error?.message).toContain('[404]');
			expect(tick.emitted).toBeUndefined();
		}
		expect(JSON.stringify(trigger.nodeStaticData)).toBe(saved);

		demo.sandbox.resetFaults();
		const late = await demo.platform.register(demo.eventId, { count: 1 });
		expect(emittedPairs(await trigger.tick())).toEqual([[demo.eventId, late[0].id]]);
	});

	it('after a restart, everyone registered for an event published while n8n was down is new', async () => {
		const before = host(demo.sandbox, everyEvent());
		expect(await before.activate()).toEqual({});
		const [published] = await demo.platform.publishEvent(demo.communityId, {
			title: 'Spring Meetup',
		});
		const whileDown = await demo.platform.register(Number(published.id), { count: 2 });
		const after = host(demo.sandbox, everyEvent(), before.saved);
		expect(emittedPairs(await after.activate('init'))).toEqual(
			whileDown.map((a) => [published.id, a.id]),
		);
		expect(await after.tick()).toEqual({});
	});

	it('New Event: an event hidden from the first check by a moved event is not announced later as new', async () => {
		const events = await hundredAndOneEvents();
		await moveFirstEventToEndWhileRead(events);
		const trigger = host(demo.sandbox, {
			event: 'newEvent',
			communityId: String(demo.communityId),
		});
		expect(await trigger.activate()).toEqual({});
		expect(await demo.platform.pendingEdits()).toEqual([]);
		expect(await trigger.tick()).toEqual({});
		const [published] = await demo.platform.publishEvent(demo.communityId, {
			title: 'Winter Workshop',
		});
		expect((await trigger.tick()).emitted?.map((item) => item.json.id)).toEqual([published.id]);
	});

	it('New Attendee of one event: an attendee hidden from the first check by a cancellation is not new later', async () => {
		const attendees = await demo.platform.register(demo.eventId, { count: 150 });
		// The first attendee cancels while the first check reads the list: the 101st shifts to the page already read.
		await demo.platform.duringRead({
			list: 'attendees',
			eventId: demo.eventId,
			id: Number(attendees[0].id),
			action: 'delete',
			beforePage: 1,
		});
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		expect(await trigger.activate()).toEqual({});
		expect(await demo.platform.pendingEdits()).toEqual([]);
		expect(await trigger.tick()).toEqual({});
		const late = await demo.platform.register(demo.eventId, { count: 1 });
		expect((await trigger.tick()).emitted?.map((item) => item.json.id)).toEqual(ids(late));
	});
});

describe('Knolyx Poll Trigger: the bound', () => {
	it(`works again as soon as a list that went over ${MAX_REMEMBERED} entries is back under it, and emits what was added meanwhile, once`, async () => {
		await demo.platform.register(demo.eventId, { count: MAX_REMEMBERED - 1 });
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId));
		expect(await trigger.activate()).toEqual({});

		const added = await demo.platform.register(demo.eventId, { count: 2 });
		const over = await trigger.tick();
		expect(over.error?.message).toContain(`holds ${MAX_REMEMBERED + 1} entries`);
		expect(over.emitted).toBeUndefined();

		// Three people who were there at the first check cancel: the list is back under the bound.
		await demo.platform.cancelMany(demo.eventId, 3, 'first');
		const back = await trigger.tick();
		expect(back.error?.message).toBeUndefined();
		expect(back.emitted?.map((item) => item.json.id)).toEqual(ids(added));
		expect(await trigger.tick()).toEqual({});
		const late = await demo.platform.register(demo.eventId, { count: 1 });
		expect((await trigger.tick()).emitted?.map((item) => item.json.id)).toEqual(ids(late));
		expect(ids(executionsJson(trigger).flat())).toEqual([...ids(added), ...ids(late)]);
	}, 180_000);
});

describe('Knolyx Poll Trigger: a state saved by the previous release', () => {
	it('is read as it is: only entries it does not hold start the workflow, one it holds as missing once is not new', async () => {
		const existing = await demo.platform.register(demo.eventId, { count: 3 });
		const [back] = await demo.platform.register(demo.eventId, { email: 'back@example.com' });
		const state = {
			v: 1,
			watch: `newAttendee:event:${demo.communityId}:${demo.eventId}`,
			lists: {
				[`attendees:${demo.eventId}`]: { seen: [...ids(existing), back.id], missing: [back.id] },
			},
			polledAt: '2026-11-20T10:00:00.000Z',
		};
		const added = await demo.platform.register(demo.eventId, { count: 2 });
		const trigger = host(demo.sandbox, attendeesOfEvent(demo.communityId, demo.eventId), {
			'node:Knolyx Poll Trigger': { state },
		});
		expect((await trigger.activate('init')).emitted?.map((item) => item.json.id)).toEqual(
			ids(added),
		);
		expect(await trigger.tick()).toEqual({});
	});
});
