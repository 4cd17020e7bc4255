/**
 * n8n-core checks every node's parameters before a run starts (checkReadyForExecution); for a
 * resource locator with a fixed ID that check runs the mode's validation regex through
 * n8n-workflow's safeRegex, in a `vm` with a 250 ms limit. On a loaded machine that limit can
 * pass before the script is even scheduled, and the whole run then fails with "Regular expression
 * execution timed out" before any node ran: a random failure of any test with a fixed ID. The
 * harness runs such a workflow again (nothing was sent: no node had run); a run that failed any
 * other way, or after a node ran, is never repeated.
 */
import { resetSafeRegexEngine, setSafeRegexEngine } from 'n8n-workflow';

import { rl, run, useSandbox } from './setup';

const ctx = useSandbox();
const course = (title: string) => ctx.demo.courses[title];

type Engine = Parameters<typeof setSafeRegexEngine>[0];

/** A regex engine that answers as n8n's does, but times out the first `failures` checks. */
function engineTimingOut(failures: number): { engine: Engine; checks: () => number } {
	let checks = 0;
	const timedOut = () => {
		checks += 1;
		if (checks <= failures) throw new Error('Regular expression execution timed out');
	};
	const engine: Engine = {
		exec: (pattern, input, flags) => (timedOut(), new RegExp(pattern, flags).exec(input)),
		test: (pattern, input, flags) => (timedOut(), new RegExp(pattern, flags).test(input)),
		replace: (pattern, input, flags, replacement) => (
			timedOut(),
			input.replace(new RegExp(pattern, flags), replacement)
		),
		matchAll: (pattern, input, flags) => (
			timedOut(),
			Array.from(
				input.matchAll(new RegExp(pattern, flags?.includes('g') ? flags : `${flags ?? ''}g`)),
			)
		),
		split: (pattern, input, flags) => (timedOut(), input.split(new RegExp(pattern, flags))),
	};
	return { engine, checks: () => checks };
}

// n8n-workflow 1.83 (the floor line's) has no safeRegex: its n8n-core checks without a time limit.
const withSafeRegex = typeof setSafeRegexEngine === 'function' ? describe : describe.skip;

afterEach(() => resetSafeRegexEngine?.());

withSafeRegex("a run stopped by n8n's regex time limit before any node ran", () => {
	it('is run again and gives the node output, with one request sent', async () => {
		const { engine, checks } = engineTimingOut(1);
		setSafeRegexEngine(engine);
		const before = ctx.sandbox.stats().requests;
		const result = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'get',
			courseId: rl(course('Data Literacy')),
		});
		expect(result.error?.message).toBeUndefined();
		expect(result.json).toEqual([
			expect.objectContaining({ id: course('Data Literacy'), title: 'Data Literacy' }),
		]);
		expect(checks()).toBeGreaterThanOrEqual(2);
		expect(ctx.sandbox.stats().requests - before).toBe(1);
	});

	it('fails with that error when the limit is hit on every try (no endless loop)', async () => {
		setSafeRegexEngine(engineTimingOut(Number.MAX_SAFE_INTEGER).engine);
		const before = ctx.sandbox.stats().requests;
		await expect(
			run(ctx.sandbox, {
				resource: 'course',
				operation: 'get',
				courseId: rl(course('Data Literacy')),
			}),
		).rejects.toThrow('Regular expression execution timed out');
		expect(ctx.sandbox.stats().requests - before).toBe(0);
	});
});
