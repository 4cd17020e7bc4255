/**
 * Issue 55, point 3, for writes: a user id and a course id past 2^53 - 1 (the contract: `integer,
 * long`) stay exact through User → Provision, Event → Register's attendance, and the Course Access
 * Rule operations (preview → Apply Previewed Change → Restore). The sandbox's own ids are numbers,
 * so its edge rules play the answers a platform holding such ids gives, over real HTTP; the paths
 * the rules served show which ids reached Knolyx.
 */
import { clearEdges, edgeReport, setEdge } from '../harness';
import { rl, run, useSandbox } from './setup';

const ctx = useSandbox();
beforeEach(async () => {
	ctx.sandbox.setVariants([]);
	await clearEdges(ctx.sandbox.url);
});

const API = '/public/api/v1';
/** 2^53 + 1: a number rounds it to 2^53 (…992). */
const USER_ID = '9007199254740993';

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
