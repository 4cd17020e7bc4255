/** helpers/rules.ts: pure edits of a course's rule list that keep everything they do not name. */
import fc from 'fast-check';

import {
	applyRuleEdit,
	asRuleList,
	defaultRuleName,
	paymentRuleDefaults,
	RuleEditError,
	type Rule,
	type RuleEdit,
} from '../../nodes/Knolyx/helpers/rules';

const DEFAULTS = {
	type: 'PRIVATE',
	startDateTime: '2026-01-01 00:00:00',
	endDateTime: '2076-01-01 00:00:00',
};

function rule(name: string, extra: Partial<Rule> = {}): Rule {
	return {
		id: 1,
		name,
		type: 'PRIVATE',
		startDateTime: '2020-01-01 00:00:00',
		endDateTime: '2070-01-01 00:00:00',
		restrictions: { minimumTime: false, browseOrder: 'anyOrder', x_extra: 1 },
		associations: { WORKGROUP: [1, 2], USER: [7], DEPARTMENT: [8], JOB: [9] },
		action: 'STUDENTS',
		diplomaTemplateId: 3,
		...extra,
	};
}

function deepFreeze<T>(value: T): T {
	if (value && typeof value === 'object') {
		Object.values(value).forEach(deepFreeze);
		Object.freeze(value);
	}
	return value;
}

describe('names and defaults', () => {
	it('the default rule name is PAYMENT_INTEGRATION_COURSE_{courseId}', () => {
		expect(defaultRuleName(42)).toBe('PAYMENT_INTEGRATION_COURSE_42');
	});

	it('a payment rule is PRIVATE, from now, for 50 years, in the API format', () => {
		expect(paymentRuleDefaults(Date.UTC(2026, 4, 6, 7, 8, 9, 500))).toEqual({
			type: 'PRIVATE',
			startDateTime: '2026-05-06 07:08:09',
			endDateTime: '2076-05-06 07:08:09',
		});
		// 29 February has no 50th anniversary in 2078: the day after.
		expect(paymentRuleDefaults(Date.UTC(2028, 1, 29)).endDateTime).toBe('2078-03-01 00:00:00');
	});
});

describe('addWorkgroup', () => {
	it('creates the named rule with the defaults when missing, after the others', () => {
		const other = rule('Other');
		const {
			rules,
			changed,
			existed,
			rule: created,
		} = applyRuleEdit([other], {
			kind: 'addWorkgroup',
			ruleName: 'New',
			workgroupId: 5,
			defaults: DEFAULTS,
		});
		expect(changed).toBe(true);
		expect(existed).toBe(false);
		expect(rules[0]).toBe(other);
		expect(created).toEqual({
			name: 'New',
			...DEFAULTS,
			restrictions: { minimumTime: false, browseOrder: 'anyOrder' },
			associations: { WORKGROUP: [5] },
		});
		expect(rules[1]).toBe(created);
		expect(created).not.toHaveProperty('id');
	});

	it('appends to WORKGROUP and keeps every other key and field', () => {
		const target = rule('T');
		const { rules } = applyRuleEdit([target], {
			kind: 'addWorkgroup',
			ruleName: 'T',
			workgroupId: 3,
			defaults: DEFAULTS,
		});
		expect(rules[0]).toEqual({
			...target,
			associations: { WORKGROUP: [1, 2, 3], USER: [7], DEPARTMENT: [8], JOB: [9] },
		});
	});

	it('adds WORKGROUP to a rule that had only other associations, or none', () => {
		expect(
			applyRuleEdit([rule('T', { associations: { USER: [7] } })], {
				kind: 'addWorkgroup',
				ruleName: 'T',
				workgroupId: 3,
				defaults: DEFAULTS,
			}).rules[0].associations,
		).toEqual({ USER: [7], WORKGROUP: [3] });
		const bare = rule('T');
		delete (bare as Partial<Rule>).associations;
		expect(
			applyRuleEdit([bare], {
				kind: 'addWorkgroup',
				ruleName: 'T',
				workgroupId: 3,
				defaults: DEFAULTS,
			}).rules[0].associations,
		).toEqual({ WORKGROUP: [3] });
	});

	it('a workgroup already there changes nothing (the very same list)', () => {
		const list = [rule('T')];
		const outcome = applyRuleEdit(list, {
			kind: 'addWorkgroup',
			ruleName: 'T',
			workgroupId: 2,
			defaults: DEFAULTS,
		});
		expect(outcome).toMatchObject({ changed: false, existed: true });
		expect(outcome.rules).toBe(list);
	});
});

describe('removeWorkgroup', () => {
	it('takes the workgroup out and keeps the rest', () => {
		const { rules, changed } = applyRuleEdit([rule('T')], {
			kind: 'removeWorkgroup',
			ruleName: 'T',
			workgroupId: 1,
		});
		expect(changed).toBe(true);
		expect(rules[0]).toEqual({
			...rule('T'),
			associations: { WORKGROUP: [2], USER: [7], DEPARTMENT: [8], JOB: [9] },
		});
	});

	it('a workgroup not there, or a rule not there, changes nothing', () => {
		const list = [rule('T')];
		expect(
			applyRuleEdit(list, { kind: 'removeWorkgroup', ruleName: 'T', workgroupId: 99 }),
		).toMatchObject({ rules: list, changed: false, existed: true });
		expect(
			applyRuleEdit(list, { kind: 'removeWorkgroup', ruleName: 'Nope', workgroupId: 1 }),
		).toMatchObject({ rules: list, changed: false, existed: false });
	});

	it('removing the last workgroup leaves an empty WORKGROUP list, not a missing key', () => {
		const { rules } = applyRuleEdit([rule('T', { associations: { WORKGROUP: [4] } })], {
			kind: 'removeWorkgroup',
			ruleName: 'T',
			workgroupId: 4,
		});
		expect(rules[0].associations).toEqual({ WORKGROUP: [] });
	});
});

describe('upsert', () => {
	it('changes only the fields given; WORKGROUP ids replace the WORKGROUP association only', () => {
		const target = rule('T');
		const { rules, changed } = applyRuleEdit([target], {
			kind: 'upsert',
			ruleName: 'T',
			fields: { type: 'PUBLIC', workgroupIds: [5] },
			defaults: DEFAULTS,
		});
		expect(changed).toBe(true);
		expect(rules[0]).toEqual({
			...target,
			type: 'PUBLIC',
			associations: { ...target.associations, WORKGROUP: [5] },
		});
	});

	it('the same values change nothing', () => {
		const list = [rule('T')];
		const outcome = applyRuleEdit(list, {
			kind: 'upsert',
			ruleName: 'T',
			fields: { type: 'PRIVATE', startDateTime: '2020-01-01 00:00:00', workgroupIds: [1, 2] },
			defaults: DEFAULTS,
		});
		expect(outcome.changed).toBe(false);
		expect(outcome.rules).toBe(list);
	});

	it('creates the rule from the defaults and the fields given', () => {
		const { rules } = applyRuleEdit([], {
			kind: 'upsert',
			ruleName: 'N',
			fields: { endDateTime: '2030-01-01 00:00:00' },
			defaults: DEFAULTS,
		});
		expect(rules).toEqual([
			{
				name: 'N',
				type: 'PRIVATE',
				startDateTime: DEFAULTS.startDateTime,
				endDateTime: '2030-01-01 00:00:00',
				restrictions: { minimumTime: false, browseOrder: 'anyOrder' },
				associations: { WORKGROUP: [] },
			},
		]);
	});
});

describe('delete', () => {
	it('removes the named rule only', () => {
		const [a, b, c] = [rule('A'), rule('B'), rule('C')];
		const { rules, changed } = applyRuleEdit([a, b, c], { kind: 'delete', ruleName: 'B' });
		expect(changed).toBe(true);
		expect(rules).toEqual([a, c]);
		expect(rules[0]).toBe(a);
		expect(rules[1]).toBe(c);
	});

	it('a missing rule changes nothing', () => {
		const list = [rule('A')];
		expect(applyRuleEdit(list, { kind: 'delete', ruleName: 'Z' })).toMatchObject({
			rules: list,
			changed: false,
			existed: false,
		});
	});
});

describe('ambiguity and bad lists', () => {
	it('two rules with the edited name: refuses to guess', () => {
		for (const edit of [
			{ kind: 'delete', ruleName: 'T' },
			{ kind: 'addWorkgroup', ruleName: 'T', workgroupId: 1, defaults: DEFAULTS },
		] as RuleEdit[]) {
			expect(() => applyRuleEdit([rule('T'), rule('T', { id: 2 })], edit)).toThrow(RuleEditError);
			expect(() => applyRuleEdit([rule('T'), rule('T', { id: 2 })], edit)).toThrow(
				'2 rules named "T"',
			);
		}
	});

	it('other rules sharing a name among themselves are fine', () => {
		const list = [rule('Dup'), rule('Dup', { id: 2 })];
		expect(
			applyRuleEdit(list, {
				kind: 'addWorkgroup',
				ruleName: 'T',
				workgroupId: 1,
				defaults: DEFAULTS,
			}).rules.slice(0, 2),
		).toEqual(list);
	});

	it('asRuleList accepts a list of named rules and refuses anything else', () => {
		const list = [rule('A')];
		expect(asRuleList(list)).toBe(list);
		expect(asRuleList([])).toEqual([]);
		for (const bad of [{}, 'x', null, [null], [1], [{ type: 'PRIVATE' }], [{ name: 5 }]]) {
			expect(() => asRuleList(bad)).toThrow(RuleEditError);
		}
	});
});

// ---------------------------------------------------------------------------------------------
// Properties over random rule lists

const ids = fc.uniqueArray(fc.integer({ min: 1, max: 50 }), { maxLength: 5 });
const name = fc.constantFrom('A', 'B', 'C', 'T', 'PAYMENT_INTEGRATION_COURSE_1', 'é ü', '');
const ruleArb: fc.Arbitrary<Rule> = fc.record(
	{
		id: fc.integer({ min: 1, max: 10_000 }),
		name,
		type: fc.constantFrom('PUBLIC', 'PRIVATE'),
		startDateTime: fc.constant('2020-01-01 00:00:00'),
		endDateTime: fc.constant('2070-01-01 00:00:00'),
		restrictions: fc.record({
			minimumTime: fc.boolean(),
			browseOrder: fc.constant('anyOrder'),
			x_more: fc.jsonValue({ maxDepth: 1 }),
		}),
		associations: fc.record(
			{ WORKGROUP: ids, USER: ids, DEPARTMENT: ids, JOB: ids, X_FUTURE: ids },
			{ requiredKeys: [] },
		),
		action: fc.constantFrom('WORKGROUP', 'STUDENTS'),
		x_unknown: fc.jsonValue({ maxDepth: 2 }),
	},
	{
		requiredKeys: ['name', 'type', 'startDateTime', 'endDateTime', 'restrictions', 'associations'],
	},
) as fc.Arbitrary<Rule>;
const editArb: fc.Arbitrary<RuleEdit> = fc.oneof(
	fc.record({
		kind: fc.constant('addWorkgroup' as const),
		ruleName: name,
		workgroupId: fc.integer({ min: 1, max: 50 }),
		defaults: fc.constant(DEFAULTS),
	}),
	fc.record({
		kind: fc.constant('removeWorkgroup' as const),
		ruleName: name,
		workgroupId: fc.integer({ min: 1, max: 50 }),
	}),
	fc.record({
		kind: fc.constant('upsert' as const),
		ruleName: name,
		fields: fc.record(
			{
				type: fc.constantFrom('PUBLIC', 'PRIVATE'),
				workgroupIds: ids,
				endDateTime: fc.constant('2080-01-01 00:00:00'),
			},
			{ requiredKeys: [] },
		),
		defaults: fc.constant(DEFAULTS),
	}),
	fc.record({ kind: fc.constant('delete' as const), ruleName: name }),
);

describe('properties', () => {
	const unambiguous = (rules: Rule[], edit: RuleEdit) =>
		rules.filter((r) => r.name === edit.ruleName).length <= 1;

	it('every rule but the named one is the very object read, in the same order; nothing is mutated', () => {
		fc.assert(
			fc.property(fc.array(ruleArb, { maxLength: 8 }), editArb, (rules, edit) => {
				fc.pre(unambiguous(rules, edit));
				const snapshot = structuredClone(rules);
				deepFreeze(rules);
				const { rules: next } = applyRuleEdit(rules, edit);
				expect(rules).toEqual(snapshot);
				const others = rules.filter((r) => r.name !== edit.ruleName);
				const nextOthers = next.filter((r) => r.name !== edit.ruleName);
				expect(nextOthers).toHaveLength(others.length);
				nextOthers.forEach((r, i) => expect(r).toBe(others[i]));
			}),
			{ numRuns: 1000 },
		);
	});

	it('the edited rule keeps every field and association key it does not change', () => {
		fc.assert(
			fc.property(fc.array(ruleArb, { maxLength: 8 }), editArb, (rules, edit) => {
				fc.pre(unambiguous(rules, edit));
				const before = rules.find((r) => r.name === edit.ruleName);
				const after = applyRuleEdit(rules, edit).rules.find((r) => r.name === edit.ruleName);
				if (!before || !after) return;
				const touched = new Set([
					'associations',
					...(edit.kind === 'upsert'
						? Object.keys(edit.fields).filter((k) => k !== 'workgroupIds')
						: []),
				]);
				for (const key of Object.keys(before))
					if (!touched.has(key)) expect(after[key]).toBe(before[key]);
				for (const key of Object.keys(before.associations ?? {})) {
					if (key !== 'WORKGROUP') expect(after.associations[key]).toBe(before.associations[key]);
				}
				expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
			}),
			{ numRuns: 1000 },
		);
	});

	it('an edit applied twice changes nothing the second time, and then holds', () => {
		fc.assert(
			fc.property(fc.array(ruleArb, { maxLength: 8 }), editArb, (rules, edit) => {
				fc.pre(unambiguous(rules, edit));
				const once = applyRuleEdit(rules, edit).rules;
				const twice = applyRuleEdit(once, edit);
				expect(twice.changed).toBe(false);
				expect(twice.rules).toBe(once);
				expect(applyRuleEdit(once, edit).changed).toBe(false);
			}),
			{ numRuns: 1000 },
		);
	});

	it('edits of different items applied in order never undo one another (add then add)', () => {
		fc.assert(
			fc.property(
				fc.array(ruleArb, { maxLength: 6 }),
				fc.uniqueArray(fc.integer({ min: 51, max: 500 }), { minLength: 1, maxLength: 20 }),
				(rules, added) => {
					fc.pre(unambiguous(rules, { kind: 'delete', ruleName: 'T' }));
					let list = rules;
					for (const workgroupId of added)
						list = applyRuleEdit(list, {
							kind: 'addWorkgroup',
							ruleName: 'T',
							workgroupId,
							defaults: DEFAULTS,
						}).rules;
					const target = list.find((r) => r.name === 'T') as Rule;
					for (const workgroupId of added)
						expect(target.associations.WORKGROUP).toContain(workgroupId);
				},
			),
			{ numRuns: 300 },
		);
	});
});
