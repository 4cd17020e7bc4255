/**
 * The Knolyx Trigger's booleans, found by walking its description (a new one joins by itself), read
 * the one way every boolean of the nodes is (issue 55 §1): true / "true" and false / "false" are
 * taken; anything else refuses the activation naming the option, before any request reaches the
 * platform (no webhook registered).
 */
import type { INodeProperties } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';
import { DEMO, startSandbox, type Sandbox } from '../../sandbox';
import { triggerHosts } from '../harness';
import { STUDENT_EVENTS } from './helpers';

let sandbox: Sandbox;
const hosts = triggerHosts();

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo', deliveryBackoffMs: 50 });
});
beforeEach(() => {
	sandbox.reset('demo');
	sandbox.resetStats();
});
afterEach(async () => {
	await hosts.endAll();
});
afterAll(async () => {
	await sandbox.close();
});

const options = (new KnolyxTrigger().description.properties as INodeProperties[]).flatMap(
	(property) =>
		property.type === 'collection'
			? ((property.options ?? []) as INodeProperties[]).filter((o) => o.type === 'boolean')
			: [],
);

const activate = async (name: string, value: unknown) => {
	const h = await hosts.start({
		nodeType: new KnolyxTrigger(),
		type: 'n8n-nodes-knolyx.knolyxTrigger',
		parameters: { events: STUDENT_EVENTS, options: { [name]: value as string } },
		credentials: {
			knolyxApi: { baseUrl: sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.apiKey },
		},
		credentialTypes: [new KnolyxApi()],
	});
	return await h.activate('trigger').then(
		() => undefined,
		(error: Error) => error,
	);
};

it('the trigger has these booleans', () => {
	expect(options.map((option) => option.name).sort()).toEqual(['pingInTest', 'rawEnvelope']);
});

describe.each(options.map((option) => [option.displayName, option] as const))(
	'%s',
	(_n, option) => {
		it.each(
			['TRUE', 'yes', 1, 0, '', null, '={{ 1 }}', '={{ "yes" }}', '={{ "" }}'].map(
				(value) => [JSON.stringify(value), value] as const,
			),
		)('%s refuses the activation naming the option; nothing is sent', async (_shown, value) => {
			const error = await activate(option.name, value);
			expect(error?.message).toMatch(
				new RegExp(`^${option.displayName}: (has no value|.+ is not true or false)`),
			);
			expect(sandbox.stats().requests).toBe(0);
			expect(sandbox.state.webhooks.size).toBe(0);
		});

		it.each(
			[true, 'true', false, 'false', '={{ true }}', '={{ "false" }}'].map(
				(value) => [JSON.stringify(value), value] as const,
			),
		)('%s is taken: the webhook is registered', async (_shown, value) => {
			expect(await activate(option.name, value)).toBeUndefined();
			expect(sandbox.state.webhooks.size).toBe(1);
		});
	},
);
