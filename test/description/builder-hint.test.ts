/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The hints n8n 2.x's AI workflow builder reads (`builderHint` on each node's description):
 * - the form: a search hint and related nodes, each with a type and why it is related;
 * - what n8n's own node catalog (@n8n/ai-utilities, the code behind the builder's node search)
 *   makes of them: searching "Knolyx" finds the three nodes, each shown with its hint and its
 *   related nodes;
 * - what n8n's own nodes' hints are: one or two sentences, and every node or tool a hint names
 *   among its related nodes (the table NAMES below);
 * - that what the hints name exists: every "Resource → Operation" is an operation of the Knolyx
 *   node, every related node of this package is one of its nodes, and every `$json` path the
 *   Knolyx Trigger's hint names is in the item a real delivery gives (sandbox, real HTTP).
 */
import { NodeTypeParser, searchCodeBuilderNodes } from '@n8n/ai-utilities/node-catalog';
import type {
	IBuilderHint,
	IDataObject,
	INodeProperties,
	INodeTypeDescription,
} from 'n8n-workflow';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { KnolyxPollTrigger } from '../../nodes/Knolyx/KnolyxPollTrigger.node';
import { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';
import { startSandbox, type Sandbox } from '../../sandbox';
import { triggerHosts } from '../harness';

const PACKAGE = (
	JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { name: string }
).name;
const nodes = [new Knolyx(), new KnolyxTrigger(), new KnolyxPollTrigger()];
const ownTypes = nodes.map((node) => `${PACKAGE}.${node.description.name}`);
const hintOf = (description: INodeTypeDescription): IBuilderHint => {
	if (!description.builderHint) throw new Error(`${description.displayName} has no builderHint`);
	return description.builderHint;
};

describe.each(nodes.map((node) => [node.description.displayName, node.description] as const))(
	'%s',
	(_name, description) => {
		it('has a search hint and related nodes in the form n8n reads', () => {
			const hint = hintOf(description);
			expect(typeof hint.searchHint).toBe('string');
			expect(hint.searchHint!.length).toBeGreaterThan(100);
			expect(hint.searchHint!.length).toBeLessThan(1000); // shown in every search result the node is in
			expect(hint.relatedNodes?.length).toBeGreaterThan(0);
			for (const related of hint.relatedNodes!) {
				expect(related).toEqual({
					nodeType: expect.stringMatching(/^[\w-]+\.\w+$/),
					relationHint: expect.any(String),
				});
				expect(related.relationHint.length).toBeGreaterThan(10);
			}
		});

		it('names no node of this package that does not exist, and not itself', () => {
			for (const { nodeType } of hintOf(description).relatedNodes!) {
				expect(nodeType).not.toBe(`${PACKAGE}.${description.name}`);
				if (nodeType.startsWith(`${PACKAGE}.`)) expect(ownTypes).toContain(nodeType);
				else expect(nodeType).toMatch(/^n8n-nodes-base\./);
			}
		});
	},
);

/**
 * The nodes and tools a hint may name, each with the node types that stand for it (a tool with an
 * app node and a trigger node counts as listed when either is). A name the hint gives only to say
 * it is not needed ("no Loop Over Items or Wait needed") is not a related node: listing it would
 * suggest adding it. Names of this package's own node are skipped in its own hint.
 */
const NAMES: Array<[RegExp, string[]]> = [
	[/Knolyx Trigger/, [`${PACKAGE}.knolyxTrigger`]],
	[/Knolyx Poll Trigger/, [`${PACKAGE}.knolyxPollTrigger`]],
	// the Knolyx node, by name or by one of its operations ("Resource → Operation")
	[/Knolyx node|[A-Z][\w ]*? → /, [`${PACKAGE}.knolyx`]],
	[/Stripe/, ['n8n-nodes-base.stripeTrigger', 'n8n-nodes-base.stripe']],
	[/Shopify/, ['n8n-nodes-base.shopifyTrigger', 'n8n-nodes-base.shopify']],
	[/WooCommerce/, ['n8n-nodes-base.wooCommerceTrigger', 'n8n-nodes-base.wooCommerce']],
	[/PayPal/, ['n8n-nodes-base.payPalTrigger', 'n8n-nodes-base.payPal']],
	[/HubSpot/, ['n8n-nodes-base.hubspotTrigger', 'n8n-nodes-base.hubspot']],
	[/Pipedrive/, ['n8n-nodes-base.pipedriveTrigger', 'n8n-nodes-base.pipedrive']],
	[/Mailchimp/, ['n8n-nodes-base.mailchimp', 'n8n-nodes-base.mailchimpTrigger']],
	[/Gmail/, ['n8n-nodes-base.gmail', 'n8n-nodes-base.gmailTrigger']],
	[/Slack/, ['n8n-nodes-base.slack', 'n8n-nodes-base.slackTrigger']],
	[/Google Sheets/, ['n8n-nodes-base.googleSheets', 'n8n-nodes-base.googleSheetsTrigger']],
	[/n8n Form/, ['n8n-nodes-base.formTrigger']],
	[/Send Email/, ['n8n-nodes-base.emailSend']],
	[/\bWebhook\b(?! →)/, ['n8n-nodes-base.webhook']], // "Webhook → Create" is a Knolyx operation
	[/Schedule Trigger/, ['n8n-nodes-base.scheduleTrigger']],
	[/Loop Over Items/, ['n8n-nodes-base.splitInBatches']],
	[/\bWait\b/, ['n8n-nodes-base.wait']],
	[/HTTP Request/, ['n8n-nodes-base.httpRequest']],
	[/Remove Duplicates/, ['n8n-nodes-base.removeDuplicates']],
	[/Data Table/, ['n8n-nodes-base.dataTable']],
	[/Code node/, ['n8n-nodes-base.code']],
];
const NOT_NEEDED = /\bno [^.;:()]*?\b(?:is |are )?needed\b/g;

/** The node types a text names, each as the list of types that stand for it; `self` is skipped. */
const namedIn = (text: string, self: string): string[][] =>
	NAMES.filter(([name]) => name.test(text.replace(NOT_NEEDED, '')))
		.map(([, types]) => types)
		.filter((types) => !types.includes(self));

it('the table of names finds what a hint names, and passes over what it calls not needed', () => {
	const trigger = `${PACKAGE}.knolyxTrigger`;
	expect(namedIn('then a Slack message and the Webhook node', trigger)).toEqual([
		['n8n-nodes-base.slack', 'n8n-nodes-base.slackTrigger'],
		['n8n-nodes-base.webhook'],
	]);
	expect(namedIn('with User → Enrol in Workgroup', trigger)).toEqual([[`${PACKAGE}.knolyx`]]);
	expect(namedIn('Webhook → Create, or the Knolyx Trigger', trigger)).toEqual([
		[`${PACKAGE}.knolyx`],
	]);
	expect(
		namedIn('(no Loop Over Items or Wait needed); so no Webhook node is needed', trigger),
	).toEqual([]);
});

describe.each(nodes.map((node) => [node.description.displayName, node.description] as const))(
	'the %s hint',
	(_name, description) => {
		const hint = hintOf(description);
		const self = `${PACKAGE}.${description.name}`;

		it("is at most two sentences, as n8n's own nodes have", () => {
			const sentences = hint.searchHint!.split(/[.!?](?:\s|$)/).filter((s) => s.trim());
			expect(sentences.length).toBeGreaterThan(0);
			expect(sentences.slice(2)).toEqual([]); // shows the sentences past the second
		});

		it('lists every node and tool it names among its related nodes', () => {
			const related = hint.relatedNodes!.map((r) => r.nodeType);
			const missing = namedIn(hint.searchHint!, self).filter(
				(types) => !types.some((type) => related.includes(type)),
			);
			expect(missing).toEqual([]);
		});
	},
);

it('the Knolyx node hint names the tools a buyer comes from', () => {
	expect(
		namedIn(hintOf(new Knolyx().description).searchHint!, `${PACKAGE}.knolyx`).length,
	).toBeGreaterThanOrEqual(7);
});

describe("n8n's node catalog (what the AI workflow builder searches)", () => {
	// n8n lists a community package's nodes under their full type name.
	// (@n8n/ai-utilities types them with its own copy of n8n-workflow; the objects are the same.)
	type CatalogInput = ConstructorParameters<typeof NodeTypeParser>[0];
	const catalog = new NodeTypeParser(
		nodes.map((node) => ({
			...node.description,
			name: `${PACKAGE}.${node.description.name}`,
		})) as unknown as CatalogInput,
	);

	it('finds the three nodes and shows each with its hint and related nodes', () => {
		const { results } = searchCodeBuilderNodes(catalog, ['Knolyx']);
		for (const node of nodes) {
			const hint = hintOf(node.description);
			expect(results).toContain(`${PACKAGE}.${node.description.name}`);
			expect(results).toContain(`@builderHint ${hint.searchHint}`);
			for (const related of hint.relatedNodes!)
				expect(results).toContain(`- ${related.nodeType}: "${related.relationHint}"`);
		}
	});
});

describe('what the hints name exists', () => {
	const properties = new Knolyx().description.properties;
	const optionNames = (property: INodeProperties | undefined) =>
		(property?.options ?? []).map((o) => o as { name: string; value: unknown });
	const resources = optionNames(properties.find((p) => p.name === 'resource'));
	const operationNames = (resource: string) =>
		optionNames(
			properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
			),
		).map((o) => o.name);

	it('every "Resource → Operation" in a hint is an operation of the Knolyx node', () => {
		let named = 0;
		for (const node of nodes) {
			const texts = [
				hintOf(node.description).searchHint!,
				...hintOf(node.description).relatedNodes!.map((r) => r.relationHint),
			];
			for (const text of texts) {
				for (const match of text.matchAll(/([A-Z][\w ]*?) → /g)) {
					const resource = resources
						.filter((r) => match[1].endsWith(r.name))
						.sort((a, b) => b.name.length - a.name.length)[0];
					expect({ text: match[0], resource: resource?.name }).toEqual({
						text: match[0],
						resource: expect.any(String),
					});
					const after = text.slice((match.index ?? 0) + match[0].length);
					expect({
						after: after.slice(0, 30),
						known: operationNames(String(resource.value)).some((op) => after.startsWith(op)),
					}).toEqual({
						after: after.slice(0, 30),
						known: true,
					});
					named++;
				}
			}
		}
		expect(named).toBeGreaterThanOrEqual(4);
	});

	describe('the Knolyx Trigger hint names fields of a real delivery', () => {
		let sandbox: Sandbox;
		const hosts = triggerHosts();
		beforeEach(async () => {
			sandbox = await startSandbox({ port: 0, seed: 'demo', deliveryBackoffMs: 50 });
		});
		afterEach(async () => {
			await hosts.endAll();
			await sandbox.close();
		});

		it('every $json path it names is in the item (course events; bundle payments for $json.bundle)', async () => {
			const h = await hosts.start({
				nodeType: new KnolyxTrigger(),
				type: `${PACKAGE}.knolyxTrigger`,
				parameters: { events: ['COURSE_COMPLETED', 'BUNDLE_PAYMENT_RECEIVED'], options: {} },
				credentials: {
					knolyxApi: { baseUrl: sandbox.url, projectId: 'demo-project', apiKey: 'demo-api-key' },
				},
				credentialTypes: [new KnolyxApi()],
			});
			await h.activate('trigger');
			const demo = sandbox.demo!;
			sandbox.activity('course-completed', {
				email: 'ada@example.com',
				courseId: demo.courses['Intro to n8n'],
			});
			sandbox.activity('bundle-payment', { email: 'ada@example.com', bundleId: demo.bundleId });
			await h.until(() => h.executions().length >= 2);
			const items = h.executions().map(([item]) => item.json);
			const completed = items.find((item) => item.event === 'COURSE_COMPLETED');
			const bundle = items.find((item) => item.event === 'BUNDLE_PAYMENT_RECEIVED');
			expect([completed?.event, bundle?.event]).toEqual([
				'COURSE_COMPLETED',
				'BUNDLE_PAYMENT_RECEIVED',
			]);

			const paths = [
				...hintOf(new KnolyxTrigger().description).searchHint!.matchAll(/\$json((?:\.\w+)+)/g),
			].map((m) => m[1].slice(1).split('.'));
			expect(paths.length).toBeGreaterThanOrEqual(5);
			for (const path of paths) {
				const item = path[0] === 'bundle' ? bundle : completed;
				const value = path.reduce<unknown>(
					(at, key) => (at as IDataObject | undefined)?.[key],
					item,
				);
				expect({
					path: `$json.${path.join('.')}`,
					present: value !== undefined && value !== null,
				}).toEqual({ path: `$json.${path.join('.')}`, present: true });
			}
		});
	});
});
