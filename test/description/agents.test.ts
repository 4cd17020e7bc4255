/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * An AI agent's consent comes from one declaration: every operation's `agent.effects`
 * (actions/effects.ts). This walks every operation of the node and checks that
 * - each declares its effects, of known kinds, and one that needs consent says what it risks
 *   and what to use instead (the refusal's text);
 * - the switches are shown, on the tool variant only, for exactly the operations whose effects
 *   need them (n8n's own display check, the one that decides which stored values survive);
 * - docs/agents.md's table gives each operation its declared effects and switches (the
 *   README's AI agents table is written from the declaration: readme-tables.test.ts).
 */
import { readFileSync } from 'node:fs';
import type { INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import {
	AGENT_SWITCH_NAMES,
	consentsNeeded,
	displayConditions,
} from '../../nodes/Knolyx/actions/agent-safety';
import { defineResource } from '../../nodes/Knolyx/actions/common';
import type { AgentDeclaration, Effect } from '../../nodes/Knolyx/actions/effects';
import { EFFECTS } from '../../nodes/Knolyx/actions/effects';
import { resources } from '../../nodes/Knolyx/actions/operations';
import { labelsOf, switchesOf, tableEffects as effectsInTable } from '../../scripts/readme-tables';
import type { KnolyxOperation } from '../../nodes/Knolyx/actions/types';
import { expectedSwitches, KnolyxTool } from '../action/agent-tool';

const node = new Knolyx();
const tool = new KnolyxTool();
const SWITCHES = node.description.properties.filter((p) => AGENT_SWITCH_NAMES.includes(p.name));

/** Every operation, as [resource, operation]. */
const OPERATIONS: Array<[string, string]> = Object.entries(resources).flatMap(
	([resource, { operations }]) =>
		Object.keys(operations).map((operation): [string, string] => [resource, operation]),
);

const effectsOf = (resource: string, operation: string): readonly Effect[] =>
	resources[resource].operations[operation].agent.effects;

/** The switches an operation's declared effects need, from EFFECTS alone. */
const switchesFor = (resource: string, operation: string): string[] =>
	effectsOf(resource, operation).flatMap((effect) => {
		const consent = EFFECTS[effect].consent as { name: string } | null;
		return consent ? [consent.name] : [];
	});

describe('every operation declares what it can do', () => {
	test.each(OPERATIONS)(
		'%s → %s: its effects, of known kinds; a guarded one says its risk and the way out',
		(resource, operation) => {
			const declared = resources[resource].operations[operation].agent;
			expect(declared.effects.length).toBeGreaterThan(0);
			for (const effect of declared.effects) expect(Object.keys(EFFECTS)).toContain(effect);
			expect(new Set(declared.effects).size).toBe(declared.effects.length);
			// "reads only" is alone, or it would not be true.
			if (declared.effects.includes('readOnly')) expect(declared.effects).toEqual(['readOnly']);
			if (switchesFor(resource, operation).length > 0) {
				expect(declared).toEqual(
					expect.objectContaining({
						risk: expect.stringMatching(/^[a-z].{20,}[^.]$/),
						instead: expect.stringMatching(/^\S.{10,}[^.]$/),
					}),
				);
			}
			expect(consentsNeeded(resource, operation).map((c) => c.name)).toEqual(
				AGENT_SWITCH_NAMES.filter((name) => switchesFor(resource, operation).includes(name)),
			);
		},
	);

	test.each(OPERATIONS)(
		'%s → %s: the switches its declaration asks for are the ones the tests expect',
		(resource, operation) => {
			expect(consentsNeeded(resource, operation).map((c) => c.name)).toEqual(
				expectedSwitches(resource, operation),
			);
		},
	);

	test('each resource carries its name in the Resource list', () => {
		const list = node.description.properties.find((p) => p.name === 'resource')?.options as Array<{
			name: string;
			value: string;
		}>;
		expect(Object.fromEntries(Object.entries(resources).map(([key, r]) => [key, r.name]))).toEqual(
			Object.fromEntries(list.map((option) => [option.value, option.name])),
		);
	});
});

describe('the type asks for the declaration (npm run typecheck fails on each line marked)', () => {
	test('no operation without its effects; no guarded effect without its risk and way out', () => {
		const base = {
			option: { name: 'Example', description: 'An example. Needs COURSE_GET.', action: 'Example' },
			readme: { does: 'An example' },
			description: [],
			prepare: () => ({}),
			execute: async () => ({}),
		};
		// @ts-expect-error an operation must declare what it can do
		const undeclared: KnolyxOperation = base;
		// @ts-expect-error a resource takes no operation without its declaration
		const resource = defineResource('example', 'Example', 'get', { get: base });
		// @ts-expect-error an effect that needs consent must say what it risks and what to use instead
		const unexplained: AgentDeclaration = { effects: ['delete'] };
		// @ts-expect-error at least one effect
		const empty: AgentDeclaration = { effects: [] };
		// @ts-expect-error only the effects of actions/effects.ts
		const unknown: AgentDeclaration = { effects: ['sendsEmail'] };
		const declared: KnolyxOperation = { ...base, agent: { effects: ['readOnly'] } };
		const guarded: AgentDeclaration = {
			effects: ['delete', 'grantAccess'],
			risk: 'deletes and grants',
			instead: 'ask a person',
		};
		expect([undeclared, resource, unexplained, empty, unknown, declared, guarded]).toHaveLength(7);
	});
});

/** Whether n8n shows (and so keeps the stored value of) the switch `name` for this operation. */
function shown(name: string, resource: string, operation: string, asTool: boolean): boolean {
	const description = asTool ? tool.description : node.description;
	return SWITCHES.filter((p) => p.name === name).some((property: INodeProperties) =>
		NodeHelpers.displayParameter(
			{ resource, operation },
			property,
			{ typeVersion: 1 },
			description,
		),
	);
}

describe('the switches', () => {
	test('a condition on resource and operation that would admit an operation without the need is split per resource', () => {
		const all: Array<[string, string]> = [
			['rule', 'delete'],
			['rule', 'create'],
			['webhook', 'create'],
			['webhook', 'delete'],
		];
		// Both deletes: one condition admits exactly them.
		expect(
			displayConditions(
				[
					['rule', 'delete'],
					['webhook', 'delete'],
				],
				all,
			),
		).toEqual([{ resource: ['rule', 'webhook'], operation: ['delete'] }]);
		// Rule → Delete and Webhook → Create: one condition would admit Webhook → Delete too.
		expect(
			displayConditions(
				[
					['rule', 'delete'],
					['webhook', 'create'],
				],
				all,
			),
		).toEqual([
			{ resource: ['rule'], operation: ['delete'] },
			{ resource: ['webhook'], operation: ['create'] },
		]);
	});

	test('are one per effect that needs consent, boolean, off by default, never an expression', () => {
		expect([...new Set(SWITCHES.map((p) => p.name))]).toEqual(AGENT_SWITCH_NAMES);
		expect(AGENT_SWITCH_NAMES).toEqual([
			'allowDestructiveToolUse',
			'allowDataFlowToolUse',
			'allowAccessGrantToolUse',
		]);
		for (const property of SWITCHES)
			expect(property).toMatchObject({ type: 'boolean', default: false, noDataExpression: true });
	});

	test.each(OPERATIONS)(
		'%s → %s: the tool shows exactly the switches its effects need; the node shows none',
		(resource, operation) => {
			const onTool = AGENT_SWITCH_NAMES.filter((name) => shown(name, resource, operation, true));
			expect(onTool).toEqual(
				AGENT_SWITCH_NAMES.filter((name) => switchesFor(resource, operation).includes(name)),
			);
			expect(AGENT_SWITCH_NAMES.filter((name) => shown(name, resource, operation, false))).toEqual(
				[],
			);
		},
	);
});

/** An operation's effects, as the README's AI agents table lists them. */
const tableEffects = (resource: string, operation: string): Effect[] =>
	effectsInTable(resources[resource].operations[operation]);

test("docs/agents.md's table of operations gives each operation its declared effects and switches", () => {
	const doc = readFileSync(`${__dirname}/../../docs/agents.md`, 'utf8');
	const section = doc.slice(doc.indexOf('| Resource | Operation | Effects |'));
	const rows = section
		.slice(0, section.indexOf('\n\n'))
		.split('\n')
		.slice(2)
		.map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '')));
	const byName = (name: string) => Object.keys(resources).find((r) => resources[r].name === name);
	const covered: string[] = [];
	for (const [resourceCell, operationCell, effectsCell, unattended] of rows) {
		const pairs = resourceCell.split(', ').flatMap((resourceName) => {
			const resource = byName(resourceName);
			expect([resourceName, resource]).toEqual([resourceName, expect.any(String)]);
			return operationCell.split(', ').flatMap((operationName) => {
				const operation = Object.entries(resources[resource as string].operations).find(
					([, { option }]) => option.name === operationName,
				)?.[0];
				return operation ? [[resource as string, operation] as const] : [];
			});
		});
		expect([resourceCell, operationCell, pairs.length > 0]).toEqual([
			resourceCell,
			operationCell,
			true,
		]);
		for (const [resource, operation] of pairs) {
			const effects = tableEffects(resource, operation);
			const switches = switchesOf(effects);
			expect([resource, operation, effectsCell, unattended]).toEqual([
				resource,
				operation,
				labelsOf(effects),
				switches.length ? `**no**: ${switches.join(' **and** ')}` : 'yes',
			]);
			covered.push(`${resource}.${operation}`);
		}
	}
	expect(covered.sort()).toEqual(OPERATIONS.map(([r, o]) => `${r}.${o}`).sort());
});
