/**
 * Destructive operations offered to an AI agent (Course Access Rule → Replace All and Delete,
 * Webhook → Delete) are refused, with nothing sent, unless a person switched on "Allow the Agent
 * to Delete Data" in the node. Run as n8n runs a tool: the tool variant of the node
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
import { credentialsFor, rl, routes, rulesOf, runOk, useSandbox } from './setup';

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
			if (!tool) throw new Error(`no tool ${call.tool}; tools: ${tools.map((t) => t.name).join(', ')}`);
			try {
				out.push({ json: { tool: call.tool, description: tool.description, result: String(await tool.invoke(call.args)) } });
			} catch (error) {
				out.push({ json: { tool: call.tool, description: tool.description, error: (error as Error).message } });
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
	{ toolName = 'Replace_rules', toolType = TOOL_TYPE }: { toolName?: string; toolType?: string } = {},
): Promise<IDataObject> {
	const agent = manualWorkflow({ steps: [{ name: 'Agent', type: AGENT_TYPE, parameters: { calls: JSON.stringify([{ tool: toolName, args }]) } }] });
	const result = await runWorkflow({
		nodes: [...agent.nodes, stepNode({ name: toolName, type: toolType, parameters }, 'k', [200, 200])],
		connections: { ...agent.connections, [toolName]: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] } },
		nodeTypes: createNodeTypes({ [AGENT_TYPE]: new FakeAgent(), [toolType]: new KnolyxTool() }),
		credentials: { knolyxApi: { ...credentialsFor(ctx.sandbox) } },
		credentialTypes: [new KnolyxApi()],
	});
	if (result.error) throw result.error;
	const [item] = result.output('Agent');
	return item.json;
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

		const answer = await callTool(replaceAllParameters(), { courseId: course, rules: '[{"name":"ONLY_THIS"}]' });

		expect(answer.result).toBeUndefined();
		expect(answer.error).toMatch(/^Refused: Course Access Rule → Replace All deletes every access rule of the course/);
		expect(answer.error).toMatch(/Nothing was sent to Knolyx/);
		// The way out, for the model and for the person reading the execution.
		expect(answer.error).toMatch(/Add Workgroup, Remove Workgroup or Create or Update/);
		expect(answer.error).toMatch(/"Allow the Agent to Delete Data" in the n8n node "Replace_rules"/);
		expect(routes(ctx.sandbox)).toEqual({});
		expect(rulesOf(ctx.sandbox, course)).toEqual(before);
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
		expect(deleteRule.error).toMatch(/^Refused: Course Access Rule → Delete deletes an access rule/);
		expect(deleteRule.error).toMatch(/Use Course Access Rule → Remove Workgroup/);

		const webhook = await runOk(ctx.sandbox, {
			resource: 'webhook',
			operation: 'create',
			name: 'CRM',
			url: 'https://crm.example.com/knolyx',
		});
		ctx.sandbox.resetStats();
		const deleteWebhook = await callTool(
			{ resource: 'webhook', operation: 'delete', webhookId: "={{ $fromAI('webhookId', 'The webhook ID', 'string') }}" },
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
		const byContext = await callTool(replaceAllParameters(), { courseId: course, rules: '[{"name":"X"}]' }, { toolType: 'knolyx' });
		expect(byContext.error).toMatch(/^Refused: Course Access Rule → Replace All/);
		// 2. The tool type run in a main chain (as the AI Agent v3 runs tools): no tool context.
		const byType = await runNode({
			nodeType: new Knolyx(),
			type: TOOL_TYPE,
			parameters: { resource: 'rule', operation: 'replaceAll', courseId: rl(course), rules: '[{"name":"X"}]' },
			items: [{}],
			credentials: { knolyxApi: { ...credentialsFor(ctx.sandbox) } },
			credentialTypes: [new KnolyxApi()],
		});
		expect(byType.error?.message).toMatch(/^Refused: Course Access Rule → Replace All/);
		expect(routes(ctx.sandbox)).toEqual({});
		expect(rulesOf(ctx.sandbox, course)).toEqual(before);
	});

	test('the switch a person turns on lets the agent run it; an expression in the switch does not', async () => {
		const course = ctx.demo.courses['Intro to n8n'];
		const before = rulesOf(ctx.sandbox, course);
		const byExpression = await callTool(
			replaceAllParameters({ allowDestructiveToolUse: "={{ $fromAI('confirm', 'Confirm the deletion', 'boolean') }}" }),
			{ courseId: course, rules: JSON.stringify(before.slice(0, 1)), confirm: true },
		);
		expect(byExpression.error).toMatch(/^Refused:/);
		expect(routes(ctx.sandbox)).toEqual({});

		const allowed = await callTool(replaceAllParameters({ allowDestructiveToolUse: true }), {
			courseId: course,
			rules: JSON.stringify([{ ...before[0], name: 'KEPT_BY_THE_AGENT' }]),
		});
		expect(allowed.error).toBeUndefined();
		expect(JSON.parse(String(allowed.result))).toEqual([expect.objectContaining({ courseId: course, ruleCount: 1 })]);
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
	});

	test('the switch is offered on the tool variant only, for the destructive operations only', () => {
		const property = new Knolyx().description.properties.find((p) => p.name === 'allowDestructiveToolUse');
		expect(property).toMatchObject({ type: 'boolean', default: false, noDataExpression: true });
		expect(property?.displayOptions?.show).toEqual({
			'@tool': [true],
			resource: ['rule', 'webhook'],
			operation: ['replaceAll', 'delete'],
		});
	});
});
