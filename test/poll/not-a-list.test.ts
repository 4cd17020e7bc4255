/**
 * Knolyx Poll Trigger when the platform (or something in front of it) answers a list read with
 * something that is not a list, e.g. `200 {"status":"MAINTENANCE"}` during maintenance: the poll
 * fails and changes no state, so the next good poll emits exactly what was added meanwhile (not
 * every known attendee again). n8n-core's poll executor, the sandbox's edge rules, real HTTP.
 */
import { startSandbox, type Sandbox } from '../../sandbox';
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
	])('two polls answered 200 with %s fail and change nothing; the next good poll emits only the new attendees', async (_what, body) => {
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
			expect(failed.error?.message).toBe('Knolyx answered a list request with something that is not a list [200]');
			expect(failed.emitted).toBeUndefined();
			expect(JSON.stringify(trigger.nodeStaticData)).toBe(memoryBefore);
			expect(JSON.stringify(trigger.saved)).toBe(savedBefore);
		}
		expect((await edgeReport(sandbox.url))[0].served).toBe(2);

		const added = await platform.register(eventId, { count: 2 });
		const next = await trigger.tick();
		expect(next.error).toBeUndefined();
		expect(next.emitted?.map((item) => item.json.id)).toEqual(added.map((attendee) => attendee.id));
		expect(await trigger.tick()).toEqual({});
		expect(executionsJson(trigger)).toHaveLength(1);
	});
});
