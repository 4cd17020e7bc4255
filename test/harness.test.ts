/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { KnolyxApi } from '../credentials/KnolyxApi.credentials';
import {
	createNodeTypes,
	manualWorkflow,
	runNode,
	runWorkflow,
	testCredential,
	triggerHosts,
} from './harness';

/** The description of a test-only action node or trigger; `fields` adds or overrides. */
function testNode(
	kind: 'action' | 'trigger',
	displayName: string,
	name: string,
	fields: Partial<INodeTypeDescription> = {},
): INodeTypeDescription {
	const action = kind === 'action';
	return {
		displayName,
		name,
		group: [action ? 'transform' : 'trigger'],
		version: 1,
		description: action ? 'test node' : 'test trigger',
		...(action && { usableAsTool: true }),
		defaults: { name: displayName },
		inputs: action ? [NodeConnectionTypes.Main] : [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
		...fields,
	};
}

/** Test-only node: GET {baseUrl}/echo/{id} with the knolyxApi credential, one request per item. */
class EchoNode implements INodeType {
	description = testNode('action', 'Echo', 'echo', {
		credentials: [{ name: 'knolyxApi', required: true }],
		properties: [{ displayName: 'ID', name: 'id', type: 'string', default: '' }],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('knolyxApi');
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			const json = await this.helpers.httpRequestWithAuthentication.call(this, 'knolyxApi', {
				method: 'GET',
				url: `${baseUrl}/echo/${this.getNodeParameter('id', i) as string}`,
				json: true,
			});
			out.push({ json, pairedItem: { item: i } });
		}
		return [out];
	}
}

/** Test-only node: fails on items whose `fail` is true; honours continueOnFail like real nodes. */
class FailingNode implements INodeType {
	description = testNode('action', 'Failing', 'failing');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			try {
				if (items[i].json.fail)
					throw new NodeOperationError(this.getNode(), `Item ${i} failed`, { itemIndex: i });
				out.push({ json: { ok: i }, pairedItem: { item: i } });
			} catch (error) {
				if (!this.continueOnFail()) throw error;
				out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
			}
		}
		return [out];
	}
}

/** Test-only trigger: registers its URL at {baseUrl}/hooks on activation, accepts PUTs with x-token: good. */
class HookTrigger implements INodeType {
	description = testNode('trigger', 'Hook Trigger', 'hookTrigger', {
		credentials: [{ name: 'knolyxApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'PUT', responseMode: 'onReceived', path: 'webhook' }],
	});

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node');
				return data.hookId !== undefined && hooks.has(data.hookId as string);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const { baseUrl: api } = await this.getCredentials<{ baseUrl: string }>('knolyxApi');
				const created = (await this.helpers.httpRequestWithAuthentication.call(this, 'knolyxApi', {
					method: 'POST',
					url: `${api}/hooks`,
					body: { url: this.getNodeWebhookUrl('default'), mode: this.getActivationMode() },
					json: true,
				})) as IDataObject;
				this.getWorkflowStaticData('node').hookId = created.id;
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node');
				const { baseUrl: api } = await this.getCredentials<{ baseUrl: string }>('knolyxApi');
				await this.helpers.httpRequestWithAuthentication.call(this, 'knolyxApi', {
					method: 'DELETE',
					url: `${api}/hooks/${data.hookId as string}`,
				});
				delete data.hookId;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		if (req.header('x-token') !== 'good') {
			this.getResponseObject().status(401).send('bad token');
			return { noWebhookResponse: true };
		}
		const body = this.getBodyData();
		if (body.ping) return {};
		return {
			workflowData: [
				this.helpers.returnJsonArray({
					body,
					method: req.method,
					raw: (req as unknown as { rawBody: Buffer }).rawBody.toString(),
					seenUrl: this.getNodeWebhookUrl('default'),
				}),
			],
		};
	}
}

const hooks = new Map<string, IDataObject>();
let server: Server;
let baseUrl: string;
const seen: Array<Record<string, unknown>> = [];

beforeAll(async () => {
	const app = express();
	app.get('/echo/:id', (req, res) => {
		seen.push(req.headers);
		if (req.header('x-api-key') !== 'secret-key' || req.header('x-project-id') !== 'proj-1') {
			res.status(401).json({ message: 'bad key' });
			return;
		}
		res.json({ id: req.params.id });
	});
	app.get('/public/api/v1/key', (req, res) => {
		if (req.header('x-api-key') === 'secret-key') res.json({ name: 'key' });
		else res.status(401).json({ message: 'Invalid API key' });
	});
	app.use(express.json());
	app.post('/hooks', (req, res) => {
		if (req.header('x-api-key') !== 'secret-key') {
			res.status(401).json({ message: 'bad key' });
			return;
		}
		const id = `hook-${hooks.size + 1}`;
		hooks.set(id, req.body);
		res.json({ id });
	});
	app.delete('/hooks/:id', (req, res) => {
		hooks.delete(req.params.id);
		res.status(204).end();
	});
	server = app.listen(0, '127.0.0.1');
	await new Promise((resolve) => server.once('listening', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

const credentials = () => ({ knolyxApi: { baseUrl, projectId: 'proj-1', apiKey: 'secret-key' } });

describe('runWorkflow', () => {
	it('runs Manual Trigger → Set Items → node with real HTTP and the credential headers', async () => {
		const result = await runWorkflow({
			...manualWorkflow({
				items: [{ id: 'x' }, { id: 'y' }],
				steps: [
					{ name: 'Echo', type: 'n8n-nodes-knolyx.echo', parameters: { id: '={{ $json.id }}' } },
				],
			}),
			nodeTypes: createNodeTypes([new EchoNode()]),
			credentials: credentials(),
			credentialTypes: [new KnolyxApi()],
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Echo').map((i) => i.json)).toEqual([{ id: 'x' }, { id: 'y' }]);
		expect(seen.at(-1)).toMatchObject({ 'x-api-key': 'secret-key', 'x-project-id': 'proj-1' });
	});
});

describe('runNode', () => {
	/** The Failing node on a good item and a failing one. */
	const runFailing = async (continueOnFail?: boolean) =>
		await runNode({
			nodeType: new FailingNode(),
			type: 'test.failing',
			parameters: {},
			items: [{ fail: false }, { fail: true }],
			credentials: {},
			credentialTypes: [],
			continueOnFail,
		});

	it('reports the node error when continueOnFail is off', async () => {
		const { items, error } = await runFailing();
		expect(items).toEqual([]);
		expect(error?.message).toBe('Item 1 failed');
	});

	it('yields an error item with pairedItem under continueOnFail', async () => {
		const { items, error } = await runFailing(true);
		expect(error).toBeUndefined();
		expect(items).toEqual([
			{ json: { ok: 0 }, pairedItem: { item: 0 } },
			{ json: { error: 'Item 1 failed' }, pairedItem: { item: 1 } },
		]);
	});

	it('sends a 401 as a node error when the key is wrong', async () => {
		const { error } = await runNode({
			nodeType: new EchoNode(),
			type: 'n8n-nodes-knolyx.echo',
			parameters: { id: 'z' },
			items: [{}],
			credentials: { knolyxApi: { baseUrl, projectId: 'proj-1', apiKey: 'wrong' } },
			credentialTypes: [new KnolyxApi()],
		});
		expect(error?.message).toBe('Authorization failed - please check your credentials');
	});
});

describe('testCredential', () => {
	it('is OK on 200', async () => {
		expect(
			await testCredential(new KnolyxApi(), {
				baseUrl: `${baseUrl}/`,
				projectId: 'p',
				apiKey: 'secret-key',
			}),
		).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	});

	it('gives a clear error on 401', async () => {
		// n8n's CredentialsTester reports the credential's rule message for a matching status.
		expect(
			await testCredential(new KnolyxApi(), { baseUrl, projectId: 'p', apiKey: 'nope' }),
		).toEqual({
			status: 'Error',
			message: expect.stringContaining('Knolyx refused the API key or the project ID (401)'),
		});
	});

	it('gives the network error code when nothing listens', async () => {
		expect(
			await testCredential(new KnolyxApi(), {
				baseUrl: 'http://127.0.0.1:1',
				projectId: 'p',
				apiKey: 'k',
			}),
		).toEqual({
			status: 'Error',
			message: 'ECONNREFUSED',
		});
	});
});

describe('TriggerHost', () => {
	const hosts = triggerHosts();
	afterEach(() => hosts.endAll());
	const start = () =>
		hosts.start({
			nodeType: new HookTrigger(),
			type: 'n8n-nodes-knolyx.hookTrigger',
			parameters: {},
			credentials: credentials(),
			credentialTypes: [new KnolyxApi()],
			webhookId: 'abc-123',
		});
	const put = async (url: string, body: unknown, token = 'good') =>
		await fetch(url, {
			method: 'PUT',
			headers: { 'content-type': 'application/json', 'x-token': token },
			body: JSON.stringify(body),
		});

	it('builds test and production URLs the way n8n does', async () => {
		const host = await start();
		expect(host.url('trigger')).toBe(`${host.baseUrl}/webhook/abc-123/webhook`);
		expect(host.url('manual')).toBe(`${host.baseUrl}/webhook-test/abc-123/webhook`);
	});

	it('activates (create with the production URL), runs webhook() on a real PUT, deactivates (delete)', async () => {
		const host = await start();
		await host.activate('trigger');
		const hookId = host.nodeStaticData as IDataObject;
		expect(hookId).toEqual({ hookId: expect.any(String) });
		expect(hooks.get(hookId.hookId as string)).toEqual({
			url: host.url('trigger'),
			mode: 'activate',
		});

		// checkExists true → no second create
		const count = hooks.size;
		await host.activate('trigger');
		expect(hooks.size).toBe(count);

		const ok = await put(host.url('trigger'), { event: 'course.completed' });
		expect(ok.status).toBe(200);
		expect(await ok.json()).toEqual({ message: 'Workflow was started' });
		expect(host.executions()).toHaveLength(1);
		expect(host.executions()[0][0].json).toEqual({
			body: { event: 'course.completed' },
			method: 'PUT',
			raw: '{"event":"course.completed"}',
			seenUrl: host.url('trigger'),
		});

		const denied = await put(host.url('trigger'), { event: 'x' }, 'bad');
		expect(denied.status).toBe(401);
		expect(await denied.text()).toBe('bad token');

		const ping = await put(host.url('trigger'), { ping: true });
		expect(await ping.json()).toEqual({ message: 'Webhook call received' });
		expect(host.executions()).toHaveLength(1);

		expect((await put(host.url('manual'), {})).status).toBe(404);
		expect((await fetch(host.url('trigger'), { method: 'POST' })).status).toBe(404);

		await host.deactivate('trigger');
		expect(hooks.has(hookId.hookId as string)).toBe(false);
		expect(host.nodeStaticData).toEqual({});
		expect((await put(host.url('trigger'), {})).status).toBe(404);
	});

	it('test mode: registers the webhook-test URL, keeps its own static data, removes itself after one execution', async () => {
		const host = await start();
		await host.activate('manual');
		const id = (host.testStaticData?.['node:Hook Trigger'] as IDataObject).hookId as string;
		expect(hooks.get(id)).toEqual({ url: host.url('manual'), mode: 'manual' });
		expect(host.staticData).toEqual({});
		expect(host.nodeStaticData).toBeUndefined();

		const res = await put(host.url('manual'), { n: 1 });
		expect(res.status).toBe(200);
		expect(host.executions()[0][0].json.body).toEqual({ n: 1 });
		// Like n8n, webhook() sees the production URL from getNodeWebhookUrl even on the test path.
		expect(host.executions()[0][0].json.seenUrl).toBe(host.url('trigger'));
		expect(hooks.has(id)).toBe(false);
		expect((await put(host.url('manual'), { n: 2 })).status).toBe(404);
	});
});
