/**
 * Consent by effect, walked as a table: every operation of the node × every combination of the
 * agent switches × the operation fixed in the tool node or chosen by the agent through `$fromAI`,
 * each run as an AI agent's tool over real HTTP against the sandbox. An operation runs when every
 * switch its declared effects need is on (actions/effects.ts); otherwise it is refused and the
 * sandbox saw no request and its state is unchanged. A new operation is in the table as soon as
 * it is in the node.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { AGENT_SWITCH_NAMES } from '../../nodes/Knolyx/actions/agent-safety';
import { EFFECTS } from '../../nodes/Knolyx/actions/effects';
import { resources } from '../../nodes/Knolyx/actions/operations';
import { answerText, callAgentTool, expectedSwitches, KnolyxTool } from './agent-tool';
import { fieldValues } from './field-values';
import { changeFor, routes, rulesOf, useSandbox } from './setup';

const ctx = useSandbox();

const RULE = 'Staff early access'; // the demo seed's rule of its first course
const USER = () => ctx.demo.users['ada@example.com'];
let webhookId = 0;
beforeEach(() => {
	// A webhook a person registered, for Webhook → Get, Ping, Delete (the seed has none).
	webhookId = ctx.sandbox.state.nextId('webhook');
	ctx.sandbox.state.webhooks.set(webhookId, {
		id: webhookId,
		name: 'CRM',
		url: 'https://127.0.0.1:9/knolyx',
		securityToken: 'a-token-a-person-set',
		createdAt: new Date().toISOString(),
	});
	// Ada (userId of fieldValues) attends the event, for Event → Cancel Attendance.
	ctx.sandbox.state.attendance.set(ctx.demo.eventId, new Map([[USER(), new Date().toISOString()]]));
});

/** Valid values of every field: any operation the agent may choose runs through. */
function parameters(): INodeParameters {
	const course = Object.values(ctx.demo.courses)[0];
	return {
		...fieldValues(ctx.demo, ctx.sandbox),
		// Ada: a user and a member of the community workgroup, for Workgroup → Add and Remove Member.
		email: 'ada@example.com',
		userId: String(USER()),
		ruleName: RULE,
		webhookId: String(webhookId),
		// What the agent of issue 30 sent: every rule kept, every rule made PUBLIC.
		rules: JSON.stringify(
			rulesOf(ctx.sandbox, course).map((rule) => ({ ...rule, type: 'PUBLIC' })),
		),
		// A change whose list the course still holds, for Course Access Rule → Restore.
		change: changeFor(ctx.sandbox, {
			courseId: course,
			operation: 'replaceAll',
			before: rulesOf(ctx.sandbox, course),
			after: rulesOf(ctx.sandbox, course),
		}),
	};
}

const OPERATIONS: Array<[string, string]> = Object.entries(resources).flatMap(
	([resource, { operations }]) =>
		Object.keys(operations).map((operation): [string, string] => [resource, operation]),
);

/** Every combination of switches that are on, none to all. */
const COMBINATIONS: string[][] = Array.from({ length: 2 ** AGENT_SWITCH_NAMES.length }, (_, bits) =>
	AGENT_SWITCH_NAMES.filter((_name, i) => bits & (1 << i)),
);

const fromAI = (key: string) => `={{ $fromAI('${key}', 'The ${key} to run', 'string') }}`;

// What the n8n under test does with the tool node's parameters (the harness runs its own copy).
const toolDescription = new KnolyxTool().description;
/** n8n keeps a switch only where its `@tool` condition holds; n8n 1.85 does not know it and drops every switch. */
const SWITCHES_KEPT = NodeHelpers.displayParameter(
	{},
	{ displayOptions: { show: { '@tool': [true] } } } as unknown as INodeProperties,
	{ typeVersion: 1 },
	toolDescription,
);
/** n8n 2.x keeps a lone `$fromAI` in a fixed-list parameter (Resource, Operation) for the agent to fill. */
const FROM_AI_CHOOSES =
	NodeHelpers.getNodeParameters(
		new Knolyx().description.properties,
		{ resource: fromAI('resource'), operation: fromAI('operation') },
		true,
		false,
		{ typeVersion: 1 },
		toolDescription,
	)?.resource === fromAI('resource');

const TABLE = OPERATIONS.flatMap(([resource, operation]) =>
	COMBINATIONS.flatMap((on) =>
		(['in the node', 'by the agent ($fromAI)'] as const).map(
			(chosen) => [resource, operation, on, chosen] as const,
		),
	),
);

describe('every operation × every combination of switches, run as an agent tool', () => {
	test('the table covers every operation and every combination', () => {
		expect(OPERATIONS.length).toBeGreaterThan(25);
		expect(COMBINATIONS).toHaveLength(8);
		expect(TABLE).toHaveLength(OPERATIONS.length * 8 * 2);
	});

	test.each(TABLE)(
		'%s → %s, switches on %j, chosen %s',
		async (resource, operation, on, chosen) => {
			const needed = expectedSwitches(resource, operation);
			const consented =
				needed.every((name) => on.includes(name)) && (needed.length === 0 || SWITCHES_KEPT);
			const byAgent = chosen !== 'in the node';
			const runs = consented && (!byAgent || FROM_AI_CHOOSES);
			const tool: INodeParameters = {
				...parameters(),
				resource: byAgent ? fromAI('resource') : resource,
				operation: byAgent ? fromAI('operation') : operation,
				...Object.fromEntries(on.map((name) => [name, true])),
			};
			const args: IDataObject = byAgent ? { resource, operation } : {};
			const before = ctx.sandbox.state.toJSON();

			const answer = await callAgentTool(ctx.sandbox, tool, args, { toolName: 'Knolyx_tool' });

			const text = answerText(answer);
			if (runs) {
				expect(answer.error).toBeUndefined();
				expect(text).not.toMatch(/Refused|a person must switch on/);
				expect(Object.keys(routes(ctx.sandbox)).length).toBeGreaterThan(0);
				return;
			}
			if (consented) {
				// This n8n cannot let the agent choose: the call fails before anything is sent.
				expect(answer.error).toBeDefined();
			} else {
				// The refusal names every switch the operation needs, whichever are on.
				const names = Object.values(EFFECTS).flatMap(({ consent }) =>
					consent && needed.includes(consent.name) ? [consent.displayName] : [],
				);
				expect(text).toMatch(/Refused|a person must switch on/);
				expect(text).toContain(
					`switch on "${names.join('" and "')}" in the n8n node "Knolyx_tool"`,
				);
			}
			expect(routes(ctx.sandbox)).toEqual({});
			expect(ctx.sandbox.state.toJSON()).toEqual(before);
		},
	);
});
