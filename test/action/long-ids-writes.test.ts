/**
 * Issue 55, point 3, for writes: a user id and a course id past 2^53 - 1 (the contract: `integer,
 * long`) stay exact through User → Provision, Event → Register's attendance, and the Course Access
 * Rule operations (preview → Apply Previewed Change → Restore). The sandbox's own ids are numbers,
 * so its edge rules play the answers a platform holding such ids gives, over real HTTP; the paths
 * the rules served show which ids reached Knolyx.
 */
import type { INodeParameters } from 'n8n-workflow';

import { clearEdges, edgeReport, setEdge } from '../harness';
import { aRule, rl, routes, run, runChain, useSandbox } from './setup';

const ctx = useSandbox();
beforeEach(async () => {
	ctx.sandbox.setVariants([]);
	await clearEdges(ctx.sandbox.url);
});

const API = '/public/api/v1';
/** 2^53 + 1: a number rounds it to 2^53 (…992). */
const USER_ID = '9007199254740993';
const COURSE_ID = '9007199254740995';

async function answer(path: string, method: string, body: string, status = 200, times?: number) {
	await setEdge(ctx.sandbox.url, {
		path,
		method,
		...(times !== undefined && { times }),
		answer: { status, contentType: 'application/json', body },
	});
}

/** How many answers the edge rule of `method path` gave (0: the id never reached Knolyx). */
async function servedAt(path: string, method: string): Promise<number> {
	const rules = await edgeReport(ctx.sandbox.url);
	return rules
		.filter((rule) => rule.path === path && rule.method === method)
		.reduce((sum, rule) => sum + rule.served, 0);
}

describe('a user id past 2^53 - 1 from provisioning', () => {
	const provisioned = `{"id":${USER_ID},"email":"ada@example.com","firstName":"Ada"}`;

	it('User → Provision outputs it as its digits', async () => {
		await answer(`${API}/user/provision`, 'POST', provisioned, 201);
		const out = await run(ctx.sandbox, {
			resource: 'user',
			operation: 'provision',
			email: 'ada@example.com',
			firstName: 'Ada',
			lastName: 'Lovelace',
		});
		expect(out.error).toBeUndefined();
		expect(out.json).toEqual([
			{ id: USER_ID, email: 'ada@example.com', firstName: 'Ada', created: true },
		]);
	});

	it('Event → Register marks attendance of exactly that user', async () => {
		const communityId = '31';
		const eventId = '41';
		await answer(`${API}/user/provision`, 'POST', provisioned, 201);
		await answer(
			`${API}/workgroup/51/member/ada%40example.com/`,
			'PUT',
			'{"workgroupId":51,"email":"ada@example.com","removalDate":null}',
		);
		const attend = `${API}/community/${communityId}/event/${eventId}/attend/${USER_ID}`;
		await answer(attend, 'POST', '{}');
		const out = await run(ctx.sandbox, {
			resource: 'event',
			operation: 'register',
			email: 'ada@example.com',
			firstName: 'Ada',
			lastName: 'Lovelace',
			workgroupId: rl(51),
			communityId,
			eventId,
		});
		expect(out.error).toBeUndefined();
		expect(out.json[0]).toMatchObject({ userId: USER_ID, attending: true, created: true });
		expect(await servedAt(attend, 'POST')).toBe(1);
		// Nobody else's attendance was marked (the rounded id …992 would have reached the sandbox).
		expect(ctx.sandbox.stats().requests).toBe(0);
	});
});

describe('a course id past 2^53 - 1 in the Course Access Rule operations', () => {
	const rules = `${API}/business-rule/course/${COURSE_ID}`;
	const rule = (workgroups: number[]) =>
		JSON.stringify({
			...aRule('Access', { type: 'PRIVATE', associations: { WORKGROUP: workgroups } }),
			id: 77,
		});
	const before = `[${rule([9])}]`;
	const after = `[${rule([9, 7])}]`;
	const params: INodeParameters = {
		resource: 'rule',
		operation: 'addWorkgroup',
		courseId: rl(COURSE_ID),
		ruleName: 'Access',
		workgroupId: rl(7),
	};

	it('Get reads the rules at the exact path', async () => {
		await answer(rules, 'GET', before);
		const out = await run(ctx.sandbox, {
			resource: 'rule',
			operation: 'get',
			courseId: rl(COURSE_ID),
			ruleName: 'Access',
		});
		expect(out.error).toBeUndefined();
		expect(out.json[0]).toMatchObject({ name: 'Access', associations: { WORKGROUP: [9] } });
		expect(await servedAt(rules, 'GET')).toBe(1);
	});

	it('Add Workgroup: preview → Apply Previewed Change → Restore, each on exactly that course', async () => {
		await answer(`${API}/course/${COURSE_ID}`, 'GET', `{"id":${COURSE_ID},"title":"Long"}`);
		// Preview and apply read the list before; the read back after the save (and Restore's
		// read) show the added workgroup; Restore's read back shows the list before again.
		await answer(rules, 'GET', before, 200, 2);
		await answer(rules, 'GET', after, 200, 2);
		await answer(rules, 'GET', before);
		await answer(rules, 'POST', after, 200, 1);
		await answer(rules, 'POST', before, 200, 1);
		const { output, error } = await runChain(ctx.sandbox, [
			{ name: 'Preview', parameters: { ...params, options: { preview: true } } },
			{
				name: 'Apply',
				parameters: {
					...params,
					options: { previewedChange: "={{ $('Preview').item.json.change }}" },
				},
			},
			{
				name: 'Restore',
				parameters: { resource: 'rule', operation: 'restore', change: '={{ $json.change }}' },
			},
		]);
		expect(error).toBeUndefined();
		expect(output('Preview')[0]).toMatchObject({ courseId: COURSE_ID, preview: true });
		expect(output('Apply')[0]).toMatchObject({ courseId: COURSE_ID, changed: true });
		expect(output('Restore')[0]).toMatchObject({
			courseId: COURSE_ID,
			action: 'restored',
			changed: true,
		});
		expect(await servedAt(rules, 'POST')).toBe(2);
		expect(await servedAt(rules, 'GET')).toBe(5);
		// Only the workgroup names of the preview's summary reached the sandbox's own API: no rules
		// of another course (a rounded id) were read or saved.
		expect(Object.keys(routes(ctx.sandbox))).toEqual(['GET /public/api/v1/workgroup']);
		expect(output('Preview')[0].summary).toContain('"Long"');
	});
});
