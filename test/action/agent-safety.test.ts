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
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { createNodeTypes, manualWorkflow, runNode, runWorkflow, stepNode } from '../harness';
import { credentialsFor, DEMO, rl, routes, rulesOf, runOk, useSandbox } from './setup';

const ctx = useSandbox();

const TOOL_TYPE = 'n8n-nodes-knolyx.knolyxTool';

/** The tool variant n8n builds from a `usableAsTool` node (n8n's convertNodeToAiTool, the parts that matter here). */
class KnolyxTool extends Knolyx {
	constructor() {
		super();
		this.description = {
			...this.description,
			name: `${this.description.name}Tool`,
			displayName: `${this.description.displayName} Tool`,
			inputs: [],
			outputs: [NodeConnectionTypes.AiTool],
		} as INodeTypeDescription;
		delete this.description.usableAsTool;
	}
}

interface ToolCall {
	tool: string;
	args: IDataObject;
}

/** Plays the agent: takes the tools on its ai_tool input and calls them with `calls`; one item per call. */
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool -- a test stand-in for an agent: it uses tools, it is not one
class FakeAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fake Agent',
		name: 'fakeAgent',
		group: ['transform'],
		version: 1,
		description: 'Test helper: calls its tools',
		defaults: { name: 'Agent' },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools' }],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		type Tool = { name: string; description: string; invoke(args: IDataObject): Promise<unknown> };
		const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Tool[];
		const calls = JSON.parse(this.getNodeParameter('calls', 0) as string) as ToolCall[];
		const out: INodeExecutionData[] = [];
		for (const call of calls) {
			const tool = tools.find((t) => t.name === call.tool);
			if (!tool)
				throw new Error(`no tool ${call.tool}; tools: ${tools.map((t) => t.name).join(', ')}`);
			try {
				out.push({
					json: {
						tool: call.tool,
						description: tool.description,
						result: String(await tool.invoke(call.args)),
					},
				});
			} catch (error) {
				out.push({
					json: { tool: call.tool, description: tool.description, error: (error as Error).message },
				});
			}
		}
		return [out];
	}
}

const AGENT_TYPE = 'test.fakeAgent';

/**
 * Manual Trigger → Agent, with one Knolyx tool node (`parameters`, named `toolName`) on the
 * agent's ai_tool input; the agent calls it once per entry of `calls`.
 */
async function callTool(
	parameters: INodeParameters,
	args: IDataObject,
	{
		toolName = 'Replace_rules',
		toolType = TOOL_TYPE,
	}: { toolName?: string; toolType?: string } = {},
): Promise<IDataObject> {
	const agent = manualWorkflow({
		steps: [
			{
				name: 'Agent',
				type: AGENT_TYPE,
				parameters: { calls: JSON.stringify([{ tool: toolName, args }]) },
			},
		],
	});
	const result = await runWorkflow({
		nodes: [
			...agent.nodes,
			stepNode({ name: toolName, type: toolType, parameters }, 'k', [200, 200]),
		],
		connections: {
			...agent.connections,
			[toolName]: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
		},
		nodeTypes: createNodeTypes({ [AGENT_TYPE]: new FakeAgent(), [toolType]: new KnolyxTool() }),
		credentials: { knolyxApi: { ...credentialsFor(ctx.sandbox) } },
		credentialTypes: [new KnolyxApi()],
	});
	if (result.error) throw result.error;
	const [item] = result.output('Agent');
	return item.json;
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
			/"Allow the Agent to Delete Data" in the n8n node "Replace_rules"/,
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

		const webhook = await runOk(ctx.sandbox, {
			resource: 'webhook',
			operation: 'create',
			name: 'CRM',
			url: 'https://crm.example.com/knolyx',
		});
		ctx.sandbox.resetStats();
		const deleteWebhook = await callTool(
			{
				resource: 'webhook',
				operation: 'delete',
				webhookId: "={{ $fromAI('webhookId', 'The webhook ID', 'string') }}",
			},
			{ webhookId: String(webhook[0].id) },
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

		const allowed = await callTool(replaceAllParameters({ allowDestructiveToolUse: true }), {
			courseId: course,
			rules: JSON.stringify([{ ...before[0], name: 'KEPT_BY_THE_AGENT' }]),
		});
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
				{ '@tool': [true], resource: ['rule', 'webhook'], operation: ['replaceAll', 'delete'] },
			],
			[
				'allowDataFlowToolUse',
				'Allow the Agent to Send Student Data to a New Address',
				{ '@tool': [true], resource: ['webhook'], operation: ['create'] },
			],
			[
				'allowAccessGrantToolUse',
				'Allow the Agent to Grant Course Access',
				{ '@tool': [true], resource: ['rule'], operation: ['upsert', 'addWorkgroup'] },
			],
		]);
		for (const property of switches)
			expect(property).toMatchObject({ type: 'boolean', default: false, noDataExpression: true });
	});
});

const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

/**
 * What the agent reads of a refusal: n8n 2.x hands it the error's message and description; n8n-core
 * 1.84 (the floor) returns "Error during node execution: <description>" as the tool's answer.
 * Either way it names the switch; the message itself is checked where the node throws (below).
 */
const answerText = (answer: IDataObject): string => String(answer.error ?? answer.result);

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
