/**
 * A resource or operation name from outside (a node parameter, an imported workflow, an AI agent's
 * `$fromAI` argument) is looked up among the node's own resources and operations only: a name
 * every JavaScript object inherits (`constructor`, `__proto__`, `toString`, …) is refused in the
 * node's words before anything is read or sent, never run into a TypeError, and never passes the
 * agent's consent check as an operation that needs no switch. (Event type names of the trigger:
 * test/trigger.)
 */
import type { INodeParameters } from 'n8n-workflow';

import { consentsNeeded } from '../../nodes/Knolyx/actions/agent-safety';
import { resources } from '../../nodes/Knolyx/actions/operations';
import { answerText, callAgentTool } from './agent-tool';
import { run, useSandbox } from './setup';

const ctx = useSandbox();

/** Names every plain object answers to, and a few more an attacker would try. */
const HOSTILE = [
	'constructor',
	'__proto__',
	'toString',
	'hasOwnProperty',
	'valueOf',
	'prototype',
	'isPrototypeOf',
	'propertyIsEnumerable',
	'toLocaleString',
	'__defineGetter__',
	'__lookupGetter__',
];

const operationRefused = (operation: string, resource: string) =>
	`The operation "${operation}" of "${resource}" is not supported`;
const resourceRefused = (resource: string) => `The resource "${resource}" is not supported`;
/** The description: what the name is not, and what there is (the resource's operations). */
const operationNone = (operation: string, resource: string) =>
	`"${operation}" is none of the operations of "${resource}": ${Object.keys(resources[resource].operations).join(', ')}.`;
/**
 * What the agent reads: n8n 2.x gives it the message and the description, n8n-core 1.84 (the
 * floor) "Error during node execution: <description>".
 */
const refusedToAgent = (text: string, message: string, description: string) =>
	expect([message, description].some((part) => text.includes(part))).toBe(true);

describe('a hostile operation name as a node parameter', () => {
	it.each(HOSTILE)('"%s" is refused in the node’s words, nothing sent', async (name) => {
		for (const resource of ['course', 'rule', 'webhook']) {
			const result = await run(ctx.sandbox, { resource, operation: name });
			expect(result.error?.message).toBe(operationRefused(name, resource));
			expect((result.error as { description?: string }).description).toBe(
				operationNone(name, resource),
			);
		}
		expect(ctx.sandbox.stats().requests).toBe(0);
	});
});

describe('a hostile resource name as a node parameter', () => {
	it.each(HOSTILE)('"%s" is refused in the node’s words, nothing sent', async (name) => {
		for (const operation of ['get', 'getAll', name]) {
			const result = await run(ctx.sandbox, { resource: name, operation });
			expect(result.error?.message).toBe(resourceRefused(name));
		}
		expect(ctx.sandbox.stats().requests).toBe(0);
	});
});

describe('a hostile name given by an AI agent', () => {
	const tool: INodeParameters = {
		resource: "={{ $fromAI('resource', 'The resource', 'string') }}",
		operation: "={{ $fromAI('operation', 'The operation', 'string') }}",
		descriptionType: 'manual',
		toolDescription: 'Knolyx',
	};

	it.each(HOSTILE)('operation "%s" is refused, nothing sent', async (name) => {
		const answer = await callAgentTool(
			ctx.sandbox,
			tool,
			{ resource: 'rule', operation: name },
			{ toolName: 'Knolyx' },
		);
		refusedToAgent(answerText(answer), operationRefused(name, 'rule'), operationNone(name, 'rule'));
		expect(ctx.sandbox.stats().requests).toBe(0);
	});

	it.each(HOSTILE)('resource "%s" is refused, nothing sent', async (name) => {
		const answer = await callAgentTool(
			ctx.sandbox,
			tool,
			{ resource: name, operation: 'delete' },
			{ toolName: 'Knolyx' },
		);
		refusedToAgent(
			answerText(answer),
			resourceRefused(name),
			`"${name}" is none of the resources:`,
		);
		expect(ctx.sandbox.stats().requests).toBe(0);
	});
});

describe('the consent check', () => {
	it.each(HOSTILE)('knows no operation "%s" (and no resource of that name)', (name) => {
		for (const resource of ['rule', 'webhook', 'course'])
			expect(() => consentsNeeded(resource, name)).toThrow(operationRefused(name, resource));
		expect(() => consentsNeeded(name, 'delete')).toThrow(resourceRefused(name));
	});

	it('still asks its switches of the operations that need them', () => {
		expect(consentsNeeded('rule', 'replaceAll').map((consent) => consent.name)).toEqual([
			'allowDestructiveToolUse',
			'allowAccessGrantToolUse',
		]);
		expect(consentsNeeded('course', 'get')).toEqual([]);
	});
});
