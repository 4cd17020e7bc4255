/**
 * Safe rule editing against the sandbox: the platform deletes every rule left out of a save,
 * so every edit must keep every other rule (and every field of the edited one) exactly as read.
 */
import fc from 'fast-check';

import { readRules } from '../../sandbox/rules';
import { RULE_READ, RULE_SAVE, aRule, rl, routes, run, runOk, useSandbox } from './setup';

const ctx = useSandbox();

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Random rule lists: foreign associations (USER, DEPARTMENT, JOB), unknown fields at the top
// level and inside restrictions, both action values, unicode names.

const ids = fc.uniqueArray(fc.integer({ min: 1, max: 999_999 }), { maxLength: 4 });
const unknownFields = fc.dictionary(
	fc.string({ minLength: 1, maxLength: 8 }).map((key) => `x_${key}`),
	fc.jsonValue({ maxDepth: 2 }),
	{ maxKeys: 3 },
);
const apiDate = fc
	.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2090, 0, 1) })
	.map((ms) => new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' '));
const ruleName = fc
	.string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
	.filter((name) => name.trim() === name && name !== '');

const ruleArb: fc.Arbitrary<Json> = fc
	.record(
		{
			name: ruleName,
			type: fc.constantFrom('PUBLIC', 'PRIVATE'),
			dates: fc.tuple(apiDate, apiDate).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
			restrictions: fc.record({
				minimumTime: fc.boolean(),
				browseOrder: fc.constantFrom('anyOrder', 'sequential'),
			}),
			restrictionsExtra: unknownFields,
			associations: fc.record(
				{ WORKGROUP: ids, USER: ids, DEPARTMENT: ids, JOB: ids },
				{ requiredKeys: [] },
			),
			action: fc.option(fc.constantFrom('WORKGROUP', 'STUDENTS'), { nil: undefined }),
			extra: unknownFields,
		},
		{
			requiredKeys: [
				'name',
				'type',
				'dates',
				'restrictions',
				'restrictionsExtra',
				'associations',
				'extra',
			],
		},
	)
	.map(
		({ dates, restrictionsExtra, extra, action, restrictions, ...rule }) =>
			// JSON round trip: what the platform stores is what JSON can carry.
			JSON.parse(
				JSON.stringify({
					...extra,
					...rule,
					startDateTime: dates[0],
					endDateTime: dates[1],
					restrictions: { ...restrictionsExtra, ...restrictions },
					...(action ? { action } : {}),
				}),
			) as Json,
	);

const TARGET = 'PAYMENT_INTEGRATION_TARGET';

/** Rules of other names, and maybe the target rule (with random content) at a random position. */
const courseRules = fc
	.record({
		others: fc.array(
			ruleArb.filter((rule) => rule.name !== TARGET),
			{ maxLength: 6 },
		),
		target: fc.option(
			ruleArb.map((rule) => ({ ...rule, name: TARGET })),
			{ nil: undefined },
		),
		at: fc.nat(),
	})
	.map(({ others, target, at }) => {
		const list = [...others];
		if (target) list.splice(at % (list.length + 1), 0, target);
		return list;
	});

/** A new course with the given rules; returns its id. */
function courseWith(rules: Json[]): number {
	const [courseId] = ctx.sandbox.seed({ courses: [{ title: 'Property course' }] }).courses;
	ctx.sandbox.seed({ rules: { [courseId]: rules } });
	ctx.sandbox.resetStats();
	return courseId;
}

const read = (courseId: number): Json[] => structuredClone(readRules(ctx.sandbox.state, courseId));
const withoutTarget = (rules: Json[]) => rules.filter((rule) => rule.name !== TARGET);
const targetOf = (rules: Json[]) => rules.find((rule) => rule.name === TARGET);
const workgroupsOf = (rule: Json | undefined) =>
	((rule?.associations as Json | undefined)?.WORKGROUP as number[] | undefined) ?? [];

/** Requests of one edit: a read when nothing changes; read + save + verifying read otherwise. */
function expectRequests(changed: boolean): void {
	expect(routes(ctx.sandbox)).toEqual(
		changed ? { [RULE_READ]: 2, [RULE_SAVE]: 1 } : { [RULE_READ]: 1 },
	);
}

const runs = { numRuns: 25 };

/** A course holding `rules`, what it holds, and the workgroup to edit: one already on the target rule (first or last) or `randomId`. */
function seedCourse(rules: Json[], existing: 'first' | 'last' | undefined, randomId: number) {
	const courseId = courseWith(rules);
	const before = read(courseId);
	const beforeTarget = targetOf(before);
	const present = workgroupsOf(beforeTarget);
	const picked =
		existing === 'first'
			? present[0]
			: existing === 'last'
				? present[present.length - 1]
				: undefined;
	return { courseId, before, beforeTarget, present, workgroupId: picked ?? randomId };
}

/** Adds or removes one workgroup on the target rule of a course; the node's one output item. */
async function editWorkgroup(operation: string, courseId: number, workgroupId: number) {
	const [out] = await runOk(ctx.sandbox, {
		resource: 'rule',
		operation,
		courseId: rl(courseId),
		ruleName: TARGET,
		workgroupId: rl(workgroupId),
	});
	return out;
}

/**
 * The property both workgroup edits share: on a random course, every other rule is kept as read,
 * `changed` and the requests are as `changedBy` says, and `checkTarget` checks the target rule.
 */
async function assertWorkgroupEdit(
	operation: 'addWorkgroup' | 'removeWorkgroup',
	existing: 'first' | 'last',
	changedBy: (present: number[], workgroupId: number) => boolean,
	checkTarget: (seeded: ReturnType<typeof seedCourse>, after: Json[], changed: boolean) => void,
): Promise<void> {
	await fc.assert(
		fc.asyncProperty(
			courseRules,
			fc.integer({ min: 1, max: 999_999 }),
			fc.boolean(),
			async (rules, randomId, pickExisting) => {
				const seeded = seedCourse(rules, pickExisting ? existing : undefined, randomId);
				const { courseId, before, present, workgroupId } = seeded;

				const out = await editWorkgroup(operation, courseId, workgroupId);

				const after = read(courseId);
				expect(withoutTarget(after)).toEqual(withoutTarget(before));
				const changed = changedBy(present, workgroupId);
				expect(out.changed).toBe(changed);
				checkTarget(seeded, after, changed);
				expectRequests(changed);
			},
		),
		runs,
	);
}

describe('every other rule is kept exactly as read (random rule lists)', () => {
	it('addWorkgroup', async () => {
		await assertWorkgroupEdit(
			'addWorkgroup',
			'first',
			(present, workgroupId) => !present.includes(workgroupId),
			({ before, beforeTarget, present, workgroupId }, after, changed) => {
				if (beforeTarget) {
					expect(after.findIndex((rule) => rule.name === TARGET)).toBe(
						before.findIndex((rule) => rule.name === TARGET),
					);
					expect(targetOf(after)).toEqual({
						...beforeTarget,
						associations: {
							...(beforeTarget.associations as Json),
							WORKGROUP: changed ? [...present, workgroupId] : present,
						},
					});
				} else {
					expect(after.at(-1)).toMatchObject({
						name: TARGET,
						type: 'PRIVATE',
						associations: { WORKGROUP: [workgroupId] },
					});
				}
			},
		);
	});

	it('removeWorkgroup', async () => {
		await assertWorkgroupEdit(
			'removeWorkgroup',
			'last',
			(present, workgroupId) => present.includes(workgroupId),
			({ before, beforeTarget, present, workgroupId }, after, changed) => {
				if (beforeTarget) {
					expect(targetOf(after)).toEqual(
						changed
							? {
									...beforeTarget,
									associations: {
										...(beforeTarget.associations as Json),
										WORKGROUP: present.filter((id) => id !== workgroupId),
									},
								}
							: beforeTarget,
					);
				} else {
					expect(after).toEqual(before);
				}
			},
		);
	});

	it('upsert', async () => {
		const fields = fc.record({
			type: fc.constantFrom('PUBLIC', 'PRIVATE'),
			workgroupIds: ids,
			dates: fc.option(
				fc
					.tuple(apiDate, apiDate)
					.filter(([a, b]) => a !== b)
					.map(([a, b]) => (a < b ? [a, b] : [b, a])),
				{ nil: undefined },
			),
		});
		await fc.assert(
			fc.asyncProperty(courseRules, fields, async (rules, { type, workgroupIds, dates }) => {
				const courseId = courseWith(rules);
				const before = read(courseId);
				const beforeTarget = targetOf(before);

				const [out] = await runOk(ctx.sandbox, {
					resource: 'rule',
					operation: 'upsert',
					courseId: rl(courseId),
					ruleName: TARGET,
					type,
					workgroupIds: workgroupIds.join(', '),
					startDateTime: dates?.[0] ?? '',
					endDateTime: dates?.[1] ?? '',
				});

				const after = read(courseId);
				expect(withoutTarget(after)).toEqual(withoutTarget(before));
				const meant: Json = beforeTarget
					? {
							...beforeTarget,
							type,
							...(dates ? { startDateTime: dates[0], endDateTime: dates[1] } : {}),
							...(workgroupIds.length > 0
								? {
										associations: {
											...(beforeTarget.associations as Json),
											WORKGROUP: workgroupIds,
										},
									}
								: {}),
						}
					: {
							name: TARGET,
							type,
							associations: { WORKGROUP: workgroupIds },
							...(dates ? { startDateTime: dates[0], endDateTime: dates[1] } : {}),
						};
				if (beforeTarget) expect(targetOf(after)).toEqual(meant);
				else expect(after.at(-1)).toMatchObject(meant);
				const changed = !beforeTarget || JSON.stringify(meant) !== JSON.stringify(beforeTarget);
				expect(out.changed).toBe(changed);
				expectRequests(changed);
			}),
			runs,
		);
	});

	it('delete', async () => {
		await fc.assert(
			fc.asyncProperty(courseRules, async (rules) => {
				const courseId = courseWith(rules);
				const before = read(courseId);
				const existed = targetOf(before) !== undefined;

				const [out] = await runOk(ctx.sandbox, {
					resource: 'rule',
					operation: 'delete',
					courseId: rl(courseId),
					ruleName: TARGET,
				});

				expect(read(courseId)).toEqual(withoutTarget(before));
				expect(out.changed).toBe(existed);
				expectRequests(existed);
			}),
			runs,
		);
	});
});

describe('rule edits that change nothing send no save', () => {
	const seedTarget = () =>
		courseWith([
			aRule('Other', { associations: { USER: [5] } }),
			aRule(TARGET, { type: 'PRIVATE', associations: { WORKGROUP: [201, 202] } }),
		]);

	it.each([
		['addWorkgroup', 202, 'alreadyPresent'],
		['removeWorkgroup', 203, 'notPresent'],
	])('%s of workgroup %d', async (operation, workgroupId, action) => {
		const courseId = seedTarget();
		const before = read(courseId);
		const out = await editWorkgroup(operation, courseId, workgroupId);
		expect(out).toMatchObject({ action, changed: false });
		expect(routes(ctx.sandbox)).toEqual({ [RULE_READ]: 1 });
		expect(read(courseId)).toEqual(before);
	});

	it('upsert with the values the rule already has', async () => {
		const courseId = seedTarget();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'upsert',
			courseId: rl(courseId),
			ruleName: TARGET,
			type: 'PRIVATE',
			workgroupIds: '201,202',
		});
		expect(out).toMatchObject({ action: 'unchanged', changed: false });
		expect(routes(ctx.sandbox)).toEqual({ [RULE_READ]: 1 });
	});
});

describe('edge cases of the rule list', () => {
	it('deleting the only rule of a course saves the empty list', async () => {
		const courseId = courseWith([
			aRule(TARGET, { type: 'PRIVATE', associations: { WORKGROUP: [201] } }),
		]);
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'delete',
			courseId: rl(courseId),
			ruleName: TARGET,
		});
		expect(out).toMatchObject({ action: 'deleted', ruleCount: 0 });
		expect(read(courseId)).toEqual([]);
	});

	it('two rules with the target name: the node refuses to guess and saves nothing', async () => {
		const rule = aRule(TARGET, { type: 'PRIVATE', associations: { WORKGROUP: [201] } });
		const courseId = courseWith([rule, { ...rule }]);
		const before = read(courseId);
		const result = await run(ctx.sandbox, {
			resource: 'rule',
			operation: 'addWorkgroup',
			courseId: rl(courseId),
			ruleName: TARGET,
			workgroupId: rl(209),
		});
		expect(result.error?.message).toContain(`2 rules named "${TARGET}"`);
		expect(routes(ctx.sandbox)).toEqual({ [RULE_READ]: 1 });
		expect(read(courseId)).toEqual(before);
	});
});

describe('many items and concurrent workflows', () => {
	const addItems = (from: number, count: number) =>
		Array.from({ length: count }, (_, i) => ({ wg: from + i }));
	const addParams = (courseId: number, ruleName = TARGET) => ({
		resource: 'rule',
		operation: 'addWorkgroup',
		courseId: rl(courseId),
		ruleName,
		workgroupId: '={{ $json.wg }}',
	});

	it('200 items adding different workgroups to one course: one read, one save, one verifying read', async () => {
		const courseId = courseWith([]);
		const out = await runOk(ctx.sandbox, addParams(courseId), addItems(1, 200));
		expect(out).toHaveLength(200);
		expect(out.map((o) => o.workgroupId)).toEqual(addItems(1, 200).map((i) => i.wg));
		expect(out[0]).toMatchObject({ action: 'created', changed: true });
		expect(out.slice(1).every((o) => o.action === 'workgroupAdded')).toBe(true);
		expect(read(courseId)).toHaveLength(1);
		expect(workgroupsOf(targetOf(read(courseId)))).toEqual(addItems(1, 200).map((i) => i.wg));
		expect(routes(ctx.sandbox)).toEqual({ [RULE_READ]: 2, [RULE_SAVE]: 1 });
		expect(ctx.sandbox.stats().writes[`rules:${courseId}`]).toBe(1);
	});

	it('items for several courses: one batch per course', async () => {
		const courses = [courseWith([]), courseWith([]), courseWith([])];
		ctx.sandbox.resetStats();
		const items = Array.from({ length: 30 }, (_, i) => ({ course: courses[i % 3], wg: 500 + i }));
		await runOk(
			ctx.sandbox,
			{ ...addParams(0), courseId: '={{ $json.course }}', ruleName: '' },
			items,
		);
		for (const [index, courseId] of courses.entries()) {
			const rules = read(courseId);
			expect(rules.map((rule) => rule.name)).toEqual([`PAYMENT_INTEGRATION_COURSE_${courseId}`]);
			expect(workgroupsOf(rules[0])).toEqual(
				items.filter((item) => item.course === courses[index]).map((item) => item.wg),
			);
		}
		expect(routes(ctx.sandbox)).toEqual({ [RULE_READ]: 6, [RULE_SAVE]: 3 });
	});

	it('two workflows editing the same course at the same time lose no change', async () => {
		ctx.sandbox.setFaults({ latencyMs: 10 });
		const keep = aRule('Keep me', {
			restrictions: { minimumTime: true, browseOrder: 'anyOrder' },
			associations: { DEPARTMENT: [3] },
			x_custom: { a: 1 },
		});
		const doomed = { ...keep, name: 'Doomed', associations: { JOB: [4] } };
		const courseId = courseWith([keep, doomed]);
		const keepBefore = read(courseId)[0];

		const [a, b, c] = await Promise.all([
			runOk(ctx.sandbox, addParams(courseId), addItems(1, 40)),
			runOk(ctx.sandbox, addParams(courseId, 'Second'), addItems(101, 40)),
			runOk(ctx.sandbox, {
				resource: 'rule',
				operation: 'delete',
				courseId: rl(courseId),
				ruleName: 'Doomed',
			}),
		]);
		expect(a).toHaveLength(40);
		expect(b).toHaveLength(40);
		expect(c[0]).toMatchObject({ action: 'deleted' });

		const after = read(courseId);
		expect(after.map((rule) => rule.name).sort()).toEqual(['Keep me', 'Second', TARGET].sort());
		expect(after.find((rule) => rule.name === 'Keep me')).toEqual(keepBefore);
		expect(workgroupsOf(targetOf(after))).toEqual(addItems(1, 40).map((i) => i.wg));
		expect(workgroupsOf(after.find((rule) => rule.name === 'Second'))).toEqual(
			addItems(101, 40).map((i) => i.wg),
		);
		// Serialised by the per-course lock: each run is one read, one save, one verifying read.
		expect(routes(ctx.sandbox)).toEqual({ [RULE_READ]: 6, [RULE_SAVE]: 3 });
	});

	it('two workflows whose credentials differ only by a trailing slash still never race', async () => {
		ctx.sandbox.setFaults({ latencyMs: 10 });
		const courseId = courseWith([]);
		await Promise.all([
			runOk(ctx.sandbox, addParams(courseId), addItems(1, 20)),
			runOk(ctx.sandbox, addParams(courseId), addItems(21, 20), {
				credentials: { baseUrl: `${ctx.sandbox.url}/` },
			}),
		]);
		expect([...workgroupsOf(targetOf(read(courseId)))].sort((x, y) => x - y)).toEqual(
			addItems(1, 40).map((i) => i.wg),
		);
		expect(routes(ctx.sandbox)).toEqual({ [RULE_READ]: 4, [RULE_SAVE]: 2 });
	});
});

describe('two n8n processes (no shared lock) editing the same course', () => {
	it('the verifying read notices the change the other process overwrote and redoes it', async () => {
		// A second project key: its lock scope differs, as in another n8n process or queue worker.
		ctx.sandbox.seed({
			apiKeys: [
				{
					apiKey: 'other-process-key',
					projectId: 'other-project',
					permissions: ['BUSINESS_RULE_MANAGE'],
				},
			],
		});
		ctx.sandbox.setFaults({ latencyMs: 25 });
		const courseId = courseWith([]);
		const params = (workgroupId: number) => ({
			resource: 'rule',
			operation: 'addWorkgroup',
			courseId: rl(courseId),
			ruleName: TARGET,
			workgroupId: rl(workgroupId),
		});
		// Both read the empty list and both create the rule: the second save deletes the first
		// one's rule; its verifying read sees that and saves again.
		await Promise.all([
			runOk(ctx.sandbox, params(201)),
			runOk(ctx.sandbox, params(202), [{}], {
				credentials: { apiKey: 'other-process-key', projectId: 'other-project' },
			}),
		]);
		const rules = read(courseId);
		expect(rules).toHaveLength(1);
		expect([...workgroupsOf(rules[0])].sort()).toEqual([201, 202]);
	});
});

describe('a rule save whose connection drops after it was applied', () => {
	it('ends with the meant list, saved once (no blind re-post, no duplicate rule)', async () => {
		const other = aRule('Other', { associations: { USER: [1] } });
		const courseId = courseWith([other]);
		const before = read(courseId);
		ctx.sandbox.setFaults({ resetAfterApplyRate: 1 });

		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'addWorkgroup',
			courseId: rl(courseId),
			workgroupId: rl(201),
		});

		const after = read(courseId);
		expect(after).toHaveLength(2);
		expect(after[0]).toEqual(before[0]);
		expect(after[1]).toMatchObject({
			name: `PAYMENT_INTEGRATION_COURSE_${courseId}`,
			associations: { WORKGROUP: [201] },
		});
		expect(out).toMatchObject({ changed: true, action: 'created' });
		const stats = ctx.sandbox.stats();
		expect(stats.faultsInjected.resetAfterApply).toBe(1);
		expect(stats.writes[`rules:${courseId}`]).toBe(1);
		expect(stats.byRoute).toEqual({ [RULE_READ]: 2, [RULE_SAVE]: 1 });
	});
});
