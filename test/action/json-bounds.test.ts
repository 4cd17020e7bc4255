/**
 * JSON nested deeper than the node reads (helpers/json.ts, MAX_JSON_DEPTH = 32), over real HTTP
 * against the sandbox's edge rules: an answer fails its item with a message saying what was read
 * (n8n could neither copy nor store an item 100 000 levels deep), an error answer keeps its own
 * message, and a JSON parameter nested too deep fails its item before anything is sent. Long ids
 * of an answer still come out exact.
 */
import type { IDataObject } from 'n8n-workflow';

import { clearEdges, setEdge } from '../harness';
import { RULE_READ, RULE_SAVE, rl, routes, run, runOk, useSandbox } from './setup';

const ctx = useSandbox();

afterEach(async () => {
	await clearEdges(ctx.sandbox.url);
});

const API = '/public/api/v1';
const firstCourse = (): number => Object.values(ctx.demo.courses)[0];

/** An object `levels` deep: {"a":{"a":…{"a":1}…}} (200 KB at 100 000 levels: within every size bound). */
const deepObject = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
/** A list `levels` deep: [[…[1]…]]. */
const deepList = (levels: number): string => '['.repeat(levels) + '1' + ']'.repeat(levels);

describe('an answer nested deeper than 32 levels fails the item, saying what was read', () => {
	it('Course → Get answered with an object 100 000 levels deep: no item', async () => {
		const courseId = firstCourse();
		await setEdge(ctx.sandbox.url, {
			path: `${API}/course/${courseId}`,
			method: 'GET',
			answer: { body: deepObject(100_000) },
		});
		const result = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'get',
			courseId: rl(courseId),
		});
		expect(result.error?.message).toBe(
			`Knolyx answered GET /course/${courseId} with JSON nested more than 32 levels deep [200]`,
		);
		expect((result.error as { description?: string }).description).toBe(
			'The answer (600001 characters) passes 32 levels at character 160; no answer of the Knolyx API is nested deeper than a few levels, so nothing of it was read or output.',
		);
		expect(result.items).toEqual([]);
	});

	it('Course → Get answered with an object 32 levels deep: the item, whole', async () => {
		const courseId = firstCourse();
		await setEdge(ctx.sandbox.url, {
			path: `${API}/course/${courseId}`,
			method: 'GET',
			answer: { body: deepObject(32) },
		});
		const [item] = await runOk(ctx.sandbox, {
			resource: 'course',
			operation: 'get',
			courseId: rl(courseId),
		});
		expect(JSON.stringify(item)).toBe(deepObject(32));
	});

	it('Course Access Rule → Get Many (the lossless reader) answered 33 levels deep', async () => {
		const courseId = firstCourse();
		await setEdge(ctx.sandbox.url, {
			path: `${API}/business-rule/course/${courseId}`,
			method: 'GET',
			answer: { body: deepList(33) },
		});
		const result = await run(ctx.sandbox, {
			resource: 'rule',
			operation: 'getAll',
			courseId: rl(courseId),
		});
		expect(result.error?.message).toBe(
			`Knolyx answered GET /business-rule/course/${courseId} with JSON nested more than 32 levels deep [200]`,
		);
		expect(result.items).toEqual([]);
	});

	it('an error answer nested 100 000 levels deep keeps the error of its status', async () => {
		const courseId = firstCourse();
		await setEdge(ctx.sandbox.url, {
			path: `${API}/course/${courseId}`,
			method: 'GET',
			answer: { status: 404, body: deepList(100_000) },
		});
		const result = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'get',
			courseId: rl(courseId),
		});
		expect(result.error?.message).toMatch(/\[404\]$/);
		expect(result.error?.message).not.toMatch(/nested/);
		expect(result.items).toEqual([]);
	});
});

describe('Replace All: Rules (JSON) nested deeper than 32 levels fails the item, nothing sent', () => {
	const rulesNested = (levels: number) =>
		`[{"name":"Deep","type":"PUBLIC","startDateTime":"2020-01-01 00:00:00","endDateTime":"2070-01-01 00:00:00","x_extra":${deepList(levels - 2)}}]`;
	/** Replace All on the first course with `rules` (text, or an expression over the item); its error. */
	const replaceAll = async (rules: string, items?: IDataObject[]): Promise<string | undefined> => {
		ctx.sandbox.resetStats();
		const result = await run(
			ctx.sandbox,
			{ resource: 'rule', operation: 'replaceAll', courseId: rl(firstCourse()), rules },
			items,
		);
		expect(routes(ctx.sandbox)[RULE_READ]).toBeUndefined();
		expect(routes(ctx.sandbox)[RULE_SAVE]).toBeUndefined();
		return result.error?.message;
	};

	it.each([
		['100 000', 100_000],
		['33', 33],
	])('as text, %s levels deep', async (_what, levels) => {
		expect(await replaceAll(rulesNested(levels))).toBe(
			'Rules (JSON): is nested more than 32 levels deep (at position 146) (item 0)',
		);
	});

	it('invalid JSON still names the position', async () => {
		expect(await replaceAll('[{"name":"A",}]')).toMatch(
			/^Rules \(JSON\): is not valid JSON: .*position 13.* \(item 0\)$/,
		);
	});

	it('given by an expression as a value 40 levels deep', async () => {
		const rules = JSON.parse(rulesNested(40)) as IDataObject[];
		expect(await replaceAll('={{ $json.rules }}', [{ rules }])).toBe(
			'Rules (JSON): is nested more than 32 levels deep (item 0)',
		);
	});
});
