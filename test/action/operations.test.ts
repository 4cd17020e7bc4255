/**
 * One workflow test per resource/operation of the Knolyx node, over real HTTP against the
 * sandbox, each asserting the platform state afterwards (not only the node's answer).
 */
import { startReceiver, type Receiver } from '../sandbox/helpers';
import { readRules } from '../../sandbox/rules';
import type { VariantName } from '../../sandbox';
import { clearEdges, setEdge } from '../harness';
import {
	apiDate,
	DEMO,
	run,
	listSearch,
	membership,
	RULE_READ,
	RULE_SAVE,
	rl,
	rlList,
	routes,
	rulesOf,
	runOk,
	aRule,
	userByEmail,
	useSandbox,
} from './setup';

const ctx = useSandbox();
let receiver: Receiver;

beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(async () => {
	await receiver.close();
});
beforeEach(() => {
	receiver.calls.length = 0;
});

/**
 * Whether the sandbox plays a variant (npm run test:variants runs this suite under each, see
 * jest.variants.config.js): where the platform's answer differs, the test asserts what the node
 * makes of that answer; the platform's state is asserted the same under every variant.
 */
const playing = (...names: VariantName[]) =>
	names.some((name) => ctx.sandbox.variants().includes(name));
/**
 * Provisioning, member add and pings answered with nothing: no id, no counts in the answer.
 * (textWrites answers only the writes a read or a second send checks with text since issue 55;
 * their text answers are played by textWritesUnchecked in test/variants.)
 */
const bareWrites = () => playing('emptyWrites');

const wg = (name: string) => ctx.demo.workgroups[name];
const course = (title: string) => ctx.demo.courses[title];
const COMMUNITY_WG = 'Community Members';
/** Get Many of a resource: with Return All, or with Return All off and `limit`. */
const getMany = async (resource: string, limit?: number) =>
	await runOk(ctx.sandbox, {
		resource,
		operation: 'getAll',
		...(limit === undefined ? { returnAll: true } : { returnAll: false, limit }),
	});

describe('user', () => {
	it('provision creates the user with every field, sends one on-boarding e-mail, and updates on a second run', async () => {
		const params = {
			resource: 'user',
			operation: 'provision',
			email: '={{ $json.email }}',
			firstName: '={{ $json.first }}',
			lastName: 'Hopper',
			gender: 'FEMALE',
		};
		const [created] = await runOk(ctx.sandbox, params, [
			{ email: 'grace@example.com', first: 'Grace' },
		]);
		expect(created).toMatchObject({ email: 'grace@example.com', created: true });
		const user = userByEmail(ctx.sandbox, 'grace@example.com');
		expect(user).toMatchObject({
			firstName: 'Grace',
			lastName: 'Hopper',
			gender: 'FEMALE',
			role: 'STUDENT',
		});
		expect(created.id).toBe(bareWrites() ? undefined : user?.id);
		expect(ctx.sandbox.state.onboardingEmails.map((e) => e.to)).toEqual(['grace@example.com']);

		const [updated] = await runOk(ctx.sandbox, params, [
			{ email: 'grace@example.com', first: 'Amazing Grace' },
		]);
		expect(updated).toMatchObject({ created: false });
		expect(updated.id).toBe(bareWrites() || playing('provisionNoIdOn200') ? undefined : user?.id);
		expect(userByEmail(ctx.sandbox, 'grace@example.com')?.firstName).toBe('Amazing Grace');
		expect(ctx.sandbox.state.onboardingEmails).toHaveLength(1);
		expect(ctx.sandbox.state.users.size).toBe(3);
	});

	it('provision defaults gender to NON-BINARY', async () => {
		await runOk(ctx.sandbox, {
			resource: 'user',
			operation: 'provision',
			email: 'nb@example.com',
			firstName: 'N',
			lastName: 'B',
		});
		expect(userByEmail(ctx.sandbox, 'nb@example.com')?.gender).toBe('NON-BINARY');
	});

	it('enrol provisions the user and adds the membership with the UTC removal date', async () => {
		const [out] = await runOk(ctx.sandbox, {
			resource: 'user',
			operation: 'enrol',
			email: 'buyer@example.com',
			firstName: 'Bea',
			lastName: 'Buyer',
			gender: 'FEMALE',
			workgroupId: rl(wg('Data Literacy')),
			removalDate: '2031-03-01T09:30:00+01:00',
		});
		const user = userByEmail(ctx.sandbox, 'buyer@example.com');
		expect(user).toMatchObject({ firstName: 'Bea', lastName: 'Buyer', gender: 'FEMALE' });
		expect(membership(ctx.sandbox, wg('Data Literacy'), 'buyer@example.com')).toMatchObject({
			userId: user?.id,
			removalDate: '2031-03-01 08:30:00',
		});
		expect(out).toMatchObject({
			email: 'buyer@example.com',
			userId: bareWrites() ? undefined : user?.id,
			created: true,
			workgroupId: wg('Data Literacy'),
			removalDate: '2031-03-01 08:30:00',
			membership: { email: 'buyer@example.com' },
		});
	});
});

describe('workgroup', () => {
	it('getAll returns every workgroup the platform has, through all pages', async () => {
		ctx.sandbox.seed({ generate: { workgroups: 230 } });
		const all = await getMany('workgroup');
		expect(all).toEqual(
			[...ctx.sandbox.state.workgroups.values()].map(({ id, name }) => ({ id, name })),
		);
		expect(all).toHaveLength(234);
		// Three pages and the empty one that ends the list (a short page is no end since issue 55:
		// it may be one the platform shortened in the middle), or the third when its page object
		// says last: true; a list that ignores paging is read twice: its first page, longer than
		// asked, is read on (issue 45: a platform may page at a size of its own), and the second
		// repeats it.
		expect(routes(ctx.sandbox)['GET /public/api/v1/workgroup']).toBe(
			playing('unpagedLists') ? 2 : playing('pageTotals') ? 3 : 4,
		);

		const limited = await getMany('workgroup', 5);
		expect(limited.map((w) => w.name)).toEqual([
			'Intro to n8n',
			'Advanced Automation',
			'Data Literacy',
			COMMUNITY_WG,
			'Generated Workgroup 000001',
		]);
	});

	it('addMember stores the membership with the removal date in UTC (ISO with offset, API format, Luxon, empty)', async () => {
		const params = {
			resource: 'workgroup',
			operation: 'addMember',
			workgroupId: '={{ $json.wg }}',
			email: '={{ $json.email }}',
			removalDate: '={{ $json.removal }}',
		};
		const out = await runOk(ctx.sandbox, params, [
			{
				wg: rl(wg('Intro to n8n')),
				email: 'ada@example.com',
				removal: '2030-06-01T12:00:00+02:00',
			},
			{ wg: rlList(wg('Data Literacy')), email: 'ADA@example.com', removal: '2030-12-31 23:59:00' },
			{ wg: rl(wg('Advanced Automation')), email: 'alan@example.com', removal: '' },
		]);
		expect(out.map((o) => o.removalDate)).toEqual([
			'2030-06-01 10:00:00',
			'2030-12-31 23:59:00',
			null,
		]);
		expect(membership(ctx.sandbox, wg('Intro to n8n'), 'ada@example.com')?.removalDate).toBe(
			'2030-06-01 10:00:00',
		);
		expect(membership(ctx.sandbox, wg('Data Literacy'), 'ada@example.com')?.removalDate).toBe(
			'2030-12-31 23:59:00',
		);
		expect(
			membership(ctx.sandbox, wg('Advanced Automation'), 'alan@example.com')?.removalDate,
		).toBeNull();

		// A Luxon DateTime from an expression ($now.plus) is converted to UTC.
		const before = Date.now();
		await runOk(ctx.sandbox, {
			...params,
			workgroupId: rl(wg('Intro to n8n')),
			email: 'alan@example.com',
			removalDate: '={{ $now.plus({ days: 30 }) }}',
		});
		const stored = membership(ctx.sandbox, wg('Intro to n8n'), 'alan@example.com')
			?.removalDate as string;
		const storedMs = Date.parse(`${stored.replace(' ', 'T')}Z`);
		expect(storedMs).toBeGreaterThanOrEqual(before + 30 * 86_400_000 - 1000);
		expect(storedMs).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000 + 1000);
	});

	it('addMember with a numeric workgroup id and a plain string parameter works too', async () => {
		await runOk(ctx.sandbox, {
			resource: 'workgroup',
			operation: 'addMember',
			workgroupId: '={{ 202 }}',
			email: 'alan@example.com',
		});
		expect(membership(ctx.sandbox, 202, 'alan@example.com')).toBeDefined();
	});

	it('removeMember deletes the membership and leaves the others', async () => {
		ctx.sandbox.seed({ members: [{ workgroupId: wg(COMMUNITY_WG), email: 'alan@example.com' }] });
		const [out] = await runOk(ctx.sandbox, {
			resource: 'workgroup',
			operation: 'removeMember',
			workgroupId: rl(wg(COMMUNITY_WG)),
			email: 'ada@example.com',
		});
		expect(out).toMatchObject({
			workgroupId: wg(COMMUNITY_WG),
			email: 'ada@example.com',
			removed: true,
		});
		expect(membership(ctx.sandbox, wg(COMMUNITY_WG), 'ada@example.com')).toBeUndefined();
		expect(membership(ctx.sandbox, wg(COMMUNITY_WG), 'alan@example.com')).toBeDefined();
	});
});

describe('course', () => {
	it('getAll returns every course through all pages, or up to the limit', async () => {
		ctx.sandbox.seed({ generate: { courses: 120 } });
		const all = await getMany('course');
		expect(all).toEqual(
			[...ctx.sandbox.state.courses.values()].map(({ id, title }) => ({ id, title })),
		);
		const limited = await getMany('course', 2);
		expect(limited).toEqual([
			{ id: course('Intro to n8n'), title: 'Intro to n8n' },
			{ id: course('Advanced Automation'), title: 'Advanced Automation' },
		]);
	});

	it('get returns the one course as stored', async () => {
		const [out] = await runOk(ctx.sandbox, {
			resource: 'course',
			operation: 'get',
			courseId: rlList(course('Data Literacy')),
		});
		expect(out).toEqual(
			JSON.parse(JSON.stringify(ctx.sandbox.state.courses.get(course('Data Literacy')))),
		);
	});
});

describe('webhook', () => {
	const create = async (name: string, securityToken = '') => {
		const [out] = await runOk(ctx.sandbox, {
			resource: 'webhook',
			operation: 'create',
			name,
			url: receiver.url,
			securityToken,
		});
		return Object.assign(out, { id: out.id as number });
	};

	it('create stores the webhook, returns a generated strong token, and the platform PINGs it with that token', async () => {
		const out = await create('CRM sync');
		expect(out.securityTokenGenerated).toBe(true);
		expect(out.securityToken).toMatch(/^[0-9a-f]{64}$/);
		const stored = ctx.sandbox.state.webhooks.get(out.id as number);
		expect(stored).toMatchObject({
			name: 'CRM sync',
			url: receiver.url,
			securityToken: out.securityToken,
		});
		const [ping] = await ctx.sandbox.waitForDeliveries(
			{ type: 'PING', webhookId: stored?.id, ok: true },
			3000,
		);
		expect(ping.body.data).toEqual({ message: 'PING' });
		expect(receiver.calls[0].method).toBe('PUT');
		expect(receiver.calls[0].headers['x-webhook-security-token']).toBe(out.securityToken);
	});

	it('create keeps a given token', async () => {
		const given = 'my-own-token-123';
		const out = await create('Given', given);
		expect(out).toMatchObject({ securityToken: given, securityTokenGenerated: false });
		expect(ctx.sandbox.state.webhooks.get(out.id as number)?.securityToken).toBe(given);
	});

	it('getAll lists every stored webhook', async () => {
		await create('One');
		await create('Two');
		const out = await runOk(ctx.sandbox, { resource: 'webhook', operation: 'getAll' });
		expect(out.map((w) => w.id)).toEqual([...ctx.sandbox.state.webhooks.keys()]);
		expect(out.map((w) => w.name)).toEqual(
			playing('webhooksWithoutName') ? [undefined, undefined] : ['One', 'Two'],
		);
		expect(out.every((w) => w.securityToken === undefined)).toBe(true);
	});

	it('get returns the one webhook', async () => {
		await create('One');
		const two = await create('Two');
		const [out] = await runOk(ctx.sandbox, {
			resource: 'webhook',
			operation: 'get',
			webhookId: String(two.id),
		});
		expect(out).toMatchObject({ id: two.id });
		expect(out.name).toBe(playing('webhooksWithoutName') ? undefined : 'Two');
		expect(out.url).toBe(playing('webhooksWithoutUrl') ? undefined : receiver.url);
	});

	it('delete removes only that webhook', async () => {
		const one = await create('One');
		const two = await create('Two');
		const [out] = await runOk(
			ctx.sandbox,
			{ resource: 'webhook', operation: 'delete', webhookId: '={{ $json.id }}' },
			[{ id: one.id }],
		);
		expect(out).toMatchObject({ webhookId: String(one.id), deleted: true });
		expect([...ctx.sandbox.state.webhooks.keys()]).toEqual([two.id]);
	});

	it('pingAll sends a PING to every webhook', async () => {
		const one = await create('One');
		const two = await create('Two');
		await ctx.sandbox.waitForDeliveries({ type: 'PING' }, 3000, 2);
		const [out] = await runOk(ctx.sandbox, { resource: 'webhook', operation: 'pingAll' });
		expect(out).toMatchObject(
			bareWrites() ? { pinged: true, answer: expect.any(String) } : { pinged: true, delivered: 2 },
		);
		const pings = await ctx.sandbox.waitForDeliveries({ type: 'PING', ok: true }, 3000, 4);
		expect(pings.filter((p) => p.webhookId === one.id)).toHaveLength(2);
		expect(pings.filter((p) => p.webhookId === two.id)).toHaveLength(2);
	});

	it('ping sends a PING to that webhook only', async () => {
		const one = await create('One');
		const two = await create('Two');
		await ctx.sandbox.waitForDeliveries({ type: 'PING' }, 3000, 2);
		const [out] = await runOk(ctx.sandbox, {
			resource: 'webhook',
			operation: 'ping',
			webhookId: String(two.id),
		});
		expect(out).toMatchObject({ pinged: true, webhookId: String(two.id) });
		await ctx.sandbox.waitForDeliveries({ type: 'PING', webhookId: two.id }, 3000, 2);
		expect(ctx.sandbox.deliveries({ type: 'PING', webhookId: one.id })).toHaveLength(1);
		expect(ctx.sandbox.deliveries({ type: 'PING', webhookId: two.id, ok: true })).toHaveLength(2);
	});
});

describe('rule', () => {
	const intro = () => course('Intro to n8n');
	/** The seeded rule of course "Intro to n8n", as the platform reads it. */
	const seededRule = () => readRules(ctx.sandbox.state, intro())[0];

	it('getAll returns the rules exactly as the platform reads them', async () => {
		const out = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'getAll',
			courseId: rl(intro()),
		});
		expect(out).toEqual(readRules(ctx.sandbox.state, intro()));
		expect(out[0]).toMatchObject({
			name: 'Staff early access',
			associations: { USER: [ctx.demo.users['alan@example.com']] },
			diplomaTemplateId: 7,
		});
	});

	/** Course Access Rule → Get of the rule named `ruleName` on "Intro to n8n". */
	const getRule = (ruleName: string) => ({
		resource: 'rule',
		operation: 'get',
		courseId: rl(intro()),
		ruleName,
	});

	it('get outputs the one named rule as the platform reads it, and saves nothing', async () => {
		const out = await runOk(ctx.sandbox, getRule('Staff early access'));
		expect(out).toEqual([seededRule()]);
		expect(routes(ctx.sandbox)).toEqual({ [RULE_READ]: 1 });
	});

	it('get of a rule the course does not have fails with a 404 naming the rule and the course, per item, and saves nothing', async () => {
		const missing = await run(ctx.sandbox, getRule('Spring cohort'));
		expect(missing.error?.message).toBe(
			`Course ${intro()} has no access rule named "Spring cohort"`,
		);
		expect(missing.error).toMatchObject({ httpCode: '404' });
		expect((missing.error as { description?: string }).description).toContain(
			'"Staff early access"',
		);

		// With On Error set to continue, the missing rule is that item's error; the other item gets
		// its rule. An empty Rule Name is the default payment rule, which "Intro to n8n" lacks.
		ctx.sandbox.resetStats();
		const items = await run(
			ctx.sandbox,
			getRule('={{ $json.name }}'),
			[{ name: 'Staff early access' }, { name: '' }],
			{ continueOnFail: true },
		);
		expect(items.error).toBeUndefined();
		expect(items.json).toEqual([
			seededRule(),
			expect.objectContaining({
				error: `Course ${intro()} has no access rule named "PAYMENT_INTEGRATION_COURSE_${intro()}"`,
				httpCode: '404',
			}),
		]);
		expect(items.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(routes(ctx.sandbox)[RULE_SAVE]).toBeUndefined();
		expect(rulesOf(ctx.sandbox, intro())).toEqual([seededRule()]);
	});

	it('get does not guess between two rules of the same name (as the rule edits do not)', async () => {
		const rules = ctx.sandbox.state.rules.get(intro())!;
		rules.push({ ...rules[0], id: 999 });
		const twice = await run(ctx.sandbox, getRule('Staff early access'));
		expect(twice.error?.message).toBe(
			`Course ${intro()} has 2 access rules named "Staff early access"`,
		);
		expect(routes(ctx.sandbox)).toEqual({ [RULE_READ]: 1 });
	});

	it('replaceAll saves the given list as the complete list', async () => {
		const kept = seededRule();
		const added = aRule('Spring cohort', {
			type: 'PRIVATE',
			startDateTime: '2030-01-01 00:00:00',
			endDateTime: '2030-06-01 00:00:00',
			associations: { WORKGROUP: [wg('Intro to n8n')] },
		});
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'replaceAll',
			courseId: rl(intro()),
			rules: JSON.stringify([kept, added]),
		});
		const stored = readRules(ctx.sandbox.state, intro());
		expect(stored).toHaveLength(2);
		expect(stored[0]).toEqual(kept);
		expect(stored[1]).toMatchObject(added);
		expect(typeof stored[1].id).toBe('number');
		expect(out).toMatchObject({ courseId: intro(), ruleCount: 2 });
	});

	it('replaceAll with an empty list deletes every rule only when Allow Empty List is on', async () => {
		await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'replaceAll',
			courseId: rl(intro()),
			rules: '[]',
			options: { allowEmpty: true },
		});
		expect(rulesOf(ctx.sandbox, intro())).toEqual([]);
	});

	it('upsert creates the named rule with the given dates (UTC) and workgroups, keeping the other rule', async () => {
		const before = seededRule();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'upsert',
			courseId: rl(intro()),
			ruleName: 'Cohort 2030',
			type: 'PRIVATE',
			startDateTime: '2030-01-01T00:00:00+01:00',
			endDateTime: '2030-12-31 23:00:00',
			workgroupIds: `${wg('Intro to n8n')}, ${wg('Data Literacy')}`,
		});
		const stored = readRules(ctx.sandbox.state, intro());
		expect(stored[0]).toEqual(before);
		expect(stored[1]).toMatchObject({
			name: 'Cohort 2030',
			type: 'PRIVATE',
			startDateTime: '2029-12-31 23:00:00',
			endDateTime: '2030-12-31 23:00:00',
			restrictions: { minimumTime: false, browseOrder: 'anyOrder' },
			associations: { WORKGROUP: [wg('Intro to n8n'), wg('Data Literacy')] },
		});
		expect(out).toMatchObject({
			action: 'created',
			changed: true,
			ruleName: 'Cohort 2030',
			ruleCount: 2,
		});

		// Updating the type only keeps the dates, workgroups and every other field.
		await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'upsert',
			courseId: rl(intro()),
			ruleName: 'Staff early access',
			type: 'PUBLIC',
		});
		const [updated] = readRules(ctx.sandbox.state, intro());
		expect(updated).toEqual({ ...before, type: 'PUBLIC' });
	});

	it('addWorkgroup creates the default payment rule (PRIVATE, now + 50 years) when missing', async () => {
		const before = seededRule();
		const start = Date.now();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'addWorkgroup',
			courseId: rl(intro()),
			workgroupId: rl(wg('Intro to n8n')),
		});
		const stored = readRules(ctx.sandbox.state, intro());
		expect(stored[0]).toEqual(before);
		const created = stored[1];
		expect(created).toMatchObject({
			name: `PAYMENT_INTEGRATION_COURSE_${intro()}`,
			type: 'PRIVATE',
			restrictions: { minimumTime: false, browseOrder: 'anyOrder' },
			associations: { WORKGROUP: [wg('Intro to n8n')] },
		});
		const startMs = Date.parse(`${String(created.startDateTime).replace(' ', 'T')}Z`);
		expect(Math.abs(startMs - start)).toBeLessThan(5000);
		const fiftyYears = new Date(startMs);
		fiftyYears.setUTCFullYear(fiftyYears.getUTCFullYear() + 50);
		expect(created.endDateTime).toBe(apiDate(fiftyYears));
		expect(out).toMatchObject({
			action: 'created',
			changed: true,
			workgroupId: wg('Intro to n8n'),
		});
		expect((out.rule as { id?: number }).id).toBe(created.id);
	});

	it('addWorkgroup adds to an existing rule, keeping its USER association and unknown fields', async () => {
		const before = seededRule();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'addWorkgroup',
			courseId: rl(intro()),
			ruleName: 'Staff early access',
			workgroupId: rl(wg('Data Literacy')),
		});
		expect(readRules(ctx.sandbox.state, intro())).toEqual([
			{
				...before,
				associations: { ...(before.associations as object), WORKGROUP: [wg('Data Literacy')] },
			},
		]);
		expect(out).toMatchObject({ action: 'workgroupAdded', changed: true });
	});

	it('removeWorkgroup takes the workgroup out and keeps the rest of the rule', async () => {
		ctx.sandbox.state.rules.get(intro())![0].associations = {
			USER: [1002],
			WORKGROUP: [201, 202, 203],
			JOB: [9],
		};
		const before = seededRule();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'removeWorkgroup',
			courseId: rl(intro()),
			ruleName: 'Staff early access',
			workgroupId: rl(202),
		});
		expect(readRules(ctx.sandbox.state, intro())).toEqual([
			{ ...before, associations: { USER: [1002], WORKGROUP: [201, 203], JOB: [9] } },
		]);
		expect(out).toMatchObject({ action: 'workgroupRemoved', changed: true });
	});

	it('delete removes the named rule only', async () => {
		await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'addWorkgroup',
			courseId: rl(intro()),
			workgroupId: rl(201),
		});
		const [kept, doomed] = readRules(ctx.sandbox.state, intro());
		expect(doomed.name).toBe(`PAYMENT_INTEGRATION_COURSE_${intro()}`);
		ctx.sandbox.resetStats();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'delete',
			courseId: rl(intro()),
		});
		expect(readRules(ctx.sandbox.state, intro())).toEqual([kept]);
		expect(out).toMatchObject({ action: 'deleted', changed: true, ruleCount: 1 });
		expect(routes(ctx.sandbox)[RULE_SAVE]).toBe(1);

		// Deleting it again changes nothing and sends no save.
		ctx.sandbox.resetStats();
		const [again] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'delete',
			courseId: rl(intro()),
		});
		expect(again).toMatchObject({ action: 'notFound', changed: false });
		expect(routes(ctx.sandbox)).toEqual({ [RULE_READ]: 1 });
	});
});

describe('event', () => {
	const ref = () => ({
		communityId: String(ctx.demo.communityId),
		eventId: String(ctx.demo.eventId),
	});
	const ada = () => ctx.demo.users['ada@example.com'];
	const attendees = () => [...(ctx.sandbox.state.attendance.get(ctx.demo.eventId)?.keys() ?? [])];

	it('attend records the attendance; attending again counts as success', async () => {
		const [out] = await runOk(
			ctx.sandbox,
			{ resource: 'event', operation: 'attend', ...ref(), userId: '={{ $json.userId }}' },
			[{ userId: ada() }],
		);
		expect(out).toMatchObject({ attending: true, alreadyAttending: false, userId: ada() });
		expect(attendees()).toEqual([ada()]);
		const [again] = await runOk(ctx.sandbox, {
			resource: 'event',
			operation: 'attend',
			...ref(),
			userId: String(ada()),
		});
		expect(again).toMatchObject({ attending: true, alreadyAttending: true });
		expect(attendees()).toEqual([ada()]);
	});

	it('cancelAttendance removes the attendance', async () => {
		ctx.sandbox.seed({
			attendance: [
				{ eventId: ctx.demo.eventId, userId: ada() },
				{ eventId: ctx.demo.eventId, userId: ctx.demo.users['alan@example.com'] },
			],
		});
		const [out] = await runOk(ctx.sandbox, {
			resource: 'event',
			operation: 'cancelAttendance',
			...ref(),
			userId: String(ada()),
		});
		expect(out).toMatchObject({ attending: false, userId: ada() });
		expect(attendees()).toEqual([ctx.demo.users['alan@example.com']]);
	});

	it('getAll returns every event of the community through all pages', async () => {
		ctx.sandbox.seed({ generate: { events: 130 } });
		const all = await runOk(ctx.sandbox, {
			resource: 'event',
			operation: 'getAll',
			communityId: String(ctx.demo.communityId),
			returnAll: true,
		});
		expect(all.map((e) => e.id)).toEqual([...ctx.sandbox.state.events.values()].map((e) => e.id));
		expect(all).toHaveLength(131);
		const limited = await runOk(ctx.sandbox, {
			resource: 'event',
			operation: 'getAll',
			communityId: String(ctx.demo.communityId),
			limit: 3,
		});
		expect(limited).toHaveLength(3);
	});

	it('get returns the one event as stored', async () => {
		const [out] = await runOk(ctx.sandbox, { resource: 'event', operation: 'get', ...ref() });
		expect(out).toEqual(JSON.parse(JSON.stringify(ctx.sandbox.state.events.get(ctx.demo.eventId))));
	});

	it('getAttendees lists who attends', async () => {
		ctx.sandbox.seed({ attendance: [{ eventId: ctx.demo.eventId, userId: ada() }] });
		const out = await runOk(ctx.sandbox, {
			resource: 'event',
			operation: 'getAttendees',
			...ref(),
			returnAll: true,
		});
		expect(out).toEqual([{ id: ada(), name: 'Ada Lovelace', email: 'ada@example.com' }]);
	});

	it('reads need EVENT_READ, attendance EVENT_MANAGE: each 403 names the permission the key lacks', async () => {
		ctx.sandbox.seed({
			apiKeys: [
				{ apiKey: 'event-reader-key', permissions: ['EVENT_READ'] },
				{ apiKey: 'event-manager-key', permissions: ['EVENT_MANAGE'] },
			],
		});
		const reader = { credentials: { apiKey: 'event-reader-key' } };
		const manager = { credentials: { apiKey: 'event-manager-key' } };
		const reads = [
			{ resource: 'event', operation: 'get', ...ref() },
			{ resource: 'event', operation: 'getAll', communityId: ref().communityId, returnAll: true },
			{ resource: 'event', operation: 'getAttendees', ...ref(), returnAll: true },
		];
		for (const parameters of reads) {
			expect((await run(ctx.sandbox, parameters, [{}], reader)).error).toBeUndefined();
			const refused = await run(ctx.sandbox, parameters, [{}], manager);
			expect([parameters.operation, refused.error?.message]).toEqual([
				parameters.operation,
				'Knolyx: API key lacks permission EVENT_READ [403]',
			]);
			expect((refused.error as { description?: string }).description).toContain('EVENT_READ');
		}
		const attend = await run(
			ctx.sandbox,
			{ resource: 'event', operation: 'attend', ...ref(), userId: String(ada()) },
			[{}],
			reader,
		);
		expect((attend.error as { description?: string }).description).toContain(
			'lacks the EVENT_MANAGE permission',
		);
		const managed = await run(
			ctx.sandbox,
			{ resource: 'event', operation: 'attend', ...ref(), userId: String(ada()) },
			[{}],
			manager,
		);
		// Issue 55: an answer in words (textWrites' "OK") is confirmed by the attendee list, which
		// a key without EVENT_READ cannot read: not confirmed, though Knolyx applied it.
		if (playing('textWrites'))
			expect(managed.error?.message).toMatch(
				/^Attendance of user \d+ at event \d+ of community \d+ not confirmed \(item 0\): Knolyx answered "OK" \[200\], and the event's attendee list that would show it could not be read \(Knolyx: API key lacks permission EVENT_READ \[403\]\)$/,
			);
		else expect(managed.error).toBeUndefined();
		expect(attendees()).toEqual([ada()]);
	});

	it('register provisions, adds to the community workgroup and marks attendance', async () => {
		const parameters = {
			resource: 'event',
			operation: 'register',
			email: 'guest@example.com',
			firstName: 'Guest',
			lastName: 'Speaker',
			workgroupId: rl(wg(COMMUNITY_WG)),
			...ref(),
			removalDate: '2031-01-01 00:00:00',
		};
		if (bareWrites()) {
			// Provisioning answered without the user's id: attendance cannot be marked, and the
			// membership is not added either.
			const { error } = await run(ctx.sandbox, parameters);
			expect(error?.message).toBe(
				'Knolyx did not return the user ID of guest@example.com when provisioning, so attendance cannot be marked',
			);
			expect(membership(ctx.sandbox, wg(COMMUNITY_WG), 'guest@example.com')).toBeUndefined();
			return;
		}
		const [out] = await runOk(ctx.sandbox, parameters);
		const user = userByEmail(ctx.sandbox, 'guest@example.com');
		expect(user).toMatchObject({ firstName: 'Guest', lastName: 'Speaker', gender: 'NON-BINARY' });
		expect(membership(ctx.sandbox, wg(COMMUNITY_WG), 'guest@example.com')).toMatchObject({
			userId: user?.id,
			removalDate: '2031-01-01 00:00:00',
		});
		expect(attendees()).toEqual([user?.id]);
		expect(out).toMatchObject({
			userId: user?.id,
			created: true,
			attending: true,
			alreadyAttending: false,
		});
	});
});

describe('apiKey', () => {
	const getKey = { resource: 'apiKey', operation: 'get' };

	afterEach(async () => {
		await clearEdges(ctx.sandbox.url);
	});

	it('get outputs the project and the permissions of the demo key as Knolyx gives them, never the key', async () => {
		const out = await runOk(ctx.sandbox, getKey);
		expect(out).toEqual([
			{
				projectId: DEMO.projectId,
				permissions: ctx.sandbox.state.apiKeys.get(DEMO.apiKey)?.permissions,
			},
		]);
		expect(out[0].permissions).toEqual(
			expect.arrayContaining(['USER_PROVISION', 'WEBHOOK_MANAGE', 'BUSINESS_RULE_MANAGE']),
		);
		expect(routes(ctx.sandbox)).toEqual({ 'GET /public/api/v1/key': 1 });
	});

	it('get shows what a key lacks: a key seeded with two permissions, and a key with none (needs no permission itself)', async () => {
		ctx.sandbox.seed({
			apiKeys: [{ apiKey: 'course-reader-key', permissions: ['COURSE_LIST', 'COURSE_GET'] }],
		});
		const [reader] = await runOk(ctx.sandbox, getKey, [{}], {
			credentials: { apiKey: 'course-reader-key' },
		});
		expect(reader).toEqual({
			projectId: DEMO.projectId,
			permissions: ['COURSE_LIST', 'COURSE_GET'],
		});
		const [none] = await runOk(ctx.sandbox, getKey, [{}], {
			credentials: { apiKey: DEMO.noPermissionApiKey },
		});
		expect(none).toEqual({ projectId: DEMO.projectId, permissions: [] });
	});

	it('get never outputs the key, even when Knolyx answers with it in clear', async () => {
		const answer = {
			apiKey: DEMO.apiKey,
			projectId: DEMO.projectId,
			permissions: ['COURSE_LIST'],
			label: `integration key ${DEMO.apiKey}`,
			key: { value: DEMO.apiKey },
		};
		await setEdge(ctx.sandbox.url, {
			path: '/public/api/v1/key',
			answer: { contentType: 'application/json', body: JSON.stringify(answer) },
		});
		const result = await run(ctx.sandbox, getKey);
		expect(result.error).toBeUndefined();
		expect(JSON.stringify(result.items)).not.toContain(DEMO.apiKey);
		expect(result.json).toEqual([
			{
				projectId: DEMO.projectId,
				permissions: ['COURSE_LIST'],
				label: 'integration key [redacted]',
				key: { value: '[redacted]' },
			},
		]);
	});
});

describe('resource locator lists (listSearch)', () => {
	it('courses: every course, all pages, sorted by title, filtered by title or id', async () => {
		ctx.sandbox.seed({ generate: { courses: 150 } });
		const all = await listSearch(ctx.sandbox, 'searchCourses');
		expect(all.results).toHaveLength(153);
		expect(all.results[0]).toEqual({
			name: 'Advanced Automation',
			value: String(course('Advanced Automation')),
		});
		const filtered = await listSearch(ctx.sandbox, 'searchCourses', 'intro');
		expect(filtered.results).toEqual([
			{ name: 'Intro to n8n', value: String(course('Intro to n8n')) },
		]);
		// By id: the course with that id (and any whose title contains the digits).
		expect(
			(await listSearch(ctx.sandbox, 'searchCourses', String(course('Data Literacy')))).results,
		).toContainEqual({
			name: 'Data Literacy',
			value: String(course('Data Literacy')),
		});
	});

	it('workgroups: filtered by name; the picked value works as the locator in list mode', async () => {
		const { results } = await listSearch(ctx.sandbox, 'searchWorkgroups', 'community');
		expect(results).toEqual([{ name: COMMUNITY_WG, value: String(wg(COMMUNITY_WG)) }]);
		await runOk(ctx.sandbox, {
			resource: 'workgroup',
			operation: 'addMember',
			workgroupId: rlList(String(results[0].value)),
			email: 'alan@example.com',
		});
		expect(membership(ctx.sandbox, wg(COMMUNITY_WG), 'alan@example.com')).toBeDefined();
	});

	it('a key without WORKGROUP_LIST gets an error naming the permission', async () => {
		await expect(
			listSearch(ctx.sandbox, 'searchWorkgroups', '', {
				apiKey: 'demo-key-without-workgroup_list',
			}),
		).rejects.toThrow('WORKGROUP_LIST');
	});
});
