/**
 * A read that answers 200 with something of another shape (a maintenance notice where a list was
 * due, `null` or a number where an object was) never counts as an empty list or object, over real
 * HTTP against the sandbox's edge rules: a Get outputs no empty item;
 * the reads fail the item, and a write whose outcome is unknown is not sent again on the word of
 * such an answer (taken for "no webhooks" or "no rules", it would make the node create a second
 * webhook or save the rules twice). Edge rules with `after` let the read before a write through and
 * answer the check read after it.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { clearEdges, setEdge, triggerHosts } from '../harness';
import { knolyxTrigger, RULE_READ, RULE_SAVE, rl, routes, run, useSandbox } from './setup';

const ctx = useSandbox();
const hosts = triggerHosts();

afterEach(async () => {
	await hosts.endAll();
	await clearEdges(ctx.sandbox.url);
	ctx.sandbox.setFaults({});
});

const API = '/public/api/v1';
const firstCourse = (): number => Object.values(ctx.demo.courses)[0];
const NOT_A_LIST = 'Knolyx answered a list request with something that is not a list [200]';
const NOT_AN_OBJECT = 'Knolyx answered a read with something that is not an object [200]';
const ODD_BODIES = [
	['a maintenance notice', '{"status":"MAINTENANCE"}'],
	['null', 'null'],
	['a number', '42'],
];

/** GET `path` is answered 200 with `body` (JSON): every time, or `times` times after `after` real answers. */
const answerOddly = async (
	path: string,
	body: string,
	{ times, after }: { times?: number; after?: number } = {},
): Promise<void> => {
	const rule: IDataObject = { path, method: 'GET', answer: { body } };
	if (times !== undefined) rule.times = times;
	if (after !== undefined) rule.after = after;
	await setEdge(ctx.sandbox.url, rule);
};

/** The next POST to a path matching `onlyPath` is applied, then answered with a 502. */
const applyNextPostThen502 = (onlyPath: string): void =>
	ctx.sandbox.setFaults({
		applyThenFailRate: 1,
		applyThenStatus: 502,
		onlyMethod: 'POST',
		onlyPath,
		maxFaults: 1,
	});

describe('a read of one thing answered with something that is not an object fails the item', () => {
	const OBJECT_ODDITIES = [
		['null', 'null'],
		['a number', '42'],
		['a list', '[{"id":101}]'],
		['a JSON string', '"OK"'],
	];
	const reads: Array<[string, () => { path: string; parameters: INodeParameters }]> = [
		[
			'Course → Get',
			() => ({
				path: `${API}/course/${firstCourse()}`,
				parameters: { resource: 'course', operation: 'get', courseId: rl(firstCourse()) },
			}),
		],
		[
			'Event → Get',
			() => ({
				path: `${API}/community/${ctx.demo.communityId}/event/${ctx.demo.eventId}`,
				parameters: {
					resource: 'event',
					operation: 'get',
					communityId: String(ctx.demo.communityId),
					eventId: String(ctx.demo.eventId),
				},
			}),
		],
		[
			'Webhook → Get',
			() => ({
				path: `${API}/webhook/7`,
				parameters: { resource: 'webhook', operation: 'get', webhookId: '7' },
			}),
		],
		[
			'API Key → Get',
			() => ({ path: `${API}/key`, parameters: { resource: 'apiKey', operation: 'get' } }),
		],
	];
	describe.each(reads)('%s', (_name, target) => {
		it.each(OBJECT_ODDITIES)('answered with %s', async (_what, body) => {
			const { path, parameters } = target();
			await answerOddly(path, body);
			const result = await run(ctx.sandbox, parameters);
			expect(result.error?.message).toBe(NOT_AN_OBJECT);
			expect(result.items).toEqual([]);
		});
	});
});

describe('a list read answered with something that is not a list fails the item', () => {
	it.each(ODD_BODIES)('Course Access Rule → Get Many, answered with %s', async (_what, body) => {
		const courseId = firstCourse();
		await answerOddly(`${API}/business-rule/course/${courseId}`, body);
		const result = await run(ctx.sandbox, {
			resource: 'rule',
			operation: 'getAll',
			courseId: rl(courseId),
		});
		expect(result.error?.message).toBe(NOT_A_LIST);
		expect(result.items).toEqual([]);
	});

	it.each(ODD_BODIES)(
		'Course Access Rule → Get, answered with %s: not "no rule named …"',
		async (_what, body) => {
			const courseId = firstCourse();
			await answerOddly(`${API}/business-rule/course/${courseId}`, body);
			const result = await run(ctx.sandbox, {
				resource: 'rule',
				operation: 'get',
				courseId: rl(courseId),
				ruleName: 'Access',
			});
			expect(result.error?.message).toBe(NOT_A_LIST);
		},
	);

	it.each(ODD_BODIES)('Webhook → Get Many, answered with %s', async (_what, body) => {
		await answerOddly(`${API}/webhook`, body);
		const result = await run(ctx.sandbox, { resource: 'webhook', operation: 'getAll' });
		expect(result.error?.message).toBe(NOT_A_LIST);
		expect(result.items).toEqual([]);
	});

	it('Replace All: the rules read first answered oddly: nothing is saved', async () => {
		const courseId = firstCourse();
		await answerOddly(`${API}/business-rule/course/${courseId}`, '{"status":"MAINTENANCE"}');
		ctx.sandbox.resetStats();
		const result = await run(ctx.sandbox, {
			resource: 'rule',
			operation: 'replaceAll',
			courseId: rl(courseId),
			rules: '[]',
			options: { allowEmpty: true },
		});
		expect(result.error?.message).toBe(NOT_A_LIST);
		expect(routes(ctx.sandbox)[RULE_SAVE]).toBeUndefined();
		expect(routes(ctx.sandbox)[RULE_READ]).toBeUndefined(); // answered by the edge rule
	});
});

describe("the Knolyx Trigger's activation check", () => {
	it('a read of its webhook answered with null fails the activation; no second webhook is registered', async () => {
		const host = await hosts.start(knolyxTrigger(ctx.sandbox, ['COURSE_STARTED']));
		await host.activate('trigger');
		const [webhook] = [...ctx.sandbox.state.webhooks.values()];
		// n8n activates the workflow again (a restart): checkExists reads the webhook it stored.
		await answerOddly(`${API}/webhook/${webhook.id}`, 'null');
		await expect(host.activate('trigger')).rejects.toThrow(NOT_AN_OBJECT);
		expect([...ctx.sandbox.state.webhooks.values()].map((w) => w.id)).toEqual([webhook.id]);
	});
});

describe('a write whose answer was lost is not sent again on the word of an odd list', () => {
	it('Knolyx Trigger: registration applied, then 502, then the webhook list answers a maintenance notice: one webhook, activation fails clearly', async () => {
		const host = await hosts.start(knolyxTrigger(ctx.sandbox, ['COURSE_STARTED']));
		applyNextPostThen502('^/webhook$');
		// The registration sends no list read before its POST: the first GET is the check after it.
		await answerOddly(`${API}/webhook`, '{"status":"MAINTENANCE"}', { times: 1 });
		const failure = (await host.activate('trigger').then(
			() => undefined,
			(error: unknown) => error,
		)) as { message: string; description?: string } | undefined;
		expect(failure?.message).toBe(
			`The webhook registration for ${host.url('trigger')} got no clear answer, and the webhook list that would show whether it was applied could not be read: it was not sent again`,
		);
		expect(failure?.description).toContain('The webhook may exist in Knolyx.');
		expect(failure?.description).toContain(NOT_A_LIST);
		const ours = [...ctx.sandbox.state.webhooks.values()].filter(
			(webhook) => webhook.url === host.url('trigger'),
		);
		expect(ours).toHaveLength(1);
		expect(ctx.sandbox.stats().faultsInjected.applyThenFail).toBe(1);
	});

	it('Webhook → Create: created, then 502, then the list check answers a maintenance notice: one webhook, the item says it may exist', async () => {
		applyNextPostThen502('^/webhook$');
		// Create reads the list before its POST (what existed before); the second read is the check.
		await answerOddly(`${API}/webhook`, '{"status":"MAINTENANCE"}', { after: 1, times: 1 });
		const url = 'https://hooks.example.com/knolyx';
		const result = await run(
			ctx.sandbox,
			{ resource: 'webhook', operation: 'create', name: 'CRM', url },
			[{}],
			{ continueOnFail: true },
		);
		expect(result.json[0].error).toBe(
			`The webhook registration for ${url} got no clear answer, and the webhook list that would show whether it was applied could not be read: it was not sent again`,
		);
		expect(String(result.json[0].description)).toContain('delete webhooks named "CRM"');
		expect([...ctx.sandbox.state.webhooks.values()].filter((w) => w.url === url)).toHaveLength(1);
	});

	it('Replace All: saved, then 502, then the check read answers a maintenance notice: saved once, the item says it may be saved', async () => {
		const courseId = firstCourse();
		applyNextPostThen502('^/business-rule/');
		await answerOddly(`${API}/business-rule/course/${courseId}`, '{"status":"MAINTENANCE"}', {
			after: 1,
			times: 1,
		});
		ctx.sandbox.resetStats();
		const result = await run(
			ctx.sandbox,
			{
				resource: 'rule',
				operation: 'replaceAll',
				courseId: rl(courseId),
				rules: '[]',
				options: { allowEmpty: true },
			},
			[{}],
			{ continueOnFail: true },
		);
		expect(result.json[0].error).toBe(
			`The save of the rules of course ${courseId} got no clear answer, and the rules could not be read back to check it: nothing was sent again`,
		);
		expect(String(result.json[0].description)).toContain('The save may have been applied.');
		expect(routes(ctx.sandbox)[RULE_SAVE]).toBe(1);
		expect(ctx.sandbox.stats().faultsInjected.applyThenFail).toBe(1);
	});
});
