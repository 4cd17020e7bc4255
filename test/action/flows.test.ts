/**
 * The contract's two integration flows, end to end as n8n workflows against the sandbox:
 * built from the primitive operations, and in one node each (event.register, user.enrol).
 * Each runs twice: the second run must leave the platform as the first one did.
 */
import { readRules } from '../../sandbox/rules';
import {
	membership,
	rl,
	runChain,
	runOk,
	stateSnapshot,
	userByEmail,
	useSandbox,
	type ChainStep,
} from './setup';

const ctx = useSandbox();

const COMMUNITY_WG = 'Community Members';
const attendees = () => [...(ctx.sandbox.state.attendance.get(ctx.demo.eventId)?.keys() ?? [])];
const eventRef = () => ({
	communityId: String(ctx.demo.communityId),
	eventId: String(ctx.demo.eventId),
});

/**
 * Runs `once` twice. The first run writes each thing once (no duplicate); the second leaves the
 * state exactly as it was: each of its writes is a no-op repeat (counted as a duplicate by the
 * sandbox), and a rule list that already holds the change is not saved again.
 */
async function expectIdempotent(once: () => Promise<void>): Promise<void> {
	await once();
	const first = ctx.sandbox.stats();
	expect(first.duplicateWrites).toBe(0);
	expect(Object.keys(first.writes).length).toBeGreaterThan(0);
	for (const [key, count] of Object.entries(first.writes)) expect([key, count]).toEqual([key, 1]);
	const afterFirst = stateSnapshot(ctx.sandbox);

	await once();
	const second = ctx.sandbox.stats();
	expect(stateSnapshot(ctx.sandbox)).toEqual(afterFirst);
	const repeated = Object.keys(first.writes).filter((key) => !key.startsWith('rules:'));
	const expected = Object.fromEntries(
		Object.keys(first.writes).map((key) => [key, key.startsWith('rules:') ? 1 : 2]),
	);
	expect(second.writes).toEqual(expected);
	expect(second.duplicateWrites).toBe(repeated.length);
}

const buyers = [
	{ email: 'eve@example.com', first: 'Eve', last: 'Event', gender: 'FEMALE' },
	{ email: 'max@example.com', first: 'Max', last: 'Meetup', gender: 'MALE' },
	{ email: 'sam@example.com', first: 'Sam', last: 'Summit', gender: '' },
];

describe('Flow A: event registration', () => {
	it('as primitive nodes: provision → add to the community workgroup → attend (user id from the provision answer)', async () => {
		const steps: ChainStep[] = [
			{
				name: 'Provision',
				parameters: {
					resource: 'user',
					operation: 'provision',
					email: '={{ $json.email }}',
					firstName: '={{ $json.first }}',
					lastName: '={{ $json.last }}',
					gender: '={{ $json.gender }}',
				},
			},
			{
				name: 'Add to community',
				parameters: {
					resource: 'workgroup',
					operation: 'addMember',
					workgroupId: rl(ctx.demo.workgroups[COMMUNITY_WG]),
					email: '={{ $json.email }}',
				},
			},
			{
				name: 'Attend',
				parameters: {
					resource: 'event',
					operation: 'attend',
					...eventRef(),
					userId: "={{ $('Provision').item.json.id }}",
				},
			},
		];
		let run = 0;
		await expectIdempotent(async () => {
			const result = await runChain(ctx.sandbox, steps, buyers);
			expect(result.error).toBeUndefined();
			const attended = result.output('Attend');
			expect(attended.map((a) => a.userId)).toEqual(
				buyers.map((b) => userByEmail(ctx.sandbox, b.email)?.id),
			);
			expect(attended.every((a) => a.alreadyAttending === run > 0)).toBe(true);
			expect(result.output('Provision').every((p) => p.created === (run === 0))).toBe(true);
			run++;
		});

		const ids = buyers.map((b) => userByEmail(ctx.sandbox, b.email)?.id as number);
		expect(userByEmail(ctx.sandbox, 'sam@example.com')?.gender).toBe('NON-BINARY');
		expect(userByEmail(ctx.sandbox, 'max@example.com')).toMatchObject({
			firstName: 'Max',
			lastName: 'Meetup',
			gender: 'MALE',
		});
		for (const buyer of buyers) {
			expect(
				membership(ctx.sandbox, ctx.demo.workgroups[COMMUNITY_WG], buyer.email)?.removalDate,
			).toBeNull();
		}
		expect(attendees()).toEqual(ids);
		expect(ctx.sandbox.state.onboardingEmails.map((e) => e.to)).toEqual(buyers.map((b) => b.email));
	});

	it('in one node: event.register, run twice', async () => {
		let run = 0;
		await expectIdempotent(async () => {
			const out = await runOk(
				ctx.sandbox,
				{
					resource: 'event',
					operation: 'register',
					email: '={{ $json.email }}',
					firstName: '={{ $json.first }}',
					lastName: '={{ $json.last }}',
					gender: '={{ $json.gender }}',
					workgroupId: rl(ctx.demo.workgroups[COMMUNITY_WG]),
					...eventRef(),
					removalDate: '2031-01-01T00:00:00Z',
				},
				buyers,
			);
			expect(out.map((o) => [o.email, o.created, o.alreadyAttending])).toEqual(
				buyers.map((b) => [b.email, run === 0, run > 0]),
			);
			run++;
		});
		const ids = buyers.map((b) => userByEmail(ctx.sandbox, b.email)?.id as number);
		expect(attendees()).toEqual(ids);
		for (const buyer of buyers) {
			expect(
				membership(ctx.sandbox, ctx.demo.workgroups[COMMUNITY_WG], buyer.email)?.removalDate,
			).toBe('2031-01-01 00:00:00');
		}
		expect(ctx.sandbox.state.onboardingEmails).toHaveLength(3);
	});
});

describe('Flow B: external payment enrolment', () => {
	const COURSE = 'Advanced Automation';

	it('as primitive nodes: course list → workgroup list → rule addWorkgroup → provision → add member', async () => {
		const first = "$('Items').first().json";
		const steps: ChainStep[] = [
			{
				name: 'Courses',
				executeOnce: true,
				parameters: { resource: 'course', operation: 'getAll', returnAll: true },
			},
			{
				name: 'Workgroups',
				executeOnce: true,
				parameters: { resource: 'workgroup', operation: 'getAll', returnAll: true },
			},
			{
				name: 'Rule',
				executeOnce: true,
				parameters: {
					resource: 'rule',
					operation: 'addWorkgroup',
					courseId: rl(
						`={{ $('Courses').all().find(c => c.json.title === ${first}.course).json.id }}`,
					),
					workgroupId: rl(
						`={{ $('Workgroups').all().find(w => w.json.name === ${first}.course).json.id }}`,
					),
				},
			},
			{
				name: 'Provision',
				parameters: {
					resource: 'user',
					operation: 'provision',
					email: `={{ ${first}.email }}`,
					firstName: `={{ ${first}.first }}`,
					lastName: `={{ ${first}.last }}`,
				},
			},
			{
				name: 'Add member',
				parameters: {
					resource: 'workgroup',
					operation: 'addMember',
					workgroupId: rl("={{ $('Rule').first().json.workgroupId }}"),
					email: '={{ $json.email }}',
					removalDate: `={{ ${first}.until }}`,
				},
			},
		];
		const item = {
			course: COURSE,
			email: 'buyer@example.com',
			first: 'Bea',
			last: 'Buyer',
			until: '2032-05-01T12:00:00+02:00',
		};
		await expectIdempotent(async () => {
			const result = await runChain(ctx.sandbox, steps, [item]);
			expect(result.error).toBeUndefined();
			expect(result.output('Add member')).toHaveLength(1);
		});

		const courseId = ctx.demo.courses[COURSE];
		const workgroupId = ctx.demo.workgroups[COURSE];
		const rules = readRules(ctx.sandbox.state, courseId);
		expect(rules).toHaveLength(1);
		expect(rules[0]).toMatchObject({
			name: `PAYMENT_INTEGRATION_COURSE_${courseId}`,
			type: 'PRIVATE',
			associations: { WORKGROUP: [workgroupId] },
		});
		expect(userByEmail(ctx.sandbox, 'buyer@example.com')).toMatchObject({
			firstName: 'Bea',
			lastName: 'Buyer',
		});
		expect(membership(ctx.sandbox, workgroupId, 'buyer@example.com')?.removalDate).toBe(
			'2032-05-01 10:00:00',
		);
		// The seeded rule of the other course is untouched.
		expect(readRules(ctx.sandbox.state, ctx.demo.courses['Intro to n8n'])).toHaveLength(1);
	});

	it('in one node: rule addWorkgroup once per course, then user.enrol per purchase, run twice', async () => {
		const courseId = ctx.demo.courses[COURSE];
		const workgroupId = ctx.demo.workgroups[COURSE];
		await expectIdempotent(async () => {
			await runOk(ctx.sandbox, {
				resource: 'rule',
				operation: 'addWorkgroup',
				courseId: rl(courseId),
				workgroupId: rl(workgroupId),
			});
			const out = await runOk(
				ctx.sandbox,
				{
					resource: 'user',
					operation: 'enrol',
					email: '={{ $json.email }}',
					firstName: '={{ $json.first }}',
					lastName: '={{ $json.last }}',
					gender: '={{ $json.gender }}',
					workgroupId: rl(workgroupId),
				},
				buyers,
			);
			expect(out.map((o) => o.email)).toEqual(buyers.map((b) => b.email));
			expect(out.every((o) => (o.membership as { email?: string }).email === o.email)).toBe(true);
		});
		expect(readRules(ctx.sandbox.state, courseId)).toMatchObject([
			{ associations: { WORKGROUP: [workgroupId] } },
		]);
		for (const buyer of buyers) {
			expect(userByEmail(ctx.sandbox, buyer.email)).toBeDefined();
			expect(membership(ctx.sandbox, workgroupId, buyer.email)?.removalDate).toBeNull();
		}
		expect(ctx.sandbox.state.onboardingEmails).toHaveLength(3);
	});

	it('enrol reports whether the user was created', async () => {
		const params = {
			resource: 'user',
			operation: 'enrol',
			email: 'ada@example.com',
			firstName: 'Ada',
			lastName: 'Lovelace',
			gender: 'FEMALE',
			workgroupId: rl(ctx.demo.workgroups[COURSE]),
		};
		const [existing] = await runOk(ctx.sandbox, params);
		expect(existing).toMatchObject({ created: false, userId: ctx.demo.users['ada@example.com'] });
		const [fresh] = await runOk(ctx.sandbox, { ...params, email: 'new@example.com' });
		expect(fresh).toMatchObject({
			created: true,
			userId: userByEmail(ctx.sandbox, 'new@example.com')?.id,
		});
	});
});

describe('Gender: Leave Unchanged (the default) sends no gender', () => {
	const ADA = 'ada@example.com'; // seeded FEMALE, member of the community workgroup
	const ALAN = 'alan@example.com'; // seeded MALE
	const gender = (email: string) => userByEmail(ctx.sandbox, email)?.gender;

	it('event.register of an existing FEMALE student keeps her FEMALE', async () => {
		const [out] = await runOk(ctx.sandbox, {
			resource: 'event',
			operation: 'register',
			email: ADA,
			firstName: 'Ada',
			lastName: 'Lovelace',
			workgroupId: rl(ctx.demo.workgroups[COMMUNITY_WG]),
			...eventRef(),
		});
		expect(out).toMatchObject({ created: false, attending: true, userId: ctx.demo.users[ADA] });
		expect(gender(ADA)).toBe('FEMALE');
		expect(attendees()).toEqual([ctx.demo.users[ADA]]);
	});

	it('provision and enrol keep an existing gender, by default and from an empty expression; a chosen one is sent', async () => {
		const base = { firstName: 'Alan', lastName: 'Turing', email: ALAN };
		const provision = async (chosen?: string) =>
			await runOk(ctx.sandbox, {
				resource: 'user',
				operation: 'provision',
				...base,
				...(chosen !== undefined && { gender: chosen }),
			});
		await provision();
		expect(gender(ALAN)).toBe('MALE');
		await runOk(
			ctx.sandbox,
			{
				resource: 'user',
				operation: 'enrol',
				...base,
				gender: '={{ $json.g }}',
				workgroupId: rl(201),
			},
			[{ g: '' }, {}],
		);
		expect(gender(ALAN)).toBe('MALE');
		await provision('unchanged');
		expect(gender(ALAN)).toBe('MALE');
		await provision('NON-BINARY');
		expect(gender(ALAN)).toBe('NON-BINARY');
	});

	it('a new user left unchanged gets the platform default', async () => {
		await runOk(ctx.sandbox, {
			resource: 'user',
			operation: 'enrol',
			email: 'new@example.com',
			firstName: 'N',
			lastName: 'U',
			workgroupId: rl(201),
		});
		expect(gender('new@example.com')).toBe('NON-BINARY');
	});
});
