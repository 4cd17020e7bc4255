/**
 * One reading of every boolean (issue 55 §1): every boolean parameter of the Knolyx node, found by
 * walking its description (so a new one cannot skip this test), is set to each spelling below, by
 * value and by expression, and run in a real workflow against the sandbox. true / "true" and
 * false / "false" are read as such; anything else (TRUE, 1, 0, yes, an empty value, ...) is
 * refused naming the field and the item, and the sandbox saw no request at all. A preview never
 * saves, whatever it is given. The agent switches (shown on the tool only) are read the same way
 * from what a person stored in the node; an expression in them never counts.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';
import { KnolyxPollTrigger } from '../../nodes/Knolyx/KnolyxPollTrigger.node';
import { consentsNeeded } from '../../nodes/Knolyx/actions/agent-safety';
import { answerText, callAgentTool } from './agent-tool';
import { fieldValues } from './field-values';
import { RULE_SAVE, routes, run, useSandbox } from './setup';

const ctx = useSandbox();

type Pair = [resource: string, operation: string];

interface BooleanField {
	name: string;
	displayName: string;
	/** The collection that holds it, or none (a parameter of the node). */
	collection?: string;
	/** The operations that show it. */
	shownFor: Pair[];
	/** Shown on the tool version of the node only (an agent switch). */
	tool: boolean;
}

function pairsOf(property: INodeProperties): Pair[] {
	const show = property.displayOptions?.show ?? {};
	const resources = (show.resource ?? []) as string[];
	const operations = (show.operation ?? []) as string[];
	return resources.flatMap((resource) =>
		operations.map((operation): Pair => [resource, operation]),
	);
}

/** Every boolean of a node's description, top-level or inside a collection. */
function booleansOf(properties: INodeProperties[]): BooleanField[] {
	const found: BooleanField[] = [];
	for (const property of properties) {
		const tool = Boolean(property.displayOptions?.show?.['@tool']);
		if (property.type === 'boolean') found.push({ ...property, shownFor: pairsOf(property), tool });
		if (property.type === 'collection')
			for (const option of (property.options ?? []) as INodeProperties[])
				if (option.type === 'boolean')
					found.push({
						name: option.name,
						displayName: option.displayName,
						collection: property.name,
						shownFor: pairsOf(property),
						tool,
					});
	}
	return found.map(({ name, displayName, collection, shownFor, tool }) => ({
		name,
		displayName,
		collection,
		shownFor,
		tool,
	}));
}

const NODE_BOOLEANS = booleansOf(new Knolyx().description.properties);
const ITEM_BOOLEANS = NODE_BOOLEANS.filter((field) => !field.tool);
const SWITCHES = NODE_BOOLEANS.filter((field) => field.tool);

/** The spellings taken, by value and by expression, and what each reads as. */
const TAKEN: Array<[unknown, boolean]> = [
	[true, true],
	['true', true],
	['={{ true }}', true],
	['={{ "true" }}', true],
	[false, false],
	['false', false],
	['={{ false }}', false],
	['={{ "false" }}', false],
];

/** Spellings that are no answer: refused, nothing sent. */
const REFUSED: unknown[] = [
	'TRUE',
	'True',
	'FALSE',
	'yes',
	'no',
	'1',
	'0',
	' true',
	1,
	0,
	'',
	null,
	'={{ 1 }}',
	'={{ 0 }}',
	'={{ "yes" }}',
	'={{ "TRUE" }}',
	'={{ "" }}',
	'={{ null }}',
	'={{ $json.missing }}',
	'={{ [] }}',
	'={{ {} }}',
];

function parametersWith(field: BooleanField, [resource, operation]: Pair, value: unknown) {
	const parameters: INodeParameters = {
		...fieldValues(ctx.demo, ctx.sandbox),
		resource,
		operation,
	};
	if (field.collection)
		parameters[field.collection] = { [field.name]: value } as INodeParameters[string];
	else parameters[field.name] = value as INodeParameters[string];
	return parameters;
}

const refusal = (field: BooleanField) =>
	new RegExp(
		`^${field.displayName.replace(/[()]/g, '\\$&')}: (was added but has no value|has no value|.+ is not true or false).* \\(item 0\\)$`,
	);

const cases = ITEM_BOOLEANS.flatMap((field) =>
	field.shownFor.map((pair) => ({
		field,
		pair,
		label: `${field.displayName} on ${pair.join('.')}`,
	})),
);

describe('the booleans found in the descriptions', () => {
	it('are the ones the node has (a new boolean joins this table by itself)', () => {
		expect(ITEM_BOOLEANS.map((field) => field.name).sort()).toEqual([
			'allowEmpty',
			'overwrite',
			'preview',
			'preview',
			'preview',
			'preview',
			'preview',
			'preview',
			'returnAll',
			'returnAll',
			'returnAll',
			'returnAll',
			'sendWelcomeEmail',
			'sendWelcomeEmail',
			'sendWelcomeEmail',
		]);
		expect(SWITCHES.length).toBeGreaterThanOrEqual(3);
		expect(cases.length).toBeGreaterThanOrEqual(ITEM_BOOLEANS.length);
		// The triggers' booleans: listed so that a new one shows up here; their reading is
		// test/trigger/booleans.test.ts's (an activation, not a workflow of the Knolyx node).
		const triggers = [
			...booleansOf(new KnolyxTrigger().description.properties),
			...booleansOf(new KnolyxPollTrigger().description.properties),
		];
		expect(triggers.map((field) => field.name).sort()).toEqual(['pingInTest', 'rawEnvelope']);
	});
});

describe.each(cases)('$label', ({ field, pair }) => {
	it.each(REFUSED.map((value) => [JSON.stringify(value), value]))(
		'%s is refused naming the field and the item; nothing is sent',
		async (_shown, value) => {
			const result = await run(ctx.sandbox, parametersWith(field, pair, value));
			expect(result.error?.message).toMatch(refusal(field));
			expect(ctx.sandbox.stats().requests).toBe(0);
		},
	);

	it.each(TAKEN.map(([value, read]) => [JSON.stringify(value), value, read]))(
		'%s is read as %s',
		async (_shown, value, read) => {
			const result = await run(ctx.sandbox, parametersWith(field, pair, value));
			// Whatever else the run meets, it is not a refusal of this field.
			expect(result.error?.message ?? '').not.toMatch(new RegExp(`^${field.displayName}:`));
			if (field.name === 'preview') {
				// A preview reads only, and says so; anything else is no preview.
				if (read) expect(routes(ctx.sandbox)[RULE_SAVE]).toBeUndefined();
				if (!result.error) expect(result.json[0].preview).toBe(read);
			}
			if (field.name === 'returnAll' && !result.error)
				expect(result.json.length > 5).toBe(read && result.json.length > 5);
		},
	);
});

describe('a preview never saves', () => {
	const previews = cases.filter(({ field }) => field.name === 'preview');
	it.each(previews.map(({ pair, field }) => [pair.join('.'), pair, field] as const))(
		'%s: under every spelling, no save reaches the platform',
		async (_label, pair, field) => {
			for (const value of [...TAKEN.map(([given]) => given), ...REFUSED]) {
				ctx.sandbox.resetStats();
				await run(ctx.sandbox, parametersWith(field, pair, value));
				// Only a value read as false may save.
				if (booleanRead(value) !== false)
					expect([value, routes(ctx.sandbox)[RULE_SAVE]]).toEqual([value, undefined]);
			}
		},
	);
});

function booleanRead(value: unknown): boolean | undefined {
	return TAKEN.find(([given]) => given === value)?.[1];
}

describe('the agent switches', () => {
	/** For each switch, an operation that needs it, with the other switches it needs on. */
	const switchCases = SWITCHES.map((field) => {
		const pair = field.shownFor.find(([resource, operation]) =>
			consentsNeeded(resource, operation).some((consent) => consent.name === field.name),
		) as Pair;
		const others = consentsNeeded(...pair)
			.map((consent) => consent.name)
			.filter((name) => name !== field.name);
		return { field, pair, others, label: `${field.displayName} (${pair.join('.')})` };
	});

	const callWith = async (
		{ field, pair, others }: (typeof switchCases)[number],
		value: unknown,
	) => {
		const parameters: INodeParameters = {
			...fieldValues(ctx.demo, ctx.sandbox),
			resource: pair[0],
			operation: pair[1],
			ruleName: 'Staff early access',
			webhookId: '999999',
			descriptionType: 'manual',
			toolDescription: 'A guarded operation',
			[field.name]: value as INodeParameters[string],
		};
		for (const name of others) parameters[name] = true;
		return answerText(await callAgentTool(ctx.sandbox, parameters, {}, { toolName: 'Guarded' }));
	};

	describe.each(switchCases)('$label', (switchCase) => {
		it.each(['TRUE', 'yes', 1, 0, '1', ''].map((value) => [JSON.stringify(value), value] as const))(
			'stored as %s: refused naming the switch; nothing is sent',
			async (_shown, value) => {
				const answer = await callWith(switchCase, value);
				expect(answer).toContain(`${switchCase.field.displayName}: `);
				expect(answer).toMatch(/(is not true or false|has no value)/);
				expect(ctx.sandbox.stats().requests).toBe(0);
			},
		);

		it.each(
			[false, 'false', '={{ true }}', '={{ "true" }}'].map(
				(value) => [JSON.stringify(value), value] as const,
			),
		)(
			'stored as %s: off (an expression never counts); refused, nothing sent',
			async (_s, value) => {
				const answer = await callWith(switchCase, value);
				expect(answer).toContain(`switch on "${switchCase.field.displayName}"`);
				expect(ctx.sandbox.stats().requests).toBe(0);
			},
		);

		it.each([true, 'true'].map((value) => [JSON.stringify(value), value] as const))(
			'stored as %s: on, the agent may run it',
			async (_shown, value) => {
				const answer = await callWith(switchCase, value);
				expect(answer).not.toMatch(/^Refused|switch on|is not true or false/);
				expect(ctx.sandbox.stats().requests).toBeGreaterThan(0);
			},
		);
	});
});
