import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Operations that can delete data on Knolyx, and what they delete. When the
 * node runs as an AI agent's tool (an AI Agent node, or an outside agent
 * through the MCP Server Trigger), these are refused unless a person switched
 * on ALLOW_PARAMETER in the node itself.
 */
const DESTRUCTIVE: Record<string, Record<string, { name: string; deletes: string; instead: string }>> = {
	rule: {
		replaceAll: {
			name: 'Course Access Rule → Replace All',
			deletes: 'every access rule of the course that is left out of the list',
			instead: 'Course Access Rule → Add Workgroup, Remove Workgroup or Create or Update, which keep every other rule',
		},
		delete: {
			name: 'Course Access Rule → Delete',
			deletes: 'an access rule of the course (its students lose the access it gives)',
			instead: 'Course Access Rule → Remove Workgroup, which keeps the rule and every other rule',
		},
	},
	webhook: {
		delete: {
			name: 'Webhook → Delete',
			deletes: 'a webhook (its receiver gets no more events)',
			instead: 'nothing: ask a person to delete the webhook',
		},
	},
};

export const ALLOW_PARAMETER = 'allowDestructiveToolUse';

/**
 * The switch a person turns on to let an agent run a destructive operation.
 * Shown only on the tool version of the node (`@tool`), for the destructive
 * operations only, and never filled by an expression (so never by `$fromAI`).
 */
export const agentSafetyProperties: INodeProperties[] = [
	{
		displayName: 'Allow the Agent to Delete Data',
		name: ALLOW_PARAMETER,
		type: 'boolean',
		noDataExpression: true,
		default: false,
		description:
			'Whether an AI agent may run this operation, which deletes data on Knolyx. Off: the tool refuses every call and sends nothing. Only a person can switch it on; an expression is ignored.',
		displayOptions: {
			show: { '@tool': [true], resource: ['rule', 'webhook'], operation: ['replaceAll', 'delete'] },
		},
	},
];

/**
 * Whether the node runs as an AI agent's tool: its type is the tool variant
 * n8n generates for `usableAsTool` nodes (`…knolyxTool`), or the execution
 * context says so (`isToolExecution()` of n8n 2.x: a sub-node on an ai_tool
 * connection; n8n 1.123 has no such method, and the type is enough there).
 * Either is enough.
 */
function runsAsAgentTool(ctx: IExecuteFunctions): boolean {
	if (/Tool$/.test(ctx.getNode().type)) return true;
	const isToolExecution = (ctx as Partial<Pick<IExecuteFunctions, 'isToolExecution'>>).isToolExecution;
	return typeof isToolExecution === 'function' && isToolExecution.call(ctx) === true;
}

/**
 * Throws, before anything is read or sent, when an agent asks for a
 * destructive operation that no person has allowed in the node. The message
 * is written for the model: what was refused, why, what to do instead.
 */
export function refuseUnconfirmedAgentDeletion(ctx: IExecuteFunctions, resource: string, operation: string): void {
	const destructive = DESTRUCTIVE[resource]?.[operation];
	if (!destructive || !runsAsAgentTool(ctx)) return;
	const node = ctx.getNode();
	// The stored value, not an evaluated one: only a switch a person set counts.
	if (node.parameters[ALLOW_PARAMETER] === true) return;
	throw new NodeOperationError(
		node,
		`Refused: ${destructive.name} deletes ${destructive.deletes}, and AI agents may not run it. Nothing was sent to Knolyx.`,
		{
			description: `Use ${destructive.instead}. To allow this tool anyway, a person must switch on "Allow the Agent to Delete Data" in the n8n node "${node.name}".`,
		},
	);
}
