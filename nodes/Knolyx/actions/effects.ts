/**
 * What an operation of the Knolyx node can do, as far as an AI agent's consent goes. Every
 * operation declares its effects (`agent.effects` in its `*.operation.ts`); an effect with a
 * `consent` is one an agent may not cause unattended: run as a tool, the operation is refused
 * unless a person switched on the consent of every such effect it declares
 * (actions/agent-safety.ts). Each consent names the one kind of harm it lets through.
 */
export interface Consent {
	/** The switch's parameter name (kept as it was saved in workflows). */
	name: string;
	displayName: string;
	description: string;
}

export interface EffectDefinition {
	/** What the effect is, in the words of the README's AI agents table. */
	label: string;
	/** The switch a person turns on to let an agent cause it; null: an agent may, unattended. */
	consent: Consent | null;
}

const ONLY_A_PERSON =
	'Off: the tool refuses every call and sends nothing. Only a person can switch it on; an expression is ignored.';

export const EFFECTS = {
	/** Reads Knolyx and changes nothing. */
	readOnly: { label: 'reads only', consent: null },
	/** Creates or changes one person: an account, a workgroup membership, an event attendance. */
	changePerson: { label: 'changes one person', consent: null },
	/** Takes a workgroup's access to a course away, every other rule and field kept. */
	narrowAccess: { label: 'narrows course access', consent: null },
	/** Sends a test event (PING) to webhooks a person registered. */
	pingWebhooks: { label: 'pings registered webhooks', consent: null },
	/** Deletes data on Knolyx: gone for good. */
	delete: {
		label: 'deletes data',
		consent: {
			name: 'allowDestructiveToolUse',
			displayName: 'Allow the Agent to Delete Data',
			description: `Whether an AI agent may run this operation, which deletes data on Knolyx. ${ONLY_A_PERSON}`,
		},
	},
	/** Sends student data to an address no person chose. */
	dataFlow: {
		label: 'sends student data to a new address',
		consent: {
			name: 'allowDataFlowToolUse',
			displayName: 'Allow the Agent to Send Student Data to a New Address',
			description: `Whether an AI agent may register a webhook: from then on Knolyx sends every student event (names and e-mail addresses) to the URL the agent gives. ${ONLY_A_PERSON}`,
		},
	},
	/** Widens who may take a course: a whole workgroup, or everyone (a rule made PUBLIC). */
	grantAccess: {
		label: 'grants course access',
		consent: {
			name: 'allowAccessGrantToolUse',
			displayName: 'Allow the Agent to Grant Course Access',
			description: `Whether an AI agent may run this operation, which can give a whole workgroup, or everyone (a rule made PUBLIC), access to the course. ${ONLY_A_PERSON}`,
		},
	},
} as const satisfies Record<string, EffectDefinition>;

export type Effect = keyof typeof EFFECTS;

/** The effects an agent may cause unattended (no consent). */
export type FreeEffect = {
	[K in Effect]: (typeof EFFECTS)[K]['consent'] extends null ? K : never;
}[Effect];

/**
 * An operation's declaration: its effects, never empty. An operation with an effect that needs
 * consent must also say, for its refusal, what it risks (after its name: "Webhook → Create
 * registers …") and what the agent can use instead; the type does not let it leave them out.
 */
export type AgentDeclaration =
	| { effects: readonly [FreeEffect, ...FreeEffect[]] }
	| { effects: readonly [Effect, ...Effect[]]; risk: string; instead: string };
