/**
 * Issue 45, webhook answers: only a value that looks like an id is an id (docs/api.md "What
 * counts as a webhook id"); anything else sends the node to the list, which is read whole and
 * matched by what its entries carry. The action node and the Knolyx Trigger, over real HTTP
 * against the sandbox; the trigger through n8n-core's webhook setup, activation and deactivation.
 */
import type { VariantName } from '../../sandbox';
import { clearEdges, setEdge, triggerHosts } from '../harness';
import { knolyxTrigger, routes, run, useSandbox } from './setup';

const ctx = useSandbox();
const hosts = triggerHosts();
beforeEach(async () => {
	ctx.sandbox.setVariants([]);
	await clearEdges(ctx.sandbox.url);
});
afterEach(async () => {
	await hosts.endAll();
});

const URL = 'https://crm.example.com/knolyx';
const create = { resource: 'webhook', operation: 'create', name: 'crm sync', url: URL };
const webhooks = () => [...ctx.sandbox.state.webhooks.values()];
const posts = () => routes(ctx.sandbox)['POST /public/api/v1/webhook'];

/**
 * The webhook list answered with entries that carry a URL but no name: the webhook the sandbox
 * creates next, at `url`; `after` reads pass first (Webhook → Create's read of the list before
 * its POST, which must not hold the webhook yet; the trigger reads none).
 */
async function listWithoutNames(url: string, after: number): Promise<number> {
	const id = ctx.sandbox.state.nextId('webhook') + 1;
	await setEdge(ctx.sandbox.url, {
		path: '/public/api/v1/webhook',
		method: 'GET',
		after,
		answer: { status: 200, contentType: 'application/json', body: JSON.stringify([{ id, url }]) },
	});
	return id;
}

/** 25 webhooks of others, so that a list paged 20 at a time holds ours on its second page. */
function addOthers(count: number): void {
	for (let i = 1; i <= count; i++) {
		const id = ctx.sandbox.state.nextId('webhook');
		ctx.sandbox.state.webhooks.set(id, {
			id,
			name: `Other ${i}`,
			url: `https://others.example.com/${i}`,
			securityToken: 'theirs',
			createdAt: new Date().toISOString(),
		});
	}
}

describe('Webhook → Create outputs the real id whatever the answer', () => {
	it.each<[string, VariantName]>([
		['the JSON string "Created"', 'webhookCreateJsonText'],
		['{ "id": null }', 'webhookCreateNullId'],
		['text/plain "Created"', 'webhookCreateText'],
	])('answered 201 with %s: the id found in the list', async (_answer, variant) => {
		ctx.sandbox.setVariants([variant]);
		const out = await run(ctx.sandbox, create);
		expect(out.error).toBeUndefined();
		expect(webhooks()).toHaveLength(1);
		expect(out.json[0].id).toBe(webhooks()[0].id);
	});

	it('applied and answered 502, list entries with a URL but no name: posted once, the id output', async () => {
		ctx.sandbox.setVariants(['webhookCreate502']);
		const id = await listWithoutNames(URL, 1);
		const out = await run(ctx.sandbox, create);
		expect(out.error).toBeUndefined();
		expect(posts()).toBe(1);
		expect(webhooks().map((hook) => hook.id)).toEqual([id]);
		expect(out.json[0].id).toBe(id);
	});
});

describe('the Knolyx Trigger stores only a real id and leaves no webhook behind', () => {
	it.each<VariantName>(['webhookCreateJsonText', 'webhookCreateNullId'])(
		'%s: activation stores the webhook id, deactivation deletes the webhook',
		async (variant) => {
			ctx.sandbox.setVariants([variant]);
			const host = await hosts.start(knolyxTrigger(ctx.sandbox, ['COURSE_STARTED']));
			await host.activate('trigger');
			expect(webhooks()).toHaveLength(1);
			const stored = JSON.stringify(host.nodeStaticData);
			expect(stored).toContain(`"webhookId":"${webhooks()[0].id}"`);
			await host.deactivate('trigger');
			expect(webhooks()).toEqual([]);
			expect(routes(ctx.sandbox)['DELETE /public/api/v1/webhook/Created']).toBeUndefined();
		},
	);

	it('applied and answered 502, list entries with a URL but no name: registers once', async () => {
		ctx.sandbox.setVariants(['webhookCreate502']);
		const host = await hosts.start(knolyxTrigger(ctx.sandbox, ['COURSE_STARTED']));
		const id = await listWithoutNames(host.url('trigger'), 0);
		await host.activate('trigger');
		expect(posts()).toBe(1);
		expect(webhooks().map((hook) => hook.id)).toEqual([id]);
		expect(JSON.stringify(host.nodeStaticData)).toContain(`"webhookId":"${id}"`);
	});

	it('applied and answered 502, the list paged 20 at a time, ours on its second page: registers once', async () => {
		addOthers(25);
		ctx.sandbox.setVariants(['webhookCreate502', 'pagedWebhooks']);
		const host = await hosts.start(knolyxTrigger(ctx.sandbox, ['COURSE_STARTED']));
		await host.activate('trigger');
		expect(posts()).toBe(1);
		const ours = webhooks().filter((hook) => hook.url === host.url('trigger'));
		expect(ours).toHaveLength(1);
		expect(JSON.stringify(host.nodeStaticData)).toContain(`"webhookId":"${ours[0].id}"`);
	});
});

describe('a registration an older version stored with "Created" for its id', () => {
	it('is mended from the list at activation, and deactivation deletes the real webhook', async () => {
		const host = await hosts.start(knolyxTrigger(ctx.sandbox, ['COURSE_STARTED']));
		const url = host.url('trigger');
		const secret = 'a'.repeat(64);
		const id = ctx.sandbox.state.nextId('webhook');
		ctx.sandbox.state.webhooks.set(id, {
			id,
			name: 'n8n: older registration',
			url,
			securityToken: secret,
			createdAt: new Date().toISOString(),
		});
		addOthers(2);
		host.staticData[`node:${host.node.name}`] = {
			registrations: {
				[url]: {
					webhookId: 'Created',
					secret,
					kind: 'production',
					createdAt: '2026-11-01T00:00:00Z',
				},
			},
			seen: {},
		};
		await host.activate('trigger');
		expect(posts()).toBeUndefined();
		expect(JSON.stringify(host.nodeStaticData)).toContain(`"webhookId":"${id}"`);
		await host.deactivate('trigger');
		expect(webhooks().map((hook) => hook.url)).not.toContain(url);
		expect(webhooks()).toHaveLength(2);
	});
});
