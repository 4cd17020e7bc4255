/**
 * Rule lists under faults and concurrency. The platform replaces a course's whole rule list on
 * every save and has no version or ETag, so the node reads, applies, saves and re-reads:
 * - a save whose connection drops after the platform applied it is not re-posted: the re-read
 *   shows it holds (the final list is what was meant, saved once);
 * - a save that timed out gets the timeout again before the re-read, so a platform that applies
 *   it late (within twice the timeout) is seen instead of overwritten later; beyond that, a late
 *   save can replace a later edit (a LIMITATION test pins it down for docs/reliability.md);
 * - executions of one n8n process take turns per course (lock), even under faults;
 * - two processes (no shared lock) can overwrite each other: the verifying re-read catches an
 *   overwrite that lands before it and redoes the edit; one that lands after it is not caught
 *   (a LIMITATION test pins that down, for docs/reliability.md).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { applyRuleEdit, type Rule, type RuleEdit } from '../../nodes/Knolyx/helpers/rules';
import type { FaultConfig, Sandbox } from '../../sandbox';
import { readRules } from '../../sandbox/rules';
import { RULE_READ, RULE_SAVE, rl, run, useSandbox } from '../action/setup';
import { faultTotal, recordCounts, tally } from './helpers';
import { deferred, sleep, startScriptedProxy, type ScriptedProxy } from './proxy';

const ctx = useSandbox();

type Json = Record<string, unknown>;
const DEFAULTS = {
	type: 'PRIVATE',
	startDateTime: '2020-01-01 00:00:00',
	endDateTime: '2070-01-01 00:00:00',
};
const base = {
	type: 'PUBLIC',
	startDateTime: '2020-01-01 00:00:00',
	endDateTime: '2070-01-01 00:00:00',
};
const KEEP = {
	name: 'Keep',
	...base,
	restrictions: { minimumTime: true, browseOrder: 'anyOrder', x_extra: 1 },
	associations: { USER: [1001], DEPARTMENT: [3], JOB: [4] },
	action: 'STUDENTS',
	x_custom: { nested: ['a'] },
};
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const wgs = (rule: Json | undefined) =>
	((rule?.associations as Json | undefined)?.WORKGROUP as number[] | undefined) ?? [];
const byName = (rules: Json[], name: string) => rules.find((rule) => rule.name === name);

function newCourse(sandbox: Sandbox, rules: Json[]): number {
	const [courseId] = sandbox.seed({ courses: [{ title: 'Rule faults' }] }).courses;
	sandbox.seed({ rules: { [courseId]: rules } });
	sandbox.resetStats();
	return courseId;
}

const read = (courseId: number): Json[] =>
	structuredClone(readRules(ctx.sandbox.state, courseId)) as Json[];

/** Lets the sandbox drop the answers of the first `count` rule saves after applying them (resetAfterApplyRate = 1), then no more. */
function dropFirstSaveAnswers(sandbox: Sandbox, count: number): () => void {
	const rules = sandbox.state.rules;
	const original = rules.set.bind(rules);
	let applied = 0;
	sandbox.setFaults({ resetAfterApplyRate: 1 });
	rules.set = ((key: number, value: never) => {
		const result = original(key, value);
		// The save is applied now; its answer is already doomed. Later saves are answered.
		if (++applied === count) sandbox.setFaults({ resetAfterApplyRate: 0 });
		return result;
	}) as typeof rules.set;
	return () => {
		// Back to Map.prototype.set.
		Reflect.deleteProperty(rules, 'set');
	};
}

/** The list the edits mean, applied in item order to what was read, in the read shape. */
function model(before: Json[], edits: RuleEdit[]): Json[] {
	const after = edits.reduce<Rule[]>((list, edit) => {
		try {
			return applyRuleEdit(list, edit).rules;
		} catch {
			return list;
		}
	}, before as Rule[]);
	return after.map((rule) => ({ ...rule, action: rule.action ?? 'WORKGROUP' }));
}

/** Ids of rules created during the test are the platform's business: compare without them. */
function withoutNewIds(rules: Json[], before: Json[]): Json[] {
	const known = new Set(before.map((rule) => rule.id));
	return rules.map(({ id, ...rest }) => (known.has(id) ? { id, ...rest } : rest));
}

describe('a rule save that fails half way (the platform applies it, the answer is lost)', () => {
	interface Case {
		name: string;
		parameters: IDataObject;
		items: IDataObject[];
		edits: RuleEdit[];
		actions: string[];
	}
	const adds = [...range(11, 30), 1, 2, 3];
	const removes = [...range(1, 8), 99];
	const upserts = range(0, 15).map((n) => ({ name: `U${n % 5}`, ids: [100 + n, 200 + n] }));
	const cases: Case[] = [
		{
			name: 'addWorkgroup × 33 (30 new, 3 already there)',
			parameters: {
				resource: 'rule',
				operation: 'addWorkgroup',
				ruleName: 'A',
				workgroupId: '={{ $json.v }}',
			},
			items: adds.map((v) => ({ v })),
			edits: adds.map((workgroupId) => ({
				kind: 'addWorkgroup',
				ruleName: 'A',
				workgroupId,
				defaults: DEFAULTS,
			})),
			actions: adds.map((v) => (v > 10 ? 'workgroupAdded' : 'alreadyPresent')),
		},
		{
			name: 'removeWorkgroup × 9 (8 there, 1 not)',
			parameters: {
				resource: 'rule',
				operation: 'removeWorkgroup',
				ruleName: 'A',
				workgroupId: '={{ $json.v }}',
			},
			items: removes.map((v) => ({ v })),
			edits: removes.map((workgroupId) => ({
				kind: 'removeWorkgroup',
				ruleName: 'A',
				workgroupId,
			})),
			actions: removes.map((v) => (v === 99 ? 'notPresent' : 'workgroupRemoved')),
		},
		{
			name: 'upsert × 15 on 5 new rules (later items win)',
			parameters: {
				resource: 'rule',
				operation: 'upsert',
				ruleName: '={{ $json.name }}',
				type: 'PUBLIC',
				startDateTime: DEFAULTS.startDateTime,
				endDateTime: DEFAULTS.endDateTime,
				workgroupIds: '={{ $json.ids.join(",") }}',
			},
			items: upserts,
			edits: upserts.map(({ name, ids }) => ({
				kind: 'upsert',
				ruleName: name,
				fields: {
					type: 'PUBLIC',
					startDateTime: DEFAULTS.startDateTime,
					endDateTime: DEFAULTS.endDateTime,
					workgroupIds: ids,
				},
				defaults: DEFAULTS,
			})),
			actions: upserts.map((_, n) => (n < 5 ? 'created' : 'updated')),
		},
		{
			name: 'delete × 3 (2 there, 1 not)',
			parameters: { resource: 'rule', operation: 'delete', ruleName: '={{ $json.name }}' },
			items: [{ name: 'Doomed' }, { name: 'Nope' }, { name: 'Doomed too' }],
			edits: ['Doomed', 'Nope', 'Doomed too'].map((ruleName) => ({ kind: 'delete', ruleName })),
			actions: ['deleted', 'notFound', 'deleted'],
		},
	];

	it.each(cases)(
		'$name: the final list is what was meant, saved once',
		async ({ name, parameters, items, edits, actions }) => {
			const sandbox = ctx.sandbox;
			const courseId = newCourse(sandbox, [
				KEEP,
				{
					...KEEP,
					name: 'A',
					type: 'PRIVATE',
					associations: { WORKGROUP: range(1, 10), USER: [5] },
				},
				{ ...KEEP, name: 'Doomed', associations: { JOB: [9] } },
				{ ...KEEP, name: 'Doomed too', associations: {} },
			]);
			const before = read(courseId);
			const restore = dropFirstSaveAnswers(sandbox, 1);
			let result;
			try {
				result = await run(sandbox, { ...parameters, courseId: rl(courseId) }, items, {
					continueOnFail: true,
				});
			} finally {
				restore();
			}
			const out = tally(result.items, items.length, name);
			const after = read(courseId);
			expect(withoutNewIds(after, before)).toEqual(withoutNewIds(model(before, edits), before));
			expect([...out.errors.values()]).toEqual([]);
			expect([...out.ok.values()].map((json) => json.action)).toEqual(actions);
			const stats = sandbox.stats();
			expect(stats.faultsInjected.resetAfterApply).toBe(1);
			// Saved once: the re-read after the lost answer showed the save held, nothing was re-posted.
			expect(stats.byRoute).toEqual({ [RULE_READ]: 2, [RULE_SAVE]: 1 });
			expect(stats.writes[`rules:${courseId}`]).toBe(1);
			expect(stats.duplicateWrites).toBe(0);
			const names = after.map((rule) => rule.name);
			expect(new Set(names).size).toBe(names.length);
			recordCounts({
				suite: 'rule save lost half way',
				scenario: name,
				faults: faultTotal(stats),
				items: items.length,
				succeeded: out.succeeded,
				failed: out.failed,
				duplicates: names.length - new Set(names).size,
				lost: 0,
				note: `${stats.writes[`rules:${courseId}`]} save applied, ${stats.byRoute[RULE_READ]} reads`,
			});
		},
	);

	it('a save applied only after the node gave up on it (timeout): seen by the re-read, not posted again', async () => {
		// The platform receives the first save but handles it only after 1.5 s; the node (timeout
		// 1 s) waits the timeout again before its re-read, which then shows the save held.
		const sandbox = ctx.sandbox;
		const courseId = newCourse(sandbox, [
			KEEP,
			{ ...KEEP, name: 'A', associations: { WORKGROUP: [1] } },
		]);
		const before = read(courseId);
		const proxy = await startScriptedProxy(sandbox.url, '/late', {
			async before(request) {
				if (request.method === 'POST' && request.methodIndex === 0) await sleep(1500);
			},
		});
		try {
			const items = range(2, 20).map((v) => ({ v }));
			const result = await run(
				sandbox,
				{
					resource: 'rule',
					operation: 'addWorkgroup',
					courseId: rl(courseId),
					ruleName: 'A',
					workgroupId: '={{ $json.v }}',
					requestOptions: { timeout: 1 },
				},
				items,
				{ continueOnFail: true, credentials: { baseUrl: proxy.url } },
			);
			const out = tally(result.items, items.length, 'late save');
			expect([...out.errors.values()]).toEqual([]);
			const saves = proxy.log.filter((request) => request.method === 'POST');
			expect(saves.map((save) => [save.clientGone ?? false, save.status])).toEqual([[true, 200]]);
			expect(read(courseId)).toEqual(
				model(
					before,
					items.map(({ v }) => ({
						kind: 'addWorkgroup',
						ruleName: 'A',
						workgroupId: v as number,
						defaults: DEFAULTS,
					})),
				),
			);
			const stats = sandbox.stats();
			expect(stats.writes[`rules:${courseId}`]).toBe(1);
			expect(stats.duplicateWrites).toBe(0);
			recordCounts({
				suite: 'rule save lost half way',
				scenario: 'save applied 0.5 s after the 1 s timeout',
				faults: 1,
				items: items.length,
				succeeded: out.succeeded,
				failed: out.failed,
				duplicates: stats.duplicateWrites,
				lost: 0,
				note: `${stats.writes[`rules:${courseId}`]} save applied, ${stats.byRoute[RULE_READ]} reads`,
			});
		} finally {
			await proxy.close();
		}
	});

	/**
	 * Run 1 adds workgroups 1 and 2 to a new rule "New" with a 1 s timeout; the platform handles
	 * its first save `delayMs` late. Right after run 1, run 2 (same process, same course) adds 3.
	 */
	async function lateSave(delayMs: number) {
		const sandbox = ctx.sandbox;
		const courseId = newCourse(sandbox, [KEEP]);
		const keepBefore = read(courseId)[0];
		const proxy = await startScriptedProxy(sandbox.url, `/late-${delayMs}`, {
			async before(request) {
				if (request.method === 'POST' && request.methodIndex === 0) await sleep(delayMs);
			},
		});
		try {
			const params = {
				resource: 'rule',
				operation: 'addWorkgroup',
				courseId: rl(courseId),
				ruleName: 'New',
				workgroupId: '={{ $json.v }}',
				requestOptions: { timeout: 1 },
			};
			const options = { continueOnFail: true, credentials: { baseUrl: proxy.url } };
			const first = await run(sandbox, params, [{ v: 1 }, { v: 2 }], options);
			const second = await run(sandbox, params, [{ v: 3 }], options);
			await sleep(Math.max(0, delayMs - 800) + 300);
			const after = read(courseId);
			return {
				keepBefore,
				after,
				created: after.filter((rule) => rule.name === 'New'),
				reported: (second.json[0].rule as Json | undefined)?.id,
				errors: [...first.json, ...second.json].filter((json) => json.error !== undefined),
				saves: proxy.log.filter((request) => request.method === 'POST').length,
			};
		} finally {
			await proxy.close();
		}
	}

	it('a save that timed out is given the time again before the re-read: a late save is seen, not repeated', async () => {
		const result = await lateSave(1500);
		expect(result.errors).toEqual([]);
		expect(result.after[0]).toEqual(result.keepBefore);
		expect(result.created).toHaveLength(1);
		expect(wgs(result.created[0])).toEqual([1, 2, 3]);
		expect(result.created[0].id).toBe(result.reported);
		// Run 1 saved once (the late save), run 2 once.
		expect(result.saves).toBe(2);
	});

	it('LIMITATION (docs/reliability.md): a save the platform applies after twice the timeout can replace a later edit', async () => {
		const result = await lateSave(3500);
		// Every item reported success ...
		expect(result.errors).toEqual([]);
		// ... run 1 saved again after its re-read, run 2 saved its edit, then run 1's first save
		// landed with the list it was computed from: run 2's workgroup is gone and the rule has a
		// new id. Running run 2 again repairs it (edits are idempotent).
		expect(result.saves).toBe(3);
		expect(result.created).toHaveLength(1);
		expect(wgs(result.created[0])).toEqual([1, 2]);
		expect(result.created[0].id).not.toBe(result.reported);
	});
});

describe('concurrent executions editing the same rule (one n8n process)', () => {
	const A_ADD = range(1000, 40);
	const B_ADD = range(2000, 40);
	const A_REMOVE = range(3000, 25);
	const B_REMOVE = range(4000, 25);
	const STAYS = range(9000, 5);

	/** One workflow: items → Add Workgroup (all adds) and items → Remove Workgroup (all removes), same rule. */
	async function workflow(
		sandbox: Sandbox,
		courseId: number,
		add: number[],
		remove: number[],
		options: INodeParameters = {},
	) {
		const edit = (operation: string, ids: number[]) =>
			run(
				sandbox,
				{
					resource: 'rule',
					operation,
					courseId: rl(courseId),
					ruleName: 'Shared',
					workgroupId: '={{ $json.v }}',
					requestOptions: options,
				},
				ids.map((v) => ({ v })),
				{ continueOnFail: true },
			);
		const added = await edit('addWorkgroup', add);
		const removed = await edit('removeWorkgroup', remove);
		return {
			added: tally(added.items, add.length, 'adds'),
			removed: tally(removed.items, remove.length, 'removes'),
		};
	}

	const faultCases: Array<[string, Partial<FaultConfig>]> = [
		['no faults', {}],
		[
			'resets before and after a save, 503s and slow answers',
			{
				resetRate: 0.1,
				resetAfterApplyRate: 0.3,
				errorRate: 0.15,
				errorStatuses: [503],
				slowRate: 0.2,
				slowMs: 40,
				seed: 31,
			},
		],
	];
	it.each(faultCases)(
		'two workflows at once, adds and removes of different workgroups: every edit holds (%s)',
		async (name, faults) => {
			const sandbox = ctx.sandbox;
			const courseId = newCourse(sandbox, [
				KEEP,
				{
					...KEEP,
					name: 'Shared',
					associations: { WORKGROUP: [...A_REMOVE, ...STAYS, ...B_REMOVE], USER: [1] },
				},
			]);
			const keepBefore = read(courseId)[0];
			sandbox.setFaults({ latencyMs: 5, ...faults });
			const [a, b] = await Promise.all([
				workflow(sandbox, courseId, A_ADD, A_REMOVE),
				workflow(sandbox, courseId, B_ADD, B_REMOVE),
			]);
			const stats = sandbox.stats();
			sandbox.resetFaults();

			const all = [a.added, a.removed, b.added, b.removed];
			for (const t of all) expect([...t.errors.values()]).toEqual([]);
			const after = read(courseId);
			const shared = byName(after, 'Shared');
			expect(after).toHaveLength(2);
			expect(after[0]).toEqual(keepBefore);
			expect([...wgs(shared)].sort((x, y) => x - y)).toEqual([...A_ADD, ...B_ADD, ...STAYS]);
			expect((shared?.associations as Json).USER).toEqual([1]);
			const lost =
				[...A_ADD, ...B_ADD].filter((id) => !wgs(shared).includes(id)).length +
				[...A_REMOVE, ...B_REMOVE].filter((id) => wgs(shared).includes(id)).length;
			recordCounts({
				suite: 'concurrent rule edits',
				scenario: `one process, 2 workflows × 65 items (${name})`,
				faults: faultTotal(stats),
				items: all.reduce((sum, t) => sum + t.items, 0),
				succeeded: all.reduce((sum, t) => sum + t.succeeded, 0),
				failed: all.reduce((sum, t) => sum + t.failed, 0),
				duplicates: stats.duplicateWrites,
				lost,
				note: `${stats.writes[`rules:${courseId}`]} saves applied, ${stats.byRoute[RULE_READ]} reads`,
			});
			expect(lost).toBe(0);
			expect(stats.duplicateWrites).toBe(0);
		},
	);
});

describe('two n8n processes editing the same course (no shared lock)', () => {
	// Each "process" reaches the sandbox through its own URL prefix: the lock scopes differ, as
	// between two queue-mode workers. The proxies force the order of the requests.
	let proxies: ScriptedProxy[] = [];
	afterEach(async () => {
		for (const proxy of proxies) await proxy.close();
		proxies = [];
	});

	const A_ADD = range(100, 30);
	const B_REMOVE = range(500, 20);
	const STAYS = [900, 901];

	async function race(
		order: 'overwrite before the verifying read' | 'overwrite after the verifying read',
	) {
		const sandbox = ctx.sandbox;
		const courseId = newCourse(sandbox, [
			KEEP,
			{ ...KEEP, name: 'Shared', associations: { WORKGROUP: [...B_REMOVE, ...STAYS] } },
		]);
		const bRead = deferred();
		const aSaved = deferred();
		const bSaved = deferred();
		const aVerified = deferred();
		const late = order === 'overwrite after the verifying read';
		const a = await startScriptedProxy(sandbox.url, '/process-a', {
			async before(request) {
				// A saves only once B has read the same list.
				if (request.method === 'POST' && request.methodIndex === 0) await bRead.promise;
				// A's verifying read waits for B's stale save, unless B's save comes late.
				if (request.method === 'GET' && request.methodIndex === 1 && !late) await bSaved.promise;
			},
			after(request) {
				if (request.method === 'POST' && request.methodIndex === 0) aSaved.resolve();
				if (request.method === 'GET' && request.methodIndex === 1) aVerified.resolve();
			},
		});
		const b = await startScriptedProxy(sandbox.url, '/process-b', {
			async before(request) {
				// B's save, computed from the list before A's save, lands after A's save ...
				if (request.method === 'POST' && request.methodIndex === 0)
					await (late ? aVerified.promise : aSaved.promise);
			},
			after(request) {
				if (request.method === 'GET' && request.methodIndex === 0) bRead.resolve();
				if (request.method === 'POST' && request.methodIndex === 0) bSaved.resolve();
			},
		});
		proxies.push(a, b);
		const params = (operation: string) => ({
			resource: 'rule',
			operation,
			courseId: rl(courseId),
			ruleName: 'Shared',
			workgroupId: '={{ $json.v }}',
		});
		const [outA, outB] = await Promise.all([
			run(
				sandbox,
				params('addWorkgroup'),
				A_ADD.map((v) => ({ v })),
				{ continueOnFail: true, credentials: { baseUrl: a.url } },
			),
			run(
				sandbox,
				params('removeWorkgroup'),
				B_REMOVE.map((v) => ({ v })),
				{ continueOnFail: true, credentials: { baseUrl: b.url } },
			),
		]);
		const shared = byName(read(courseId), 'Shared');
		return {
			courseId,
			a: tally(outA.items, A_ADD.length, 'process A'),
			b: tally(outB.items, B_REMOVE.length, 'process B'),
			shared,
			savesA: a.log.filter((r) => r.method === 'POST').length,
			savesB: b.log.filter((r) => r.method === 'POST').length,
			lostAdds: A_ADD.filter((id) => !wgs(shared).includes(id)).length,
			lostRemoves: B_REMOVE.filter((id) => wgs(shared).includes(id)).length,
		};
	}

	it('an overwrite that lands before the verifying read is detected and the edit redone', async () => {
		const result = await race('overwrite before the verifying read');
		expect([...result.a.errors.values(), ...result.b.errors.values()]).toEqual([]);
		// A saved, B overwrote it with a list computed before A's save, A's re-read saw that and saved again.
		expect([result.savesA, result.savesB]).toEqual([2, 1]);
		expect([...wgs(result.shared)].sort((x, y) => x - y)).toEqual([...A_ADD, ...STAYS]);
		expect([result.lostAdds, result.lostRemoves]).toEqual([0, 0]);
		recordCounts({
			suite: 'concurrent rule edits',
			scenario: 'two processes, overwrite before the verifying read',
			faults: 1,
			items: A_ADD.length + B_REMOVE.length,
			succeeded: result.a.succeeded + result.b.succeeded,
			failed: result.a.failed + result.b.failed,
			duplicates: 0,
			lost: result.lostAdds + result.lostRemoves,
			note: 'the overwritten edit was redone by the verifying re-read',
		});
	});

	it('LIMITATION (docs/reliability.md): a stale save of another process that lands after the verifying read overwrites the edit', async () => {
		const result = await race('overwrite after the verifying read');
		// Both report success: A verified before B's save; B's save was computed before A's.
		expect([result.a.failed, result.b.failed]).toEqual([0, 0]);
		expect([result.savesA, result.savesB]).toEqual([1, 1]);
		expect(result.lostAdds).toBe(A_ADD.length);
		expect(result.lostRemoves).toBe(0);
		// Running the same items again repairs it: the edits are idempotent.
		const again = await run(
			ctx.sandbox,
			{
				resource: 'rule',
				operation: 'addWorkgroup',
				courseId: rl(result.courseId),
				ruleName: 'Shared',
				workgroupId: '={{ $json.v }}',
			},
			A_ADD.map((v) => ({ v })),
		);
		expect(again.error).toBeUndefined();
		expect([...wgs(byName(read(result.courseId), 'Shared'))].sort((x, y) => x - y)).toEqual([
			...A_ADD,
			...STAYS,
		]);
	});
});

describe('rule saves Knolyx does not take (503s and resets; nobody else edits the rules)', () => {
	const addA = {
		resource: 'rule',
		operation: 'addWorkgroup',
		ruleName: 'A',
		workgroupId: 1,
	};

	it('a failed save whose re-read shows the course unchanged is made again after a pause, not counted as a conflict: the edit lands once', async () => {
		// The counterexample of the fault properties in fresh CI run G (2026-11-29): with these
		// seeded faults the first five saves failed (503s, a reset), and the node gave up with
		// "kept changing under this edit; another workflow or person is editing them".
		const sandbox = ctx.sandbox;
		const courseId = newCourse(sandbox, []);
		sandbox.setFaults({
			resetRate: 0.2,
			resetAfterApplyRate: 0,
			errorRate: 0.15,
			errorStatuses: [503],
			seed: 627,
		});
		let result;
		try {
			result = await run(sandbox, { ...addA, courseId: rl(courseId) }, [{}], {
				continueOnFail: true,
			});
		} finally {
			sandbox.resetFaults();
		}
		expect(result.json.map((json) => json.error)).toEqual([undefined]);
		expect(read(courseId).map((rule) => [rule.name, wgs(rule)])).toEqual([['A', [1]]]);
		expect(faultTotal(sandbox.stats())).toBeGreaterThanOrEqual(5);
		expect(sandbox.stats().duplicateWrites).toBe(0);
	});

	it("a save Knolyx refuses every time: after the transport's attempts the item fails with Knolyx's own answer, not as a conflict; nothing saved", async () => {
		const sandbox = ctx.sandbox;
		const courseId = newCourse(sandbox, [KEEP]);
		const before = read(courseId);
		const proxy = await startScriptedProxy(sandbox.url, '/refusing', {
			answer: (request) =>
				request.method === 'POST'
					? { status: 503, body: '{"message":"Service Unavailable"}' }
					: undefined,
		});
		try {
			const result = await run(sandbox, { ...addA, courseId: rl(courseId) }, [{}], {
				continueOnFail: true,
				credentials: { baseUrl: proxy.url },
			});
			const [error] = result.json.map((json) => String(json.error ?? ''));
			expect(error).toMatch(/\[503\]$/);
			expect(error).not.toMatch(/kept changing/);
			const saves = proxy.log.filter((request) => request.method === 'POST');
			// DEFAULT_RETRY.maxAttempts; each followed by a read that found the course unchanged.
			expect(saves).toHaveLength(8);
			expect(read(courseId)).toEqual(before);
		} finally {
			await proxy.close();
		}
	});
});
