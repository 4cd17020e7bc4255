/**
 * Operations an AI agent may not run unattended are refused, with nothing sent, unless a person
 * switched on their switch in the node: deletes (Course Access Rule → Replace All and Delete,
 * Webhook → Delete: "Allow the Agent to Delete Data"), a new data flow (Webhook → Create: "Allow
 * the Agent to Send Student Data to a New Address") and wider course access (Course Access Rule →
 * Create or Update and Add Workgroup: "Allow the Agent to Grant Course Access"). Run as n8n runs a tool: the tool variant of the node
 * (`knolyxTool`, as n8n generates it for `usableAsTool`) attached on the ai_tool connection of
 * an agent node that calls it through n8n-core (SupplyDataContext, $fromAI arguments), and the
 * same node type in a main chain (how the AI Agent v3 runs tools as engine requests).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { runNode } from '../harness';
import { answerText, callAgentTool, TOOL_TYPE } from './agent-tool';
import { credentialsFor, DEMO, rl, routes, rulesOf, runOk, useSandbox } from './setup';

const ctx = useSandbox();

/** The agent's tool call, against this file's sandbox. */
const callTool = (
	parameters: INodeParameters,
	args: IDataObject,
	options?: Parameters<typeof callAgentTool>[3],
): Promise<IDataObject> => callAgentTool(ctx.sandbox, parameters, args, options);

/** A webhook a person registered (through the node); its id. The request counters start again at zero. */
async function registerWebhook(): Promise<string> {
	const [webhook] = await runOk(ctx.sandbox, {
		resource: 'webhook',
		operation: 'create',
		name: 'CRM',
		url: 'https://crm.example.com/knolyx',
	});
	ctx.sandbox.resetStats();
	return String(webhook.id);
}

/** Nothing reached Knolyx: no request at all, and the course's rules are exactly `before`. */
function expectNothingSent(course: number, before: Array<Record<string, unknown>>): void {
	expect(routes(ctx.sandbox)).toEqual({});
	expect(rulesOf(ctx.sandbox, course)).toEqual(before);
}

const replaceAllParameters = (over: INodeParameters = {}): INodeParameters => ({
	resource: 'rule',
	operation: 'replaceAll',
	courseId: rl("={{ $fromAI('courseId', 'The course ID', 'number') }}"),
	rules: "={{ $fromAI('rules', 'The complete list of rules as JSON', 'string') }}",
	descriptionType: 'manual',
	toolDescription: 'Replace every access rule of a course',
	...over,
});

describe('destructive operations offered to an AI agent', () => {
	test('Replace All called by an agent is refused with a clear text; nothing is sent, the rules stay', async () => {
		const course = ctx.demo.courses['Intro to n8n'];
		const before = rulesOf(ctx.sandbox, course);
		expect(before.length).toBeGreaterThan(0);

		const answer = await callTool(replaceAllParameters(), {
			courseId: course,
			rules: '[{"name":"ONLY_THIS"}]',
		});

		expect(answer.result).toBeUndefined();
		expect(answer.error).toMatch(
			/^Refused: Course Access Rule → Replace All deletes every access rule of the course/,
		);
		expect(answer.error).toMatch(/Nothing was sent to Knolyx/);
		// The way out, for the model and for the person reading the execution: never another guarded operation.
		expect(answer.error).toMatch(
			/Use Course Access Rule → Remove Workgroup, which keeps every other rule, or ask a person/,
		);
		expect(answer.error).toMatch(
			/switch on "Allow the Agent to Delete Data" and "Allow the Agent to Grant Course Access" in the n8n node "Replace_rules"/,
		);
		expectNothingSent(course, before);
	});

	test('Delete rule and Delete webhook called by an agent are refused; nothing is sent', async () => {
		const course = ctx.demo.courses['Intro to n8n'];
		const rules = rulesOf(ctx.sandbox, course);
		const deleteRule = await callTool(
			{
				resource: 'rule',
				operation: 'delete',
				courseId: rl("={{ $fromAI('courseId', 'The course ID', 'number') }}"),
				ruleName: "={{ $fromAI('ruleName', 'The rule name', 'string') }}",
			},
			{ courseId: course, ruleName: String(rules[0].name) },
			{ toolName: 'Delete_rule' },
		);
		expect(deleteRule.error).toMatch(
			/^Refused: Course Access Rule → Delete deletes an access rule/,
		);
		expect(deleteRule.error).toMatch(/Use Course Access Rule → Remove Workgroup/);

		const webhookId = await registerWebhook();
		const deleteWebhook = await callTool(
			{
				resource: 'webhook',
				operation: 'delete',
				webhookId: "={{ $fromAI('webhookId', 'The webhook ID', 'string') }}",
			},
			{ webhookId },
			{ toolName: 'Delete_webhook' },
		);
		expect(deleteWebhook.error).toMatch(/^Refused: Webhook → Delete deletes a webhook/);
		expect(routes(ctx.sandbox)).toEqual({});
		expect(rulesOf(ctx.sandbox, course)).toEqual(rules);
		expect(ctx.sandbox.state.toJSON().webhooks).toHaveLength(1);
	});

	test('the refusal also holds when only one sign of a tool run is there', async () => {
		const course = ctx.demo.courses['Intro to n8n'];
		const before = rulesOf(ctx.sandbox, course);
		// 1. The execution context says "tool" (sub-node on ai_tool), the type does not end with Tool.
		const byContext = await callTool(
			replaceAllParameters(),
			{ courseId: course, rules: '[{"name":"X"}]' },
			{ toolType: 'knolyx' },
		);
		expect(byContext.error).toMatch(/^Refused: Course Access Rule → Replace All/);
		// 2. The tool type run in a main chain (as the AI Agent v3 runs tools): no tool context.
		const byType = await runNode({
			nodeType: new Knolyx(),
			type: TOOL_TYPE,
			parameters: {
				resource: 'rule',
				operation: 'replaceAll',
				courseId: rl(course),
				rules: '[{"name":"X"}]',
			},
			items: [{}],
			credentials: { knolyxApi: { ...credentialsFor(ctx.sandbox) } },
			credentialTypes: [new KnolyxApi()],
		});
		expect(byType.error?.message).toMatch(/^Refused: Course Access Rule → Replace All/);
		expectNothingSent(course, before);
	});

	test('the switch a person turns on lets the agent run it; an expression in the switch does not', async () => {
		const course = ctx.demo.courses['Intro to n8n'];
		const before = rulesOf(ctx.sandbox, course);
		const byExpression = await callTool(
			replaceAllParameters({
				allowDestructiveToolUse: "={{ $fromAI('confirm', 'Confirm the deletion', 'boolean') }}",
			}),
			{ courseId: course, rules: JSON.stringify(before.slice(0, 1)), confirm: true },
		);
		expect(byExpression.error).toMatch(/^Refused:/);
		expect(routes(ctx.sandbox)).toEqual({});

		const allowed = await callTool(
			replaceAllParameters({ allowDestructiveToolUse: true, allowAccessGrantToolUse: true }),
			{
				courseId: course,
				rules: JSON.stringify([{ ...before[0], name: 'KEPT_BY_THE_AGENT' }]),
			},
		);
		expect(allowed.error).toBeUndefined();
		expect(JSON.parse(String(allowed.result))).toEqual([
			expect.objectContaining({ courseId: course, ruleCount: 1 }),
		]);
		expect(rulesOf(ctx.sandbox, course).map((rule) => rule.name)).toEqual(['KEPT_BY_THE_AGENT']);
	});

	test('the same operations in a normal workflow node are not affected', async () => {
		const course = ctx.demo.courses['Intro to n8n'];
		const [first] = rulesOf(ctx.sandbox, course);
		const [saved] = await runOk(ctx.sandbox, {
			resource: 'rule',
			operation: 'replaceAll',
			courseId: rl(course),
			rules: JSON.stringify([first]),
		});
		expect(saved).toMatchObject({ courseId: course, ruleCount: 1 });
	});

	test('safe operations run as tools, with the arguments the agent sends', async () => {
		const course = ctx.demo.courses['Intro to n8n'];
		const answer = await callTool(
			{
				resource: 'rule',
				operation: 'getAll',
				courseId: rl("={{ $fromAI('courseId', 'The course ID', 'number') }}"),
			},
			{ courseId: course },
			{ toolName: 'Get_rules' },
		);
		expect(answer.error).toBeUndefined();
		expect(JSON.parse(String(answer.result))).toEqual(rulesOf(ctx.sandbox, course));

		// Course Access Rule → Get, a read too, needs no switch.
		const [rule] = rulesOf(ctx.sandbox, course);
		const one = await callTool(
			{
				resource: 'rule',
				operation: 'get',
				courseId: rl(course),
				ruleName: "={{ $fromAI('ruleName', 'The rule name', 'string') }}",
			},
			{ ruleName: String(rule.name) },
			{ toolName: 'Get_rule' },
		);
		expect(one.error).toBeUndefined();
		expect(answerText(one)).toContain(String(rule.name));
		expect(routes(ctx.sandbox)['POST /public/api/v1/business-rule/course/{id}']).toBeUndefined();
	});

	test('each switch is offered on the tool variant only, for its own operations only', () => {
		const switches = new Knolyx().description.properties.filter((p) =>
			/^allow\w+ToolUse$/.test(p.name),
		);
		expect(switches.map((p) => [p.name, p.displayName, p.displayOptions?.show])).toEqual([
			[
				'allowDestructiveToolUse',
				'Allow the Agent to Delete Data',
				{
					'@tool': [true],
					resource: ['rule', 'webhook'],
					operation: ['delete', 'replaceAll', 'restore'],
				},
			],
			[
				'allowDataFlowToolUse',
				'Allow the Agent to Send Student Data to a New Address',
				{ '@tool': [true], resource: ['webhook'], operation: ['create'] },
			],
			[
				'allowAccessGrantToolUse',
				'Allow the Agent to Grant Course Access',
				{
					'@tool': [true],
					resource: ['rule'],
					operation: ['addWorkgroup', 'upsert', 'replaceAll', 'restore'],
				},
			],
		]);
		for (const property of switches)
			expect(property).toMatchObject({ type: 'boolean', default: false, noDataExpression: true });
	});
});

const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

/** Every rule of the course kept, every one made PUBLIC: nothing deleted, everyone gets the course. */
const allPublic = (rules: Array<Record<string, unknown>>): string =>
	JSON.stringify(rules.map((rule) => ({ ...rule, type: 'PUBLIC' })));

describe('Replace All can delete and grant: it needs both switches (issue 30)', () => {
	test.each([
		['only "Allow the Agent to Delete Data"', { allowDestructiveToolUse: true }],
		['only "Allow the Agent to Grant Course Access"', { allowAccessGrantToolUse: true }],
	])(
		'with %s on, an agent that makes every rule PUBLIC is refused; nothing is sent, the rules stay',
		async (_switch, switches) => {
			const course = ctx.demo.courses['Intro to n8n'];
			const before = rulesOf(ctx.sandbox, course);
			expect(before.some((rule) => rule.type === 'PRIVATE')).toBe(true);
			const answer = await callTool(replaceAllParameters(switches), {
				courseId: course,
				rules: allPublic(before),
			});
			expect(answerText(answer)).toMatch(
				/switch on "Allow the Agent to Delete Data" and "Allow the Agent to Grant Course Access" in the n8n node "Replace_rules"/,
			);
			expectNothingSent(course, before);
		},
	);

	// The name holds "the switch a person turns on lets the agent run it": scripts/floor.mjs leaves
	// it out on n8n 1.85, which drops the switches (and knows no $fromAI in a fixed list).
	test('resource and operation chosen through $fromAI: the switch a person turns on lets the agent run it only for what it covers; the delete switch set for Webhook → Delete does not let the agent run Replace All', async () => {
		const course = ctx.demo.courses['Intro to n8n'];
		const before = rulesOf(ctx.sandbox, course);
		const webhookId = await registerWebhook();
		// A person built a tool to delete webhooks and consented to deletes, nothing else.
		const tool: INodeParameters = {
			resource: fromAI('resource', 'The resource'),
			operation: fromAI('operation', 'The operation'),
			webhookId: fromAI('webhookId', 'The webhook ID'),
			courseId: rl(fromAI('courseId', 'The course ID', 'number')),
			rules: fromAI('rules', 'The rules'),
			allowDestructiveToolUse: true,
		};
		const replace = await callTool(
			tool,
			{
				resource: 'rule',
				operation: 'replaceAll',
				webhookId: '',
				courseId: course,
				rules: allPublic(before),
			},
			{ toolName: 'Delete_webhook' },
		);
		expect(answerText(replace)).toMatch(
			/switch on "Allow the Agent to Delete Data" and "Allow the Agent to Grant Course Access" in the n8n node "Delete_webhook"/,
		);
		expectNothingSent(course, before);

		// What the person consented to still runs.
		const remove = await callTool(
			tool,
			{
				resource: 'webhook',
				operation: 'delete',
				webhookId,
				courseId: course,
				rules: '[]',
			},
			{ toolName: 'Delete_webhook' },
		);
		expect(remove.error).toBeUndefined();
		expect(ctx.sandbox.state.webhooks.size).toBe(0);
		expect(rulesOf(ctx.sandbox, course)).toEqual(before);
	});
});

describe('an agent cannot open a data flow or widen course access on its own', () => {
	test.each([
		[
			'Webhook → Create',
			{
				resource: 'webhook',
				operation: 'create',
				name: 'Backup',
				url: 'https://collector.example.net/students',
			},
			"Refused: Webhook → Create registers a URL to which Knolyx then sends every student event, with the students' names and e-mail addresses, and AI agents may not run it. Nothing was sent to Knolyx.",
		],
		[
			'Course Access Rule → Create or Update',
			{
				resource: 'rule',
				operation: 'upsert',
				courseId: rl(101),
				ruleName: 'PAYMENT',
				type: 'PUBLIC',
			},
			'Refused: Course Access Rule → Create or Update can change who may take the course (a PRIVATE payment rule made PUBLIC gives everyone free access), and AI agents may not run it. Nothing was sent to Knolyx.',
		],
		[
			'Course Access Rule → Add Workgroup',
			{
				resource: 'rule',
				operation: 'addWorkgroup',
				courseId: rl(101),
				ruleName: 'PAYMENT',
				workgroupId: rl(204),
			},
			'Refused: Course Access Rule → Add Workgroup gives every member of a workgroup, present and future, access to the course, and AI agents may not run it. Nothing was sent to Knolyx.',
		],
	] as [string, INodeParameters, string][])(
		'%s as a tool says what it refused and why, and sends nothing',
		async (_operation, parameters, message) => {
			const run = await runNode({
				nodeType: new Knolyx(),
				type: TOOL_TYPE,
				parameters,
				items: [{}],
				credentials: { knolyxApi: { ...credentialsFor(ctx.sandbox) } },
				credentialTypes: [new KnolyxApi()],
			});
			expect(run.error?.message).toBe(message);
			expect(routes(ctx.sandbox)).toEqual({});
		},
	);

	const webhookCreate = (over: INodeParameters = {}): INodeParameters => ({
		resource: 'webhook',
		operation: 'create',
		name: fromAI('name', 'A name for the webhook'),
		url: fromAI('url', 'The URL that receives the events'),
		...over,
	});

	test('Webhook → Create called by an agent is refused: no webhook, nothing sent, no student data leaves', async () => {
		const answer = await callTool(
			webhookCreate(),
			{ name: 'Backup', url: 'https://collector.example.net/students' },
			{ toolName: 'Create_webhook' },
		);
		expect(answerText(answer)).toMatch(
			/"Allow the Agent to Send Student Data to a New Address" in the n8n node "Create_webhook"/,
		);
		expect(routes(ctx.sandbox)).toEqual({});
		expect(ctx.sandbox.state.webhooks.size).toBe(0);
		// A student event afterwards goes nowhere.
		ctx.sandbox.activity('course-started', {
			email: 'ada@example.com',
			courseId: ctx.demo.courses['Intro to n8n'],
		});
		expect(ctx.sandbox.deliveries()).toEqual([]);
	});

	test('Course Access Rule → Create or Update called by an agent is refused: a PRIVATE payment rule stays PRIVATE', async () => {
		const course = ctx.demo.courses['Intro to n8n'];
		const before = rulesOf(ctx.sandbox, course);
		const rule = before.find((r) => r.type === 'PRIVATE');
		expect(rule).toBeDefined();
		const answer = await callTool(
			{
				resource: 'rule',
				operation: 'upsert',
				courseId: rl(fromAI('courseId', 'The course ID', 'number')),
				ruleName: fromAI('ruleName', 'The rule name'),
				type: fromAI('type', 'PRIVATE or PUBLIC'),
			},
			{ courseId: course, ruleName: String(rule!.name), type: 'PUBLIC' },
			{ toolName: 'Update_rule' },
		);
		expect(answerText(answer)).toMatch(
			/Course Access Rule → Get Many to read the rules.*"Allow the Agent to Grant Course Access" in the n8n node "Update_rule"/,
		);
		expectNothingSent(course, before);
	});

	test('Course Access Rule → Add Workgroup called by an agent is refused: no workgroup gains the course', async () => {
		const course = ctx.demo.courses['Intro to n8n'];
		const before = rulesOf(ctx.sandbox, course);
		const answer = await callTool(
			{
				resource: 'rule',
				operation: 'addWorkgroup',
				courseId: rl(fromAI('courseId', 'The course ID', 'number')),
				ruleName: fromAI('ruleName', 'The rule name'),
				workgroupId: rl(fromAI('workgroupId', 'The workgroup ID', 'number')),
			},
			{ courseId: course, ruleName: String(before[0].name), workgroupId: 204 },
			{ toolName: 'Add_workgroup' },
		);
		expect(answerText(answer)).toMatch(
			/Use User → Enrol in Workgroup or Workgroup → Add Member.*"Allow the Agent to Grant Course Access" in the n8n node "Add_workgroup"/,
		);
		expectNothingSent(course, before);
	});

	test('another kind of switch, or an expression in the switch, does not let the agent open a data flow', async () => {
		const url = 'https://crm.example.com/knolyx';
		// The delete switch is no consent to a data flow.
		const otherSwitch = await callTool(
			webhookCreate({ allowDestructiveToolUse: true, allowAccessGrantToolUse: true }),
			{ name: 'CRM', url },
			{ toolName: 'Create_webhook' },
		);
		expect(answerText(otherSwitch)).toMatch(
			/switch on "Allow the Agent to Send Student Data to a New Address"/,
		);
		const byExpression = await callTool(
			webhookCreate({ allowDataFlowToolUse: fromAI('allow', 'Allow it', 'boolean') }),
			{ name: 'CRM', url, allow: true },
			{ toolName: 'Create_webhook' },
		);
		expect(answerText(byExpression)).toMatch(
			/switch on "Allow the Agent to Send Student Data to a New Address"/,
		);
		expect(routes(ctx.sandbox)).toEqual({});
		expect(ctx.sandbox.state.webhooks.size).toBe(0);
	});

	// n8n 1.85 (the floor) does not know the `@tool` display condition: it drops the switches, so
	// there an agent is always refused (scripts/floor.mjs leaves this test out by its name).
	test('the switch a person turns on lets the agent run it, for its own kind: a webhook, a workgroup on a rule', async () => {
		const url = 'https://crm.example.com/knolyx';
		const allowed = await callTool(
			webhookCreate({ allowDataFlowToolUse: true }),
			{ name: 'CRM', url },
			{ toolName: 'Create_webhook' },
		);
		expect(allowed.error).toBeUndefined();
		expect([...ctx.sandbox.state.webhooks.values()].map((w) => w.url)).toEqual([url]);

		const course = ctx.demo.courses['Intro to n8n'];
		const [rule] = rulesOf(ctx.sandbox, course);
		const granted = await callTool(
			{
				resource: 'rule',
				operation: 'addWorkgroup',
				courseId: rl(course),
				ruleName: String(rule.name),
				workgroupId: rl(fromAI('workgroupId', 'The workgroup ID', 'number')),
				allowAccessGrantToolUse: true,
			},
			{ workgroupId: 204 },
			{ toolName: 'Add_workgroup' },
		);
		expect(granted.error).toBeUndefined();
		expect(JSON.stringify(rulesOf(ctx.sandbox, course).find((r) => r.name === rule.name))).toMatch(
			/204/,
		);
	});

	test('what an agent may do unattended still runs as a tool: remove a workgroup, add a member, ping', async () => {
		const course = ctx.demo.courses['Intro to n8n'];
		const [rule] = rulesOf(ctx.sandbox, course);
		const calls: [INodeParameters, IDataObject][] = [
			[
				{
					resource: 'rule',
					operation: 'removeWorkgroup',
					courseId: rl(course),
					ruleName: String(rule.name),
					workgroupId: rl(fromAI('workgroupId', 'The workgroup ID', 'number')),
				},
				{ workgroupId: 201 },
			],
			[
				{
					resource: 'workgroup',
					operation: 'addMember',
					workgroupId: rl(201),
					email: fromAI('email', 'The e-mail'),
				},
				{ email: 'ada@example.com' },
			],
			[{ resource: 'webhook', operation: 'pingAll' }, {}],
		];
		for (const [parameters, args] of calls) {
			const answer = await callTool(parameters, args, {
				toolName: `Tool_${String(parameters.operation)}`,
			});
			expect([parameters.operation, answer.error]).toEqual([parameters.operation, undefined]);
		}
	});

	test('API Key → Get, a read, runs as a tool: the agent sees the permissions, never the key', async () => {
		const answer = await callTool(
			{ resource: 'apiKey', operation: 'get' },
			{},
			{ toolName: 'Get_key_permissions' },
		);
		expect(answer.error).toBeUndefined();
		expect(answerText(answer)).toContain('WEBHOOK_MANAGE');
		expect(JSON.stringify(answer)).not.toContain(DEMO.apiKey);
		expect(routes(ctx.sandbox)).toEqual({ 'GET /public/api/v1/key': 1 });
	});
});
