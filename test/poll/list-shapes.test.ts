/**
 * Issue 45, lists: the Poll Trigger reads a catalogue the platform pages at a size of its own, as
 * every list (test/action/list-shapes.test.ts has the action node's rows; this one lives under
 * test/poll because the poll host needs n8n-core 2.x's PollTriggerExecutor, which the floor run's
 * n8n-core 1.84 does not have).
 */
import { host } from './helpers';
import { useSandbox } from '../action/setup';

const ctx = useSandbox();
beforeEach(() => ctx.sandbox.setVariants([]));

it('New Course: 297 courses added to a catalogue served 150 a page are emitted once each', async () => {
	ctx.sandbox.setVariants(['largePages']);
	const trigger = host(ctx.sandbox, { event: 'newCourse' });
	expect(await trigger.activate()).toEqual({});
	await fetch(`${ctx.sandbox.url}/sandbox/courses`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ count: 297 }),
	});
	const { emitted, error } = await trigger.tick();
	expect(error).toBeUndefined();
	expect(emitted).toHaveLength(297);
	expect(await trigger.tick()).toEqual({});
});
