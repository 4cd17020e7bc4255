/**
 * Invalid input, for every operation: the node fails with an error that names the field and the
 * item BEFORE any request (the sandbox counts zero requests), and Continue On Fail turns each bad
 * item into an error item paired with its input while the good items still run.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { aRule, expectRefused, membership, rl, run, runOk, userByEmail, useSandbox } from './setup';

const ctx = useSandbox();

// ---------------------------------------------------------------------------------------------
// Bad values, by kind. `undefined` = the item has no such field (the expression gives nothing).

const NOT_TEXT = [{ a: 1 }, [1, 2], true];
const BAD_IDS: unknown[] = [
	undefined,
	'',
	'   ',
	'abc',
	'-1',
	'0',
	'1.5',
	'12abc',
	'1e3',
	'../1',
	'1/../2',
	'1?x=1',
	'1#x',
	'1 2',
	'1%2F2',
	'١٢', // Arabic-Indic digits
	'１２', // full-width digits
	'9223372036854775808', // 2^63: past a long (a 17-digit id is a long, read exactly since issue 55)
	1.5,
	-3,
	...NOT_TEXT,
];
const BAD_EMAILS: unknown[] = [
	undefined,
	'',
	'plain',
	'a@b',
	'@example.com',
	'ana@',
	'a b@example.com',
	'ana@@example.com',
	'ana@example.com/../../webhook',
	'ana@example.com?x=1',
	'ana@example.com#x',
	'ana@exa mple.com',
	'../',
	'ana@exam\nple.com',
	`${'x'.repeat(250)}@example.com`,
	// Empty domain labels, control characters, bidi overrides and other invisible format characters.
	'a@b..com',
	'ana@.example.com',
	'ana@example.com.',
	'an\u0000a@example.com',
	'ana\u0007@example.com',
	'ana@exam\u007fple.com',
	'\u202egro.elpmaxe@ana',
	'ana\u202e@example.com',
	'ana@exa\u2066mple\u2069.com',
	'ana\u200f@example.com',
	'an\u200ba@example.com',
	42,
	...NOT_TEXT,
];
const BAD_NAMES: unknown[] = [undefined, '', '   ', 'x'.repeat(256), ...NOT_TEXT];
const BAD_GENDERS: unknown[] = ['OTHER', 'M', 'nonbinary', 1, ...NOT_TEXT];
const BAD_DATES: unknown[] = [
	'2026-02-30',
	'2026-02-30 10:00:00',
	'2026-13-01T00:00:00Z',
	'2026-12-31T25:00:00Z',
	'2026-12-31T10:00:00+25:00',
	'2026-12-31 24:00:00',
	'tomorrow',
	'31/12/2026',
	'2026-12-31T10:00:00 Europe/Paris',
	true,
	{ a: 1 },
	[2026, 1, 1],
];
const BAD_LIMITS: unknown[] = ['abc', '', 0, -5, { a: 1 }, [1]];
const BAD_WEBHOOK_IDS: unknown[] = [
	undefined,
	'',
	'../1',
	'1?x',
	'1#x',
	'1 2',
	'a/b',
	'é',
	'x'.repeat(65),
	...NOT_TEXT,
];
const BAD_URLS: unknown[] = [
	undefined,
	'',
	'not a url',
	'example.com/hook',
	'ftp://example.com/hook',
	'javascript:alert(1)',
	...NOT_TEXT,
];
const BAD_RULES: unknown[] = [
	'[{',
	'not json',
	'{}',
	'"text"',
	'[1]',
	'[{"type":"PRIVATE"}]',
	'[null]',
	'[]',
	{ name: 'not a list' },
	[{ name: 5 }],
	[],
	5,
];
const BAD_RULE_NAMES: unknown[] = ['x'.repeat(256), 5, ...NOT_TEXT];
const BAD_ID_LISTS: unknown[] = ['1,abc', '1,,2', '1;2', '../1', 'x', [1, 'a'], { a: 1 }];

// ---------------------------------------------------------------------------------------------
// One entry per operation: valid parameters, and for each checked field the bad values.

interface FieldCase {
	param: string;
	/** The field's display name, as the error must name it. */
	field: string;
	good: unknown;
	bad: unknown[];
	/** The field is a resource locator (the value goes in `.value`). */
	locator?: boolean;
}

interface OperationCase {
	resource: string;
	operation: string;
	base: INodeParameters;
	fields: FieldCase[];
}

const user = (): INodeParameters => ({
	email: 'ok@example.com',
	firstName: 'Ok',
	lastName: 'User',
	gender: 'MALE',
});
const userFields: FieldCase[] = [
	{ param: 'email', field: 'Email', good: 'ok@example.com', bad: BAD_EMAILS },
	{ param: 'firstName', field: 'First Name', good: 'Ok', bad: BAD_NAMES },
	{ param: 'lastName', field: 'Last Name', good: 'User', bad: BAD_NAMES },
	{ param: 'gender', field: 'Gender', good: 'FEMALE', bad: BAD_GENDERS },
];
const workgroupField: FieldCase = {
	param: 'workgroupId',
	field: 'Workgroup',
	good: '201',
	bad: BAD_IDS,
	locator: true,
};
const courseField: FieldCase = {
	param: 'courseId',
	field: 'Course',
	good: '101',
	bad: BAD_IDS,
	locator: true,
};
const emailField: FieldCase = {
	param: 'email',
	field: 'Email',
	good: 'ada@example.com',
	bad: BAD_EMAILS,
};
const removalField: FieldCase = {
	param: 'removalDate',
	field: 'Removal Date',
	good: '2030-01-01 00:00:00',
	bad: BAD_DATES,
};
const limitField: FieldCase = { param: 'limit', field: 'Limit', good: 5, bad: BAD_LIMITS };
const communityField: FieldCase = {
	param: 'communityId',
	field: 'Community ID',
	good: '301',
	bad: BAD_IDS,
};
const eventField: FieldCase = { param: 'eventId', field: 'Event', good: '401', bad: BAD_IDS };
const userIdField: FieldCase = { param: 'userId', field: 'User ID', good: '1001', bad: BAD_IDS };
const webhookIdField: FieldCase = {
	param: 'webhookId',
	field: 'Webhook ID',
	good: '1',
	bad: BAD_WEBHOOK_IDS,
};
const ruleNameField: FieldCase = {
	param: 'ruleName',
	field: 'Rule Name',
	good: 'My rule',
	bad: BAD_RULE_NAMES,
};
const event = { communityId: '301', eventId: '401' };
const validRules = JSON.stringify([
	aRule('R', { type: 'PRIVATE', associations: { WORKGROUP: [201] } }),
]);

const OPERATIONS: OperationCase[] = [
	{ resource: 'user', operation: 'provision', base: user(), fields: userFields },
	{
		resource: 'user',
		operation: 'enrol',
		base: { ...user(), workgroupId: rl(201) },
		fields: [...userFields, workgroupField, removalField],
	},
	{
		resource: 'workgroup',
		operation: 'getAll',
		base: { returnAll: false, limit: 5 },
		fields: [limitField],
	},
	{
		resource: 'workgroup',
		operation: 'addMember',
		base: { workgroupId: rl(201), email: 'ada@example.com' },
		fields: [workgroupField, emailField, removalField],
	},
	{
		resource: 'workgroup',
		operation: 'removeMember',
		base: { workgroupId: rl(204), email: 'ada@example.com' },
		fields: [workgroupField, emailField],
	},
	{
		resource: 'course',
		operation: 'getAll',
		base: { returnAll: false, limit: 5 },
		fields: [limitField],
	},
	{ resource: 'course', operation: 'get', base: { courseId: rl(101) }, fields: [courseField] },
	{
		resource: 'webhook',
		operation: 'create',
		base: { name: 'Hook', url: 'https://example.com/hook' },
		fields: [
			{ param: 'name', field: 'Name', good: 'Hook', bad: BAD_NAMES },
			{ param: 'url', field: 'URL', good: 'https://example.com/hook', bad: BAD_URLS },
		],
	},
	{ resource: 'webhook', operation: 'get', base: { webhookId: '1' }, fields: [webhookIdField] },
	{ resource: 'webhook', operation: 'delete', base: { webhookId: '1' }, fields: [webhookIdField] },
	{ resource: 'webhook', operation: 'ping', base: { webhookId: '1' }, fields: [webhookIdField] },
	{ resource: 'rule', operation: 'getAll', base: { courseId: rl(101) }, fields: [courseField] },
	{
		resource: 'rule',
		operation: 'replaceAll',
		base: { courseId: rl(101), rules: validRules },
		fields: [
			courseField,
			{ param: 'rules', field: 'Rules (JSON)', good: validRules, bad: BAD_RULES },
		],
	},
	{
		resource: 'rule',
		operation: 'upsert',
		base: { courseId: rl(101), ruleName: 'R', type: 'PRIVATE' },
		fields: [
			courseField,
			ruleNameField,
			{ param: 'type', field: 'Type', good: 'PUBLIC', bad: ['OPEN', 'private ', 5, ...NOT_TEXT] },
			{ param: 'startDateTime', field: 'Start', good: '2030-01-01 00:00:00', bad: BAD_DATES },
			{ param: 'endDateTime', field: 'End', good: '2030-01-01 00:00:00', bad: BAD_DATES },
			{ param: 'workgroupIds', field: 'Workgroup IDs', good: '201, 202', bad: BAD_ID_LISTS },
		],
	},
	{
		resource: 'rule',
		operation: 'addWorkgroup',
		base: { courseId: rl(101), workgroupId: rl(201) },
		fields: [courseField, workgroupField, ruleNameField],
	},
	{
		resource: 'rule',
		operation: 'removeWorkgroup',
		base: { courseId: rl(101), workgroupId: rl(201) },
		fields: [courseField, workgroupField, ruleNameField],
	},
	{
		resource: 'rule',
		operation: 'delete',
		base: { courseId: rl(101), ruleName: 'Nope' },
		fields: [courseField, ruleNameField],
	},
	{
		resource: 'event',
		operation: 'attend',
		base: { ...event, userId: '1001' },
		fields: [communityField, eventField, userIdField],
	},
	{
		resource: 'event',
		operation: 'cancelAttendance',
		base: { ...event, userId: '1001' },
		fields: [communityField, eventField, userIdField],
	},
	{
		resource: 'event',
		operation: 'getAll',
		base: { communityId: '301', limit: 5 },
		fields: [communityField, limitField],
	},
	{ resource: 'event', operation: 'get', base: { ...event }, fields: [communityField, eventField] },
	{
		resource: 'event',
		operation: 'getAttendees',
		base: { ...event, limit: 5 },
		fields: [communityField, eventField, limitField],
	},
	{
		resource: 'event',
		operation: 'register',
		base: { ...user(), ...event, workgroupId: rl(204) },
		fields: [...userFields, workgroupField, communityField, eventField, removalField],
	},
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The node's message for a bad field: "<Field>: <problem> (item <n>)". */
const namesFieldAndItem = (field: string, item: number) =>
	new RegExp(`^${escape(field)}: .+ \\(item ${item}\\)$`, 's');

function parametersFor(op: OperationCase, field: FieldCase): INodeParameters {
	const expression = '={{ $json.v }}';
	return {
		resource: op.resource,
		operation: op.operation,
		...op.base,
		[field.param]: field.locator ? { __rl: true, mode: 'id', value: expression } : expression,
	};
}

/** An input item carrying the value under test (absent when undefined). */
const item = (v: unknown) => ({ v }) as IDataObject;

const cases = OPERATIONS.flatMap((op) =>
	op.fields.map((field) => [`${op.resource}.${op.operation}`, field.field, op, field] as const),
);

describe.each(cases)('%s: %s', (_name, _field, op, field) => {
	it('a bad item stops the run before any request, naming the field and the item', async () => {
		const result = await run(ctx.sandbox, parametersFor(op, field), [
			item(field.good),
			item(field.bad[0]),
			item(field.good),
		]);
		expect(result.error?.message).toMatch(namesFieldAndItem(field.field, 1));
		expect(result.json).toEqual([]);
		expect(ctx.sandbox.stats().requests).toBe(0);
	});

	it(`each of ${field.bad.length} bad values is refused before any request (Continue On Fail: one paired error item each)`, async () => {
		const items = field.bad.map(item);
		const result = await run(ctx.sandbox, parametersFor(op, field), items, {
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(items.length);
		result.items.forEach((item, index) => {
			expect([index, field.bad[index], item.json.error]).toEqual([
				index,
				field.bad[index],
				expect.stringMatching(namesFieldAndItem(field.field, index)),
			]);
			expect(item.pairedItem).toEqual({ item: index });
		});
		expect(ctx.sandbox.stats().requests).toBe(0);
	});
});

describe('parameters left out entirely', () => {
	// n8n itself refuses to start a node whose required parameters are missing.
	it.each([
		['user', 'provision', 'Email'],
		['workgroup', 'addMember', 'Workgroup'],
		['course', 'get', 'Course'],
		['rule', 'addWorkgroup', 'Course'],
		['event', 'attend', 'Community ID'],
		['webhook', 'get', 'Webhook ID'],
		['webhook', 'create', 'URL'],
	])(
		'%s.%s without parameters: n8n names %s and nothing is sent',
		async (resource, operation, field) => {
			await expect(run(ctx.sandbox, { resource, operation })).rejects.toThrow(
				`Parameter "${field}" is required`,
			);
			expect(ctx.sandbox.stats().requests).toBe(0);
		},
	);

	it('an empty required value given literally is refused by n8n the same way', async () => {
		await expect(
			run(ctx.sandbox, { resource: 'course', operation: 'get', courseId: rl('') }),
		).rejects.toThrow('Parameter "Course" is required');
		expect(ctx.sandbox.stats().requests).toBe(0);
	});
});

describe('checks across fields', () => {
	it('upsert: End must be after Start', async () => {
		await expectRefused(
			ctx.sandbox,
			{
				resource: 'rule',
				operation: 'upsert',
				courseId: rl(101),
				ruleName: 'R',
				startDateTime: '2030-01-02 00:00:00',
				endDateTime: '2030-01-01T23:00:00+02:00',
			},
			namesFieldAndItem('End', 0),
		);
	});

	it('replaceAll: an empty list is refused unless Allow Empty List is on', async () => {
		const params = { resource: 'rule', operation: 'replaceAll', courseId: rl(101), rules: '[]' };
		const refused = await run(ctx.sandbox, { ...params, options: { allowEmpty: false } });
		expect(refused.error?.message).toMatch(namesFieldAndItem('Rules (JSON)', 0));
		expect(refused.error?.message).toContain('Allow Empty List');
		expect(ctx.sandbox.stats().requests).toBe(0);
		expect(ctx.sandbox.state.rules.get(101)).toHaveLength(1);
	});

	it('the error is a NodeOperationError carrying the item index', async () => {
		const result = await run(
			ctx.sandbox,
			{
				resource: 'user',
				operation: 'provision',
				email: '={{ $json.e }}',
				firstName: 'A',
				lastName: 'B',
			},
			[{ e: 'a@example.com' }, { e: 'nope' }],
		);
		expect(result.error).toMatchObject({ name: 'NodeOperationError', context: { itemIndex: 1 } });
	});
});

describe('unusual but valid e-mail addresses stay one path segment', () => {
	it.each([
		"o'brien+tag@example.com",
		'a/b?c#d@example.com',
		'josé@exämple.com',
		'x%2F..%2F@example.com',
	])('%s', async (email) => {
		await runOk(ctx.sandbox, {
			resource: 'user',
			operation: 'enrol',
			email,
			firstName: 'U',
			lastName: 'N',
			workgroupId: rl(201),
		});
		expect(userByEmail(ctx.sandbox, email)).toBeDefined();
		expect(membership(ctx.sandbox, 201, email)).toBeDefined();
		await runOk(ctx.sandbox, {
			resource: 'workgroup',
			operation: 'removeMember',
			email,
			workgroupId: rl(201),
		});
		expect(membership(ctx.sandbox, 201, email)).toBeUndefined();
		expect(Object.keys(ctx.sandbox.stats().byRoute).sort()).toEqual([
			'DELETE /public/api/v1/workgroup/{id}/member/{email}',
			'POST /public/api/v1/user/provision',
			'PUT /public/api/v1/workgroup/{id}/member/{email}',
		]);
	});
});

describe('Continue On Fail with good and bad items', () => {
	it('bad items become error items paired with their input; the good items still run, in order', async () => {
		const items = [
			{ email: 'one@example.com' },
			{ email: 'not-an-email' },
			{ email: 'two@example.com' },
			{ email: '' },
			{ email: 'three@example.com' },
		];
		const result = await run(
			ctx.sandbox,
			{
				resource: 'user',
				operation: 'enrol',
				email: '={{ $json.email }}',
				firstName: 'A',
				lastName: 'B',
				workgroupId: rl(201),
			},
			items,
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			items.map((_, index) => ({ item: index })),
		);
		expect(result.json[0]).toMatchObject({ email: 'one@example.com', created: true });
		expect(result.json[1].error).toMatch(namesFieldAndItem('Email', 1));
		expect(result.json[2]).toMatchObject({ email: 'two@example.com', created: true });
		expect(result.json[3].error).toMatch(namesFieldAndItem('Email', 3));
		expect(result.json[4]).toMatchObject({ email: 'three@example.com', created: true });
		for (const email of ['one@example.com', 'two@example.com', 'three@example.com'])
			expect(membership(ctx.sandbox, 201, email)).toBeDefined();
		expect(ctx.sandbox.state.users.size).toBe(5);
	});

	it('an item the platform refuses (404) becomes an error item naming the id; the others run', async () => {
		const items = [{ wg: 201 }, { wg: 299 }, { wg: 202 }];
		const result = await run(
			ctx.sandbox,
			{
				resource: 'workgroup',
				operation: 'addMember',
				workgroupId: rl('={{ $json.wg }}'),
				email: 'ada@example.com',
			},
			items,
			{ continueOnFail: true },
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.json[1]).toMatchObject({ httpCode: '404' });
		expect(`${String(result.json[1].error)} ${String(result.json[1].description)}`).toContain(
			'workgroup 299',
		);
		expect(membership(ctx.sandbox, 201, 'ada@example.com')).toBeDefined();
		expect(membership(ctx.sandbox, 202, 'ada@example.com')).toBeDefined();
	});

	it('rule edits: a bad item is an error item, the good items of the same course are still merged into one save', async () => {
		const items = [{ wg: 201 }, { wg: 'x' }, { wg: 202 }];
		const result = await run(
			ctx.sandbox,
			{
				resource: 'rule',
				operation: 'addWorkgroup',
				courseId: rl(102),
				workgroupId: rl('={{ $json.wg }}'),
			},
			items,
			{ continueOnFail: true },
		);
		expect(result.json[1].error).toMatch(namesFieldAndItem('Workgroup', 1));
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(ctx.sandbox.state.rules.get(102)?.[0].associations).toEqual({ WORKGROUP: [201, 202] });
		expect(ctx.sandbox.stats().byRoute['POST /public/api/v1/business-rule/course/{id}']).toBe(1);
	});
});

describe('e-mail addresses that look like another', () => {
	it('a bidi override is refused naming the character, shown escaped; nothing is sent', async () => {
		await expectRefused(
			ctx.sandbox,
			{
				resource: 'workgroup',
				operation: 'addMember',
				workgroupId: rl(201),
				email: 'ana\u202e@example.com',
			},
			'Email: "ana<U+202E>@example.com" contains an invisible control or formatting character (U+202E) (item 0)',
		);
	});

	it('an empty domain label is refused', async () => {
		await expectRefused(
			ctx.sandbox,
			{
				resource: 'user',
				operation: 'provision',
				email: 'a@b..com',
				firstName: 'A',
				lastName: 'B',
			},
			'Email: "a@b..com" is not a valid e-mail address (item 0)',
		);
	});
});
