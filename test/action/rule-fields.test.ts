/**
 * What the rule editor must leave as it was: the type of a rule when Type is "unchanged", long
 * ids (above 2^53) of every rule it does not edit, and workgroup ids the platform gave as text.
 */
import { readRules } from '../../sandbox/rules';
import { rl, runOk, aRule, useSandbox } from './setup';

const ctx = useSandbox();

type Json = Record<string, unknown>;

function newCourse(rules: Json[]): number {
	const [courseId] = ctx.sandbox.seed({ courses: [{ title: 'Rule fields' }] }).courses;
	ctx.sandbox.seed({ rules: { [courseId]: rules } });
	return courseId;
}
const rules = (courseId: number) => readRules(ctx.sandbox.state, courseId);

describe('Create or Update: Type', () => {
	it('left at its default (unchanged), a new end date keeps an existing PUBLIC rule PUBLIC', async () => {
		const courseId = newCourse([aRule('Open', { associations: { WORKGROUP: [201] } })]);
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'upsert',
			courseId: rl(courseId),
			ruleName: 'Open',
			endDateTime: '2080-06-01T00:00:00Z',
		});
		expect(out).toMatchObject({
			action: 'updated',
			rule: { type: 'PUBLIC', endDateTime: '2080-06-01 00:00:00' },
		});
		expect(rules(courseId)[0]).toMatchObject({
			type: 'PUBLIC',
			endDateTime: '2080-06-01 00:00:00',
		});
	});

	it('left at its default, a new rule is PRIVATE; set, it is applied', async () => {
		const courseId = newCourse([aRule('Open', { type: 'PRIVATE' })]);
		await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'upsert',
			courseId: rl(courseId),
			ruleName: 'Fresh',
		});
		await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'upsert',
			courseId: rl(courseId),
			ruleName: 'Open',
			type: 'PUBLIC',
		});
		expect(rules(courseId).map((rule) => [rule.name, rule.type])).toEqual([
			['Open', 'PUBLIC'],
			['Fresh', 'PRIVATE'],
		]);
	});
});

describe('long ids', () => {
	it('ids above 2^53 of rules the edit does not touch are saved back with the same digits', async () => {
		const courseId = newCourse([
			aRule('Kept', {
				id: 9007199254740993n,
				associations: { WORKGROUP: [9007199254740995n], USER: [12345678901234567891n] },
			}),
			aRule('Edited', { type: 'PRIVATE', associations: { WORKGROUP: [] } }),
		]);
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'addWorkgroup',
			courseId: rl(courseId),
			ruleName: 'Edited',
			workgroupId: rl(201),
		});
		expect(out).toMatchObject({ action: 'workgroupAdded', ruleCount: 2 });
		const [kept, edited] = rules(courseId);
		expect(kept.id).toBe(9007199254740993n);
		expect(kept.associations).toEqual({
			WORKGROUP: [9007199254740995n],
			USER: [12345678901234567891n],
		});
		expect(edited.associations).toEqual({ WORKGROUP: [201] });
		// Get Many gives the exact digits (as text where a number would round them).
		const all = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'getAll',
			courseId: rl(courseId),
		});
		expect(all[0]).toMatchObject({
			id: '9007199254740993',
			associations: { WORKGROUP: ['9007199254740995'] },
		});
	});

	it('Replace All sends long ids of its JSON with the same digits', async () => {
		const courseId = newCourse([aRule('Kept', { id: 9007199254740993n })]);
		const text = `[{"id":9007199254740993,"name":"Kept","type":"PRIVATE","startDateTime":"2020-01-01 00:00:00","endDateTime":"2070-01-01 00:00:00","restrictions":{"minimumTime":false,"browseOrder":"anyOrder"},"associations":{"WORKGROUP":[9007199254740995]}}]`;
		await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'replaceAll',
			courseId: rl(courseId),
			rules: text,
		});
		expect(rules(courseId)).toEqual([
			expect.objectContaining({
				id: 9007199254740993n,
				type: 'PRIVATE',
				associations: { WORKGROUP: [9007199254740995n] },
			}),
		]);
	});
});

describe('workgroup ids given as text', () => {
	const course = () =>
		newCourse([aRule('Access', { type: 'PRIVATE', associations: { WORKGROUP: ['7', 9] } })]);

	it('adding 7 where "7" is: already present, nothing saved', async () => {
		const courseId = course();
		ctx.sandbox.resetStats();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'addWorkgroup',
			courseId: rl(courseId),
			ruleName: 'Access',
			workgroupId: rl(7),
		});
		expect(out).toMatchObject({ action: 'alreadyPresent', changed: false });
		expect(rules(courseId)[0].associations).toEqual({ WORKGROUP: ['7', 9] });
		expect(
			ctx.sandbox.stats().byRoute['POST /public/api/v1/business-rule/course/{id}'],
		).toBeUndefined();
	});

	it('removing 7 removes "7"; removing 9 keeps "7" as it was', async () => {
		const courseId = course();
		await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'removeWorkgroup',
			courseId: rl(courseId),
			ruleName: 'Access',
			workgroupId: rl(9),
		});
		expect(rules(courseId)[0].associations).toEqual({ WORKGROUP: ['7'] });
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'removeWorkgroup',
			courseId: rl(courseId),
			ruleName: 'Access',
			workgroupId: rl(7),
		});
		expect(out).toMatchObject({ action: 'workgroupRemoved', changed: true });
		expect(rules(courseId)[0].associations).toEqual({ WORKGROUP: [] });
	});
});
