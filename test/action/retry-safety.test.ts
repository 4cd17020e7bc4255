/**
 * Retry safety and answers that are not the API's, as a workflow sees them over real HTTP:
 * - a write that is not idempotent (rule save, Replace All, webhook creation by the node and by
 *   the trigger) is never sent again after a 502/504 or a dropped answer before a read shows
 *   it was not applied;
 * - an idempotent DELETE whose retry answers 404 after a lost answer has succeeded;
 * - the platform's say-so cannot hang a run (huge or negative Retry-After, pages that repeat);
 * - a web page where JSON was due, oversized error bodies, base URLs with spaces, a query or a
 *   fragment, and a credential test against a host that never answers.
 */
import type { IDataObject } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import type { Sandbox } from '../../sandbox';
import { readRules, seedRules } from '../../sandbox/rules';
import { startTriggerHost, testCredential } from '../harness';
import {
	CREDENTIAL_TEST_BOUND_MS,
	DEMO,
	RULE_SAVE,
	aRule,
	membership,
	rl,
	routes,
	run,
	runOk,
	testCredentialWithin,
	useSandbox,
	knolyxTrigger,
} from './setup';

const ctx = useSandbox();

type Json = Record<string, unknown>;

function newCourse(rules: Json[]): number {
	const [courseId] = ctx.sandbox.seed({ courses: [{ title: 'Retry safety' }] }).courses;
	ctx.sandbox.seed({ rules: { [courseId]: rules } });
	ctx.sandbox.resetStats();
	return courseId;
}

/** Right after the next rule save of `courseId` is applied, another writer adds a rule. */
function anotherWriterAfterNextSave(sandbox: Sandbox, courseId: number, rule: Json): void {
	const rules = sandbox.state.rules;
	const original = rules.set.bind(rules);
	rules.set = ((key: number, value: never) => {
		const result = original(key, value);
		if (key === courseId) {
			Reflect.deleteProperty(rules, 'set');
			seedRules(sandbox.state, courseId, [rule]);
		}
		return result;
	}) as typeof rules.set;
}

const OTHER = aRule('Saved by someone else', { associations: { WORKGROUP: [] } });
/** The next POST to a path matching `onlyPath` is applied, then answered with `status`. */
const applyNextPostThenFail = (onlyPath: string, status: number) =>
	ctx.sandbox.setFaults({
		applyThenFailRate: 1,
		applyThenStatus: status,
		onlyMethod: 'POST',
		onlyPath,
		maxFaults: 1,
	});
/** Rule → Replace All of `courseId` with `list`. */
const replaceAll = (courseId: number, list: Json[]) => ({
	resource: 'rule',
	operation: 'replaceAll',
	courseId: rl(courseId),
	rules: JSON.stringify(list),
});
const names = (courseId: number) => readRules(ctx.sandbox.state, courseId).map((rule) => rule.name);

describe('a write that may have been applied is not sent again blindly', () => {
	it.each([502, 504])(
		'rule edit: save applied, then %i: not re-posted; a rule saved meanwhile by another writer is kept',
		async (status) => {
			const courseId = newCourse([
				aRule('Access', { type: 'PRIVATE', associations: { WORKGROUP: [] } }),
			]);
			applyNextPostThenFail('^/business-rule/', status);
			anotherWriterAfterNextSave(ctx.sandbox, courseId, OTHER);
			const [out] = await runOk(ctx.sandbox, {
				resource: 'rule',
				operation: 'addWorkgroup',
				courseId: rl(courseId),
				ruleName: 'Access',
				workgroupId: rl(201),
			});
			expect(out).toMatchObject({ action: 'workgroupAdded', changed: true });
			expect(names(courseId)).toEqual(['Access', OTHER.name]);
			expect(readRules(ctx.sandbox.state, courseId)[0].associations).toEqual({ WORKGROUP: [201] });
			expect(routes(ctx.sandbox)[RULE_SAVE]).toBe(1);
			expect(ctx.sandbox.stats().faultsInjected.applyThenFail).toBe(1);
		},
	);

	it('Replace All: save applied, then 502: reported saved, sent once', async () => {
		const courseId = newCourse([aRule('Old', { associations: { WORKGROUP: [] } })]);
		applyNextPostThenFail('^/business-rule/', 502);
		const list = [aRule('New', { type: 'PRIVATE', associations: { WORKGROUP: [7] } })];
		const [out] = await runOk(ctx.sandbox, replaceAll(courseId, list));
		expect(out).toMatchObject({ courseId, ruleCount: 1 });
		expect(names(courseId)).toEqual(['New']);
		expect(routes(ctx.sandbox)[RULE_SAVE]).toBe(1);
	});

	it('Replace All: save applied, then 504, and another writer saved meanwhile: fails clearly, the other rule is kept', async () => {
		const courseId = newCourse([aRule('Old', { associations: { WORKGROUP: [] } })]);
		applyNextPostThenFail('^/business-rule/', 504);
		anotherWriterAfterNextSave(ctx.sandbox, courseId, OTHER);
		const list = [aRule('New', { type: 'PRIVATE', associations: { WORKGROUP: [7] } })];
		const result = await run(ctx.sandbox, replaceAll(courseId, list), [{}], {
			continueOnFail: true,
		});
		expect(String(result.json[0].error)).toMatch(
			/no clear answer.*changed since.*nothing was sent again/,
		);
		expect(names(courseId)).toEqual(['New', OTHER.name]);
		expect(routes(ctx.sandbox)[RULE_SAVE]).toBe(1);
	});

	it.each([
		['502', { applyThenFailRate: 1, applyThenStatus: 502 }],
		['a dropped connection', { resetAfterApplyRate: 1 }],
	])(
		'Webhook → Create: applied, then %s: one webhook on the platform, its id in the output',
		async (_label, faults) => {
			ctx.sandbox.setFaults({
				...faults,
				onlyMethod: 'POST',
				onlyPath: '^/webhook$',
				maxFaults: 1,
			});
			const [out] = await runOk(ctx.sandbox, {
				resource: 'webhook',
				operation: 'create',
				name: 'CRM sync',
				url: 'https://crm.example.com/knolyx',
				securityToken: 'a-token-of-my-own',
			});
			const created = [...ctx.sandbox.state.webhooks.values()].filter(
				(w) => w.url === 'https://crm.example.com/knolyx',
			);
			expect(created).toHaveLength(1);
			expect(out).toMatchObject({
				id: created[0].id,
				name: 'CRM sync',
				securityToken: 'a-token-of-my-own',
			});
			expect(ctx.sandbox.stats().duplicateWrites).toBe(0);
		},
	);

	it.each([502, 504])(
		'Knolyx Trigger activation: applied, then %i: one webhook, gone after deactivation',
		async (status) => {
			const host = await startTriggerHost(knolyxTrigger(ctx.sandbox, ['COURSE_STARTED']));
			try {
				applyNextPostThenFail('^/webhook$', status);
				await host.activate('trigger');
				const ours = () =>
					[...ctx.sandbox.state.webhooks.values()].filter((w) => w.url === host.url('trigger'));
				expect(ours()).toHaveLength(1);
				await host.deactivate('trigger');
				expect(ours()).toHaveLength(0);
			} finally {
				await host.close();
			}
		},
	);
});

describe('an idempotent DELETE whose answer was lost has succeeded when its retry answers 404', () => {
	const dropNextDelete = () =>
		ctx.sandbox.setFaults({ resetAfterApplyRate: 1, onlyMethod: 'DELETE', maxFaults: 1 });

	it('Remove Member', async () => {
		const workgroupId = ctx.demo.workgroups['Community Members'];
		dropNextDelete();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'workgroup',
			operation: 'removeMember',
			workgroupId: rl(workgroupId),
			email: 'ada@example.com',
		});
		expect(out).toMatchObject({ workgroupId, email: 'ada@example.com', removed: true });
		expect(membership(ctx.sandbox, workgroupId, 'ada@example.com')).toBeUndefined();
		expect(ctx.sandbox.stats().faultsInjected.resetAfterApply).toBe(1);
	});

	it('Cancel Attendance', async () => {
		const userId = ctx.demo.users['ada@example.com'];
		ctx.sandbox.seed({ attendance: [{ eventId: ctx.demo.eventId, userId }] });
		dropNextDelete();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'event',
			operation: 'cancelAttendance',
			communityId: String(ctx.demo.communityId),
			eventId: String(ctx.demo.eventId),
			userId: String(userId),
		});
		expect(out).toMatchObject({ attending: false });
		expect(ctx.sandbox.state.attendance.get(ctx.demo.eventId)?.has(userId) ?? false).toBe(false);
	});

	it('Webhook → Delete', async () => {
		const [webhookId] = [...ctx.sandbox.state.webhooks.keys()];
		const id =
			webhookId ??
			(
				await runOk(ctx.sandbox, {
					resource: 'webhook',
					operation: 'create',
					name: 'x',
					url: 'https://x.example.com/h',
				})
			)[0].id;
		dropNextDelete();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'webhook',
			operation: 'delete',
			webhookId: String(id),
		});
		expect(out).toMatchObject({ webhookId: String(id), deleted: true });
		expect(ctx.sandbox.state.webhooks.has(Number(id))).toBe(false);
	});
});

describe("no run hangs on the platform's say-so", () => {
	const courseGet = { resource: 'course', operation: 'get', courseId: rl('={{ $json.id }}') };
	const items = (count: number) => Array.from({ length: count }, (_, i) => ({ id: 101 + (i % 3) }));

	it.each([
		['3600 seconds', '3600'],
		['an HTTP date a day ahead', new Date(Date.now() + 86_400_000).toUTCString()],
	])(
		'a 429 with Retry-After of %s fails that item at once, saying why; the other items finish',
		async (_label, retryAfter) => {
			ctx.sandbox.setFaults({ errorRate: 1, errorStatuses: [429], retryAfter, maxFaults: 1 });
			const result = await run(ctx.sandbox, courseGet, items(6), { continueOnFail: true });
			const failed = result.json.filter((json) => json.error !== undefined);
			expect(failed).toHaveLength(1);
			expect(String(failed[0].error)).toMatch(
				/asked to wait (1 h|2\d h|8\d{4} s|86\d{3} s) before retrying \(Retry-After\), longer than the node waits/,
			);
			expect(result.json.filter((json) => json.id !== undefined)).toHaveLength(5);
		},
		20_000,
	);

	it('a negative Retry-After gets the normal backoff, not an immediate retry', async () => {
		ctx.sandbox.setFaults({ errorRate: 1, errorStatuses: [429], retryAfter: '-5', maxFaults: 3 });
		const started = Date.now();
		const out = await runOk(ctx.sandbox, courseGet, items(1));
		expect(out).toHaveLength(1);
		// Backoff with equal jitter waits at least 125 + 250 + 500 ms over three retries.
		expect(Date.now() - started).toBeGreaterThanOrEqual(875);
		expect(ctx.sandbox.stats().requests).toBe(4);
	});

	it('Return All stops with a clear error when the platform serves the same page again', async () => {
		ctx.sandbox.seed({ generate: { courses: 150 } });
		ctx.sandbox.setFaults({ repeatPages: true });
		const result = await run(
			ctx.sandbox,
			{ resource: 'course', operation: 'getAll', returnAll: true },
			[{}],
			{ continueOnFail: true },
		);
		expect(result.json).toHaveLength(1);
		expect(String(result.json[0].error)).toMatch(/does not end: page 1 repeats page 0/);
		// Pages 0 and 1, then page 0 of one entry: it answers one, so the size is honoured and only
		// the page number ignored (a list served whole would be read as one list, issue 35).
		expect(ctx.sandbox.stats().requests).toBe(3);
	});

	it('a list that is not paged at all (short first page served again) is read whole', async () => {
		ctx.sandbox.setFaults({ repeatPages: true });
		const all = await runOk(ctx.sandbox, {
			resource: 'course',
			operation: 'getAll',
			returnAll: true,
		});
		expect(all.map((course) => course.id)).toEqual([...ctx.sandbox.state.courses.keys()]);
	});
});

describe("answers that are not the API's", () => {
	const BASE_URL_WRONG = /web page \(HTML\), not the API's JSON: the base URL looks wrong/;

	it('a 200 with a web page fails Provision, Add Member and Get Many with an error about the base URL', async () => {
		ctx.sandbox.setFaults({ okHtmlRate: 1 });
		const cases: IDataObject[] = [
			{
				resource: 'user',
				operation: 'provision',
				email: 'new@example.com',
				firstName: 'N',
				lastName: 'E',
			},
			{
				resource: 'workgroup',
				operation: 'addMember',
				workgroupId: rl(201),
				email: 'ada@example.com',
			},
			{ resource: 'course', operation: 'getAll', returnAll: true },
		];
		for (const parameters of cases) {
			const result = await run(ctx.sandbox, parameters as never, [{}], { continueOnFail: true });
			expect([parameters.operation, result.json[0].error]).toEqual([
				parameters.operation,
				expect.stringMatching(BASE_URL_WRONG),
			]);
		}
	});

	it('the credential test does not report success for a web page', async () => {
		ctx.sandbox.setFaults({ okHtmlRate: 1 });
		const result = await testCredential(new KnolyxApi(), {
			baseUrl: ctx.sandbox.url,
			projectId: DEMO.projectId,
			apiKey: DEMO.apiKey,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/web page, not the Knolyx API/);
	});

	it('an error message from an oversized body full of markup is capped and plain', async () => {
		const huge = `Invalid <b>request</b> <script>alert(1)</script>${' <i>detail</i>'.repeat(800)}`;
		ctx.sandbox.setFaults({ errorRate: 1, errorStatuses: [400], errorBody: huge });
		const result = await run(
			ctx.sandbox,
			{ resource: 'course', operation: 'get', courseId: rl(101) },
			[{}],
			{ continueOnFail: true },
		);
		const message = String(result.json[0].error);
		expect(message).toMatch(/^Knolyx: Invalid request detail detail/);
		expect(message.length).toBeLessThanOrEqual(350);
		expect(message).not.toMatch(/[<>]/);
		expect(JSON.stringify(result.json[0])).not.toMatch(/<script|<b>|<i>/);
	});

	it('spaces around the base URL are fine for the credential test and the node', async () => {
		const credentials = {
			baseUrl: `  ${ctx.sandbox.url}/  `,
			projectId: DEMO.projectId,
			apiKey: DEMO.apiKey,
		};
		expect(await testCredential(new KnolyxApi(), credentials)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const [course] = await runOk(
			ctx.sandbox,
			{ resource: 'course', operation: 'get', courseId: rl(101) },
			[{}],
			{ credentials },
		);
		expect(course.id).toBe(101);
	});

	it.each(['?tenant=a', '#/home'])(
		'a base URL with %s is refused, naming the field, by the node and the credential test',
		async (tail) => {
			const credentials = {
				baseUrl: `${ctx.sandbox.url}/${tail}`,
				projectId: DEMO.projectId,
				apiKey: DEMO.apiKey,
			};
			const tested = await testCredential(new KnolyxApi(), credentials);
			expect(tested.status).toBe('Error');
			expect(tested.message).toMatch(
				/Base URL must not contain a query \(\?…\) or a fragment \(#…\)/,
			);
			const result = await run(
				ctx.sandbox,
				{ resource: 'course', operation: 'get', courseId: rl(101) },
				[{}],
				{ credentials, continueOnFail: true },
			);
			expect(String(result.json[0].error)).toMatch(
				/^Base URL of the Knolyx API credential must not contain a query/,
			);
			expect(ctx.sandbox.stats().requests).toBe(0);
		},
	);

	it('the credential test gives up on a host that does not answer (at its bound, 10 s; 1 s here)', async () => {
		ctx.sandbox.setFaults({ slowRate: 1, slowMs: 14_000 });
		const started = Date.now();
		const result = await testCredentialWithin(1000, {
			baseUrl: ctx.sandbox.url,
			projectId: DEMO.projectId,
			apiKey: DEMO.apiKey,
		});
		expect(result.status).toBe('Error');
		expect(Date.now() - started).toBeLessThan(CREDENTIAL_TEST_BOUND_MS);
	}, 20_000);
});
