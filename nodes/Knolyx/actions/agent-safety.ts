import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readBoolean } from '../helpers/booleans';
import type { AgentDeclaration, Consent, Effect } from './effects';
import { EFFECTS } from './effects';
import type { KnolyxResource } from './common';
import { operationNamed, resources } from './operations';
import type { KnolyxOperation } from './types';

/**
 * What an AI agent may not do unattended. When the node runs as an agent's tool (an AI Agent
 * node, or an outside agent through the MCP Server Trigger), an operation with an effect that
 * needs consent (actions/effects.ts) is refused, before anything is read or sent, unless a
 * person switched on, in the node itself, the switch of every such effect the operation
 * declares: Replace All, which deletes rules and can grant access, needs both switches. A
 * consent given for one kind of harm never carries over to another kind.
 */

/** The switches, in the order of EFFECTS. */
const CONSENTS: Array<{ effect: Effect; consent: Consent }> = (
	Object.entries(EFFECTS) as Array<[Effect, { consent: Consent | null }]>
).flatMap(([effect, { consent }]) => (consent ? [{ effect, consent }] : []));

/** The names of the switches (parameters the router reads, not an operation). */
export const AGENT_SWITCH_NAMES: string[] = CONSENTS.map(({ consent }) => consent.name);

/**
 * The switches an operation needs before an agent may run it, in the order of CONSENTS. A name
 * that is no operation of the node (an inherited one such as `constructor` included) is an error,
 * never an operation that needs none.
 */
export function consentsNeeded(resource: string, operation: string): Consent[] {
	const found = operationNamed(resource, operation);
	if ('problem' in found) throw new Error(found.problem);
	const declared = found.operation.agent.effects;
	return CONSENTS.filter(({ effect }) => (declared as readonly Effect[]).includes(effect)).map(
		({ consent }) => consent,
	);
}

type Pair = [resource: string, operation: string];

/** Every operation of the node, as [resource, operation]. */
const OPERATIONS: Pair[] = Object.entries(resources).flatMap(([resource, { operations }]) =>
	Object.keys(operations).map((operation): Pair => [resource, operation]),
);

/**
 * Where a switch is shown: on the operations `needs` (of all the node's operations `all`), and
 * on no other. One condition on resource and operation when every pair it admits that exists
 * needs the switch; otherwise one condition per resource (the same parameter name, so the
 * value is one).
 */
export function displayConditions(
	needs: Pair[],
	all: Pair[],
): Array<{ resource: string[]; operation: string[] }> {
	const resourcesOf = [...new Set(needs.map(([resource]) => resource))];
	const operationsOf = [...new Set(needs.map(([, operation]) => operation))];
	const exact = all.every(
		([resource, operation]) =>
			!(resourcesOf.includes(resource) && operationsOf.includes(operation)) ||
			needs.some(([r, o]) => r === resource && o === operation),
	);
	if (exact) return [{ resource: resourcesOf, operation: operationsOf }];
	return resourcesOf.map((resource) => ({
		resource: [resource],
		operation: needs.filter(([r]) => r === resource).map(([, operation]) => operation),
	}));
}

/**
 * The switches a person turns on to let an agent run a guarded operation. Shown only on the
 * tool version of the node (`@tool`), each for exactly the operations whose effects need it,
 * and never filled by an expression (so never by `$fromAI`).
 */
export const agentSafetyProperties: INodeProperties[] = CONSENTS.flatMap(({ consent }) =>
	displayConditions(
		OPERATIONS.filter(([resource, operation]) =>
			consentsNeeded(resource, operation).includes(consent),
		),
		OPERATIONS,
	).map(
		(shown): INodeProperties => ({
			displayName: consent.displayName,
			name: consent.name,
			type: 'boolean',
			noDataExpression: true,
			default: false,
			description: consent.description,
			displayOptions: { show: { '@tool': [true], ...shown } },
		}),
	),
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
 * Whether a person switched `consent` on in the node: its stored value read as every boolean is
 * (helpers/booleans.ts: true or "true"); left out, false, "false" or an expression: off. Any
 * other stored value (1, "yes", "TRUE": a workflow written by hand) fails naming the switch,
 * before anything is sent.
 */
function switchIsOn(ctx: IExecuteFunctions, consent: Consent): boolean {
	const stored = ctx.getNode().parameters[consent.name];
	if (stored === undefined) return false;
	// An expression, as stored ("={{ … }}"; a tool's parameters may hold it without the "=").
	if (typeof stored === 'string' && (stored.startsWith('=') || stored.includes('{{'))) return false;
	return readBoolean(ctx, 0, stored, consent.displayName);
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
	const needed = consentsNeeded(resource, operation);
	if (needed.length === 0 || !runsAsAgentTool(ctx)) return;
	const node = ctx.getNode();
	// The stored values, not evaluated ones: only a switch a person set counts (an expression,
	// `$fromAI` included, never does), read the one way every boolean is; and every effect of the
	// operation the agent actually chose needs its own.
	if (needed.every((consent) => switchIsOn(ctx, consent))) return;
	// consentsNeeded found it, as an own property.
	const found = operationNamed(resource, operation) as {
		resource: KnolyxResource;
		operation: KnolyxOperation<unknown>;
	};
	const resourceName = found.resource.name;
	// An operation with an effect that needs consent declares its risk (AgentDeclaration).
	const { risk, instead } = found.operation.agent as Extract<AgentDeclaration, { risk: string }>;
	const switches = needed.map((consent) => `"${consent.displayName}"`).join(' and ');
	throw new NodeOperationError(
		node,
		`Refused: ${resourceName} → ${found.operation.option.name} ${risk}, and AI agents may not run it. Nothing was sent to Knolyx.`,
		{
			description: `Use ${instead}. To allow this tool anyway, a person must switch on ${switches} in the n8n node "${node.name}".`,
		},
	);
}
