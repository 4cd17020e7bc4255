/**
 * The Knolyx node run as n8n runs an AI agent's tool: the tool variant of the node
 * (`knolyxTool`, as n8n generates it for `usableAsTool`) attached on the ai_tool connection of
 * an agent node that calls it through n8n-core (SupplyDataContext, $fromAI arguments), over
 * real HTTP against the sandbox.
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
import type { Sandbox } from '../../sandbox';
import { createNodeTypes, manualWorkflow, runWorkflow, stepNode } from '../harness';
import { credentialsFor } from './setup';

export const TOOL_TYPE = 'n8n-nodes-knolyx.knolyxTool';

/** The tool variant n8n builds from a `usableAsTool` node (n8n's convertNodeToAiTool, the parts that matter here). */
export class KnolyxTool extends Knolyx {
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
 * agent's ai_tool input; the agent calls it once with `args` and the answer is returned
 * (`result`, or `error` for a tool that threw).
 */
export async function callAgentTool(
	sandbox: Sandbox,
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
		credentials: { knolyxApi: { ...credentialsFor(sandbox) } },
		credentialTypes: [new KnolyxApi()],
	});
	if (result.error) throw result.error;
	const [item] = result.output('Agent');
	return item.json;
}

/**
 * What the agent reads of a refusal: n8n 2.x hands it the error's message and description; n8n-core
 * 1.84 (the floor) returns "Error during node execution: <description>" as the tool's answer.
 */
export const answerText = (answer: IDataObject): string => String(answer.error ?? answer.result);

/**
 * What the tests hold the node to, written out rather than read from its declaration: the
 * switches each guarded operation needs, in the order of the node's switches. Every operation
 * not named runs unattended.
 */
const EXPECTED_SWITCHES: Record<string, string[]> = {
	'rule.addWorkgroup': ['allowAccessGrantToolUse'],
	'rule.upsert': ['allowAccessGrantToolUse'],
	'rule.delete': ['allowDestructiveToolUse'],
	'rule.replaceAll': ['allowDestructiveToolUse', 'allowAccessGrantToolUse'],
	'rule.restore': ['allowDestructiveToolUse', 'allowAccessGrantToolUse'],
	'webhook.create': ['allowDataFlowToolUse'],
	'webhook.delete': ['allowDestructiveToolUse'],
};

export const expectedSwitches = (resource: string, operation: string): string[] =>
	EXPECTED_SWITCHES[`${resource}.${operation}`] ?? [];
