/**
 * Long integers are kept exact without any mark data can produce (issue 37, point 1): a rule
 * whose name (or any other string) looks like the reader's old in-band mark for a long integer
 * (U+0000 then `long:` then digits) is a string like any other. It comes out of Get Many as
 * written, and an edit of another rule saves it back as it was read.
 */
import { stringifyBig } from '../../sandbox/bigjson';
import { readRules } from '../../sandbox/rules';
import { aRule, rl, run, runOk, useSandbox } from './setup';

const ctx = useSandbox();

type Json = Record<string, unknown>;

function newCourse(rules: Json[]): number {
	const [courseId] = ctx.sandbox.seed({ courses: [{ title: 'Marks' }] }).courses;
	ctx.sandbox.seed({ rules: { [courseId]: rules } });
	return courseId;
}
/** The rules of a course as the platform would write them (long ids as their digits). */
const stored = (courseId: number) => readRules(ctx.sandbox.state, courseId).map(stringifyBig);

describe('strings that look like a long integer', () => {
	it('a rule named "\\u0000long:5" comes out of Get Many as written, long ids beside it as digits', async () => {
		const courseId = newCourse([
			aRule('\u0000long:5', { associations: { WORKGROUP: [201], USER: ['\u0000long:12'] } }),
			aRule('Long', { id: 9007199254740993n, associations: { WORKGROUP: [9007199254740995n] } }),
		]);
		const out = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'getAll',
			courseId: rl(courseId),
		});
		expect(out.map((rule) => rule.name)).toEqual(['\u0000long:5', 'Long']);
		expect(out[0].associations).toEqual({ WORKGROUP: [201], USER: ['\u0000long:12'] });
		expect(out[1]).toMatchObject({
			id: '9007199254740993',
			associations: { WORKGROUP: ['9007199254740995'] },
		});
	});

	it('Remove Workgroup on another rule saves the rule named "\\u0000long:5" back as it was', async () => {
		const courseId = newCourse([
			aRule('\u0000long:5', { type: 'PRIVATE', x_note: '\u0000long:-42' }),
			aRule('Edited', { type: 'PRIVATE', associations: { WORKGROUP: [201, 202] } }),
		]);
		const [untouched] = stored(courseId);
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'removeWorkgroup',
			courseId: rl(courseId),
			ruleName: 'Edited',
			workgroupId: rl(202),
		});
		expect(out).toMatchObject({ action: 'workgroupRemoved', changed: true, ruleCount: 2 });
		const after = stored(courseId);
		expect(after[0]).toBe(untouched);
		expect(readRules(ctx.sandbox.state, courseId)[1].associations).toEqual({ WORKGROUP: [201] });
	});

	it('next to a rule named "\\u0000long:007" an edit is saved (no 400) and that rule kept byte-equal', async () => {
		const courseId = newCourse([
			aRule('\u0000long:007', { type: 'PRIVATE' }),
			aRule('Long', { id: 12345678901234567891n, associations: { USER: [9007199254740993n] } }),
			aRule('Edited', { type: 'PRIVATE', associations: { WORKGROUP: [201, 202] } }),
		]);
		const [odd, long] = stored(courseId);
		const result = await run(ctx.sandbox, {
			resource: 'rule',
			operation: 'removeWorkgroup',
			courseId: rl(courseId),
			ruleName: 'Edited',
			workgroupId: rl(201),
		});
		expect(result.error?.message).toBeUndefined();
		expect(result.json[0]).toMatchObject({ action: 'workgroupRemoved', ruleCount: 3 });
		const after = stored(courseId);
		expect(after.slice(0, 2)).toEqual([odd, long]);
		expect(readRules(ctx.sandbox.state, courseId)[2].associations).toEqual({ WORKGROUP: [202] });
	});

	it('Replace All sends a name that looks like a mark as the string it is', async () => {
		const courseId = newCourse([aRule('Old')]);
		const text = JSON.stringify([aRule('\u0000long:5', { associations: { USER: [1002] } })]);
		await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'replaceAll',
			courseId: rl(courseId),
			rules: text,
		});
		expect(readRules(ctx.sandbox.state, courseId).map((rule) => rule.name)).toEqual([
			'\u0000long:5',
		]);
	});
});
