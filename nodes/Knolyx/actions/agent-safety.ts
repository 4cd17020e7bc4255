import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * What an AI agent may not do unattended. When the node runs as an agent's tool (an AI
 * Agent node, or an outside agent through the MCP Server Trigger), the operations below are
 * refused, before anything is read or sent, unless a person switched on their switch in the
 * node itself. Each switch names the one kind of harm it lets through, so a person consents to
 * exactly that, and a consent given for one kind never carries over to another operation.
 */
const SWITCHES = {
	/** Operations that delete data: gone for good. */
	delete: {
		name: 'allowDestructiveToolUse',
		displayName: 'Allow the Agent to Delete Data',
		description:
			'Whether an AI agent may run this operation, which deletes data on Knolyx. Off: the tool refuses every call and sends nothing. Only a person can switch it on; an expression is ignored.',
	},
	/** Operations that send student data to an address no person chose. */
	dataFlow: {
		name: 'allowDataFlowToolUse',
		displayName: 'Allow the Agent to Send Student Data to a New Address',
		description:
			'Whether an AI agent may register a webhook: from then on Knolyx sends every student event (names and e-mail addresses) to the URL the agent gives. Off: the tool refuses every call and sends nothing. Only a person can switch it on; an expression is ignored.',
	},
	/** Operations that widen who may take a course. */
	access: {
		name: 'allowAccessGrantToolUse',
		displayName: 'Allow the Agent to Grant Course Access',
		description:
			'Whether an AI agent may run this operation, which can give a whole workgroup, or everyone (a rule made PUBLIC), access to the course. Off: the tool refuses every call and sends nothing. Only a person can switch it on; an expression is ignored.',
	},
} as const;

type SwitchKind = keyof typeof SWITCHES;

interface Guarded {
	kind: SwitchKind;
	name: string;
	/** What the operation does that an agent may not do alone, after the operation's name. */
	risk: string;
	instead: string;
}

const GUARDED: Record<string, Record<string, Guarded>> = {
	rule: {
		replaceAll: {
			kind: 'delete',
			name: 'Course Access Rule → Replace All',
			risk: 'deletes every access rule of the course that is left out of the list',
			instead:
				'Course Access Rule → Remove Workgroup, which keeps every other rule, or ask a person to change the rules',
		},
		delete: {
			kind: 'delete',
			name: 'Course Access Rule → Delete',
			risk: 'deletes an access rule of the course (its students lose the access it gives)',
			instead: 'Course Access Rule → Remove Workgroup, which keeps the rule and every other rule',
		},
		upsert: {
			kind: 'access',
			name: 'Course Access Rule → Create or Update',
			risk: 'can change who may take the course (a PRIVATE payment rule made PUBLIC gives everyone free access)',
			instead: 'Course Access Rule → Get Many to read the rules, and ask a person to change them',
		},
		addWorkgroup: {
			kind: 'access',
			name: 'Course Access Rule → Add Workgroup',
			risk: 'gives every member of a workgroup, present and future, access to the course',
			instead:
				'User → Enrol in Workgroup or Workgroup → Add Member, which give one person access through a workgroup a person set up',
		},
	},
	webhook: {
		delete: {
			kind: 'delete',
			name: 'Webhook → Delete',
			risk: 'deletes a webhook (its receiver gets no more events)',
			instead: 'nothing: ask a person to delete the webhook',
		},
		create: {
			kind: 'dataFlow',
			name: 'Webhook → Create',
			risk: "registers a URL to which Knolyx then sends every student event, with the students' names and e-mail addresses",
			instead:
				'Webhook → Get Many to see the webhooks a person registered, and ask a person to register a new one',
		},
	},
};

/** The names of the switches (parameters the router reads, not an operation). */
export const AGENT_SWITCH_NAMES: string[] = Object.values(SWITCHES).map((allow) => allow.name);

/** The resources and operations guarded by one switch, for its displayOptions. */
function guardedBy(kind: SwitchKind): { resource: string[]; operation: string[] } {
	const resource = new Set<string>();
	const operation = new Set<string>();
	for (const [resourceName, operations] of Object.entries(GUARDED)) {
		for (const [operationName, guarded] of Object.entries(operations)) {
			if (guarded.kind !== kind) continue;
			resource.add(resourceName);
			operation.add(operationName);
		}
	}
	return { resource: [...resource], operation: [...operation] };
}

/**
 * The switches a person turns on to let an agent run a guarded operation. Shown only on the
 * tool version of the node (`@tool`), each for its own operations only, and never filled by
 * an expression (so never by `$fromAI`).
 */
export const agentSafetyProperties: INodeProperties[] = (Object.keys(SWITCHES) as SwitchKind[]).map(
	(kind) => ({
		displayName: SWITCHES[kind].displayName,
		name: SWITCHES[kind].name,
		type: 'boolean',
		noDataExpression: true,
		default: false,
		description: SWITCHES[kind].description,
		displayOptions: { show: { '@tool': [true], ...guardedBy(kind) } },
	}),
);

/**
 * Whether the node runs as an AI agent's tool: its type is the tool variant
 * n8n generates for `usableAsTool` nodes (`…knolyxTool`), or the execution
 * context says so (`isToolExecution()` of n8n 2.x: a sub-node on an ai_tool
 * connection; n8n 1.123 has no such method, and the type is enough there).
 * Either is enough.
 */
function runsAsAgentTool(ctx: IExecuteFunctions): boolean {
	if (/Tool$/.test(ctx.getNode().type)) return true;
	const isToolExecution = (ctx as Partial<Pick<IExecuteFunctions, 'isToolExecution'>>)
		.isToolExecution;
	return typeof isToolExecution === 'function' && isToolExecution.call(ctx) === true;
}

/**
 * Throws, before anything is read or sent, when an agent asks for a guarded
 * operation that no person has allowed in the node. The message is written
 * for the model: what was refused, why, what to do instead.
 */
export function refuseUnconfirmedAgentUse(
	ctx: IExecuteFunctions,
	resource: string,
	operation: string,
): void {
	const guarded = GUARDED[resource]?.[operation];
	if (!guarded || !runsAsAgentTool(ctx)) return;
	const node = ctx.getNode();
	const allow = SWITCHES[guarded.kind];
	// The stored value, not an evaluated one: only a switch a person set counts.
	if (node.parameters[allow.name] === true) return;
	throw new NodeOperationError(
		node,
		`Refused: ${guarded.name} ${guarded.risk}, and AI agents may not run it. Nothing was sent to Knolyx.`,
		{
			description: `Use ${guarded.instead}. To allow this tool anyway, a person must switch on "${allow.displayName}" in the n8n node "${node.name}".`,
		},
	);
}
