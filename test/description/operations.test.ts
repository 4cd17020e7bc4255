/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The node's description cannot drift from the code (issue 12 §4): walks the Resource and
 * Operation lists of the node and the operation table the router dispatches through.
 * - every operation in the lists has an implementation, and every implementation is listed;
 * - every field is shown for exactly the operations that read it;
 * - every permission an operation needs (the catalogue's, of each endpoint it calls on the
 *   sandbox) is named in its description, and none it does not need;
 * - every resource locator's list method exists on the node and answers.
 */
import { readFileSync } from 'node:fs';
import type {
	IDisplayOptions,
	IExecuteFunctions,
	INodeParameters,
	INodeProperties,
} from 'n8n-workflow';

import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { resources } from '../../nodes/Knolyx/actions/operations';
import { AGENT_SWITCH_NAMES } from '../../nodes/Knolyx/actions/agent-safety';

import { API_PREFIX, ENDPOINTS, endpointOf } from '../../nodes/Knolyx/transport';
import type { Endpoint } from '../../nodes/Knolyx/transport';
import { fieldValues as values } from '../action/field-values';
import { listSearch, run, useSandbox } from '../action/setup';

const node = new Knolyx();
const properties = node.description.properties;

/** Parameters the router reads for every operation, and fields nobody reads (notices). */
const ROUTER_READS = new Set(['resource', 'operation', 'requestOptions', ...AGENT_SWITCH_NAMES]);

function optionValues(property: INodeProperties | undefined): string[] {
	return (property?.options ?? []).map((option) => String((option as { value: unknown }).value));
}

const resourceNames = optionValues(properties.find((p) => p.name === 'resource'));

function operationList(resource: string): INodeProperties | undefined {
	return properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	);
}

/** Whether `show` lets the field appear for the resource and operation (other conditions aside). */
function shownFor(
	displayOptions: IDisplayOptions | undefined,
	resource: string,
	operation: string,
): boolean {
	const show = displayOptions?.show;
	if (!show) return true;
	if (show['@tool']) return false;
	if (show.resource && !show.resource.includes(resource)) return false;
	if (show.operation && !show.operation.includes(operation)) return false;
	return true;
}

function fieldsShown(resource: string, operation: string): string[] {
	return properties
		.filter(
			(p) =>
				p.type !== 'notice' &&
				!ROUTER_READS.has(p.name) &&
				shownFor(p.displayOptions, resource, operation),
		)
		.map((p) => p.name);
}

const allOperations: Array<[string, string]> = resourceNames.flatMap((resource) =>
	optionValues(operationList(resource)).map((operation): [string, string] => [resource, operation]),
);

/** The parameters `prepare` reads: it is pure (sends nothing), so a parameter source is enough. */
function parametersRead(resource: string, operation: string, given: INodeParameters): string[] {
	const read = new Set<string>();
	const ctx = {
		getNodeParameter(name: string) {
			read.add(name);
			if (!(name in given))
				throw new Error(
					`${resource} → ${operation} reads "${name}", which the test has no value for`,
				);
			return given[name];
		},
		getNode: () => ({
			name: 'Knolyx',
			type: 'knolyx',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getTimezone: () => 'UTC',
	} as unknown as IExecuteFunctions;
	resources[resource].operations[operation].prepare.call(ctx, 0);
	return [...read];
}

describe('Knolyx node description and operation table', () => {
	const ctx = useSandbox();

	it('lists exactly the resources and operations that have an implementation', () => {
		expect([...resourceNames].sort()).toEqual(Object.keys(resources).sort());
		for (const resource of resourceNames) {
			expect(optionValues(operationList(resource)).sort()).toEqual(
				Object.keys(resources[resource].operations).sort(),
			);
		}
		expect(allOperations.length).toBeGreaterThan(20);
	});

	it.each(allOperations)('%s → %s shows exactly the fields it reads', (resource, operation) => {
		const read = parametersRead(resource, operation, values(ctx.demo, ctx.sandbox));
		expect([...read].sort()).toEqual([...new Set(fieldsShown(resource, operation))].sort());
	});

	it.each(allOperations)(
		'%s → %s names every permission it needs, and no other',
		async (resource, operation) => {
			const parameters: INodeParameters = { resource, operation };
			const all = values(ctx.demo, ctx.sandbox);
			for (const name of fieldsShown(resource, operation)) parameters[name] = all[name];
			ctx.sandbox.resetStats();
			await run(ctx.sandbox, parameters, [{}], { continueOnFail: true });
			const routes = Object.keys(ctx.sandbox.stats().byRoute);
			expect(routes.length).toBeGreaterThan(0);
			const needed = new Set<string>();
			for (const route of routes) {
				const [method, path] = route.split(' ');
				// The sandbox counts a route without its trailing slash (…/member/{email}/).
				const bare = path.slice(API_PREFIX.length);
				const endpoint = [bare, `${bare}/`]
					.map((p) => endpointOf(method as 'GET', p))
					.find((e) => e.path !== '');
				if (endpoint?.permission) needed.add(endpoint.permission);
			}
			const option = operationList(resource)?.options?.find(
				(o) => (o as { value?: unknown }).value === operation,
			) as { description?: string } | undefined;
			const named = new Set(String(option?.description).match(/\b[A-Z]+(?:_[A-Z]+)+\b/g) ?? []);
			expect([...named].sort()).toEqual([...needed].sort());
		},
	);

	it('every resource locator lists through a method the node has, and the list answers', async () => {
		const locators = properties.filter((p) => p.type === 'resourceLocator');
		expect(locators.length).toBeGreaterThan(0);
		const methods = node.methods.listSearch as Record<string, unknown>;
		for (const locator of locators) {
			const list = locator.modes?.find((mode) => mode.name === 'list');
			const method = list?.typeOptions?.searchListMethod;
			expect(typeof method).toBe('string');
			expect(typeof methods[method as string]).toBe('function');
			const typed = { communityId: String(ctx.demo.communityId) };
			const answer = await listSearch(
				ctx.sandbox,
				method as Parameters<typeof listSearch>[1],
				undefined,
				{},
				typed,
			);
			expect(answer.results.length).toBeGreaterThan(0);
		}
	});
});

describe('docs/api.md', () => {
	it('lists every endpoint of the catalogue with its method, path and permission', () => {
		const doc = readFileSync(`${__dirname}/../../docs/api.md`, 'utf8');
		for (const [name, endpoint] of Object.entries(ENDPOINTS) as Array<[string, Endpoint]>) {
			const row = doc.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
			expect(row).toBeDefined();
			const cells = (row as string).split('|').map((cell) => cell.trim());
			expect(cells.slice(2, 5)).toEqual([
				endpoint.method,
				`\`${endpoint.path}\``,
				endpoint.permission ?? '–',
			]);
		}
	});
});
