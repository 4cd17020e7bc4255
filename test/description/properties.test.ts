import type { INodeProperties } from 'n8n-workflow';

import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { KnolyxPollTrigger } from '../../nodes/Knolyx/KnolyxPollTrigger.node';
import { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';
import { incompatibilities } from './compatibility';
import savedPoll from './poll-properties.fixture.json';
import saved from './properties.fixture.json';
import savedTrigger from './trigger-properties.fixture.json';

/**
 * Workflows users saved must still load and mean the same: every saved parameter keeps its
 * name, type, default, display name, texts, options (in their order) and the conditions under
 * which it is shown, and the parameters keep their order. The fixture is the node's
 * description as released (issue 12); a new parameter, a new option of a list or a new field
 * of a collection needs no change to it. Change it only together with a deliberate change of
 * a saved parameter.
 */
type Json = Record<string, unknown>;
const asJson = (properties: INodeProperties[]) => JSON.parse(JSON.stringify(properties)) as Json[];

describe('Knolyx node parameters', () => {
	const properties = asJson(new Knolyx().description.properties);

	it('read every saved parameter as before', () => {
		expect(incompatibilities(saved as Json[], properties)).toEqual([]);
	});
});

describe.each([
	['Knolyx Trigger', savedTrigger, new KnolyxTrigger()],
	['Knolyx Poll Trigger', savedPoll, new KnolyxPollTrigger()],
])('%s parameters', (_name, fixture, node) => {
	it('read every saved parameter as before', () => {
		expect(incompatibilities(fixture as Json[], asJson(node.description.properties))).toEqual([]);
	});
});

describe('the compatibility check', () => {
	const copy = () => structuredClone(saved) as Json[];
	const at = (list: Json[], name: string, operation?: string) =>
		list.find(
			(p) =>
				p.name === name &&
				(operation === undefined ||
					(
						p.displayOptions as { show?: { operation?: string[] } } | undefined
					)?.show?.operation?.includes(operation)),
		) as Json;
	const options = (parameter: Json) => parameter.options as Json[];

	it('takes the saved description as it is', () => {
		expect(incompatibilities(saved as Json[], copy())).toEqual([]);
	});

	it('lets a new parameter, option, collection field or operation in without the fixture', () => {
		const now = copy();
		now.splice(5, 0, { displayName: 'New', name: 'sendWelcome', type: 'boolean', default: false });
		options(at(now, 'resource')).splice(1, 0, { name: 'Badge', value: 'badge' });
		options(at(now, 'requestOptions')).push({
			displayName: 'X',
			name: 'x',
			type: 'number',
			default: 1,
		});
		const list = at(now, 'allowDataFlowToolUse').displayOptions as {
			show: { operation: string[] };
		};
		list.show.operation.push('rotate');
		expect(incompatibilities(saved as Json[], now)).toEqual([]);
	});

	it.each<[string, (now: Json[]) => void, RegExp]>([
		[
			'a parameter removed',
			(now) => now.splice(now.indexOf(at(now, 'limit')), 1),
			/limit .*: gone/,
		],
		[
			'a parameter renamed',
			(now) => (at(now, 'email', 'provision').name = 'mail'),
			/email .*: gone/,
		],
		[
			'a type changed',
			(now) => (at(now, 'removalDate').type = 'string'),
			/removalDate .*: type was "dateTime"/,
		],
		[
			'a default changed',
			(now) => (at(now, 'resource').default = 'course'),
			/resource .*: default was "user"/,
		],
		[
			'a display name changed',
			(now) => (at(now, 'resource').displayName = 'Kind'),
			/displayName was "Resource"/,
		],
		[
			'a description changed',
			(now) => (at(now, 'limit').description = 'How many'),
			/description was/,
		],
		[
			'an option removed',
			(now) => options(at(now, 'resource')).pop(),
			/resource .* → workgroup: option gone/,
		],
		[
			'an option value changed',
			(now) => (options(at(now, 'resource'))[0].value = 'key'),
			/→ apiKey: option gone/,
		],
		[
			'an option renamed',
			(now) => (options(at(now, 'resource'))[0].name = 'Key'),
			/→ apiKey: name was "API Key"/,
		],
		['options reordered', (now) => options(at(now, 'resource')).reverse(), /option moved before/],
		['parameters reordered', (now) => now.reverse(), /moved before a parameter it followed/],
		[
			'a collection field removed',
			(now) => options(at(now, 'requestOptions')).pop(),
			/requestOptions .* → timeout .*: gone/,
		],
		[
			'a collection field default changed',
			(now) => (options(at(now, 'requestOptions'))[0].default = 4),
			/→ concurrency .*: default was 0/,
		],
		[
			'shown for fewer operations',
			(now) =>
				(at(now, 'allowDataFlowToolUse').displayOptions = {
					show: { '@tool': [true], resource: ['webhook'], operation: ['get'] },
				}),
			/allowDataFlowToolUse .*: gone/,
		],
		[
			'made required',
			(now) => (at(now, 'removalDate').required = true),
			/removalDate .*: required added/,
		],
	])('fails on %s', (_what, change, problem) => {
		const now = copy();
		change(now);
		expect(incompatibilities(saved as Json[], now)).toContainEqual(expect.stringMatching(problem));
	});
});
