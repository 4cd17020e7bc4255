/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
import express, { type Request, type Response } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WebhookSetupMethodNames,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { HookContext, WebhookContext } from 'n8n-core';

import { createAdditionalData } from './context';
import { HarnessCredentialsHelper, type HarnessCredentials } from './credentials-helper';
import { createNodeTypes } from './node-types';

/** 'trigger' = the active (production) workflow, /webhook/…; 'manual' = the editor's test listen, /webhook-test/…. */
export type TriggerMode = 'trigger' | 'manual';

export interface TriggerHostOptions {
	nodeType: INodeType | IVersionedNodeType;
	/** Node type name, e.g. 'n8n-nodes-knolyx.knolyxTrigger'. */
	type: string;
	parameters: INodeParameters;
	credentials: HarnessCredentials;
	credentialTypes: ICredentialType[];
	/** Public base the node is told about (like n8n's WEBHOOK_URL); defaults to the host's own http://127.0.0.1:PORT. */
	webhookBaseUrl?: string;
	/** The node's webhookId (n8n assigns a UUID when the node is added); default 'harness-webhook-id'. */
	webhookId?: string;
	typeVersion?: number;
	nodeName?: string;
	/**
	 * n8n creating the execution of a delivery the node took (WorkflowRunner.run), which may
	 * fail (its database locked). Given, the host does what n8n 2.x does for a production
	 * delivery: it loads the static data afresh for the delivery, and only once this resolves
	 * records the execution, saves that static data (whole, last writer wins) and answers; when
	 * it rejects, it answers 500 and saves nothing. Without it, executions are always created
	 * and static data stays in place.
	 */
	createExecution?: (items: INodeExecutionData[]) => Promise<void>;
}

export interface TriggerHost {
	readonly node: INode;
	/** http://127.0.0.1:PORT — where the host actually listens. */
	readonly baseUrl: string;
	/** The saved workflow's static data (survives activate/deactivate, as in n8n). */
	readonly staticData: IDataObject;
	/** `staticData['node:<node name>']`, what the node reads via getWorkflowStaticData('node'). */
	readonly nodeStaticData: IDataObject | undefined;
	/** Static data of the current test registration (n8n keeps it apart and discards it afterwards). */
	readonly testStaticData: IDataObject | undefined;
	/** The URL the node gets from getNodeWebhookUrl(name) in that mode. */
	url(mode: TriggerMode, name?: string): string;
	activate(mode: TriggerMode): Promise<void>;
	deactivate(mode: TriggerMode): Promise<void>;
	/** Items (first output) of every execution the webhook started, oldest first. */
	executions(): INodeExecutionData[][];
	/**
	 * Resolves once no request is being handled: every request the host received has been
	 * answered and its execution, if any, recorded. A request whose answer the caller (or the
	 * sandbox) has seen was received, so after `await idle()` nothing of it is still to come.
	 */
	idle(): Promise<void>;
	/** Resolves once `check()` holds: checked now and after each request the host has handled. */
	until(check: () => boolean): Promise<void>;
	close(): Promise<void>;
}

/**
 * Hosts one trigger node the way n8n's webhook server does: activation runs the node's
 * webhookMethods (checkExists → create) with n8n-core's HookContext, requests to
 * /webhook/<path> and /webhook-test/<path> run node.webhook() with n8n-core's WebhookContext
 * over the real express req/res, and the answer follows n8n's defaults.
 */
export async function startTriggerHost(opts: TriggerHostOptions): Promise<TriggerHost> {
	const nodeTypes = createNodeTypes({ [opts.type]: opts.nodeType });
	const nodeType = NodeHelpers.getVersionedNodeType(opts.nodeType, opts.typeVersion);
	const version = nodeType.description.version;
	const node: INode = {
		id: 'trigger-node',
		name: opts.nodeName ?? nodeType.description.defaults.name ?? 'Trigger',
		type: opts.type,
		typeVersion: opts.typeVersion ?? (Array.isArray(version) ? Math.max(...version) : version),
		position: [0, 0],
		parameters: opts.parameters,
		webhookId: opts.webhookId ?? 'harness-webhook-id',
		credentials: Object.fromEntries(
			(nodeType.description.credentials ?? [])
				.filter(({ name }) => opts.credentials[name])
				.map(({ name }) => [name, { id: `test-${name}`, name: `Test ${name}` }]),
		),
	};
	const helper = new HarnessCredentialsHelper(opts.credentialTypes, opts.credentials);
	const newWorkflow = (staticData: IDataObject) =>
		new Workflow({
			id: 'harness-workflow',
			name: 'Harness workflow',
			nodes: [node],
			connections: {},
			nodeTypes,
			active: false,
			staticData,
		});

	const saved = newWorkflow({});
	let test: Workflow | undefined;
	const registered: Record<TriggerMode, IWebhookData[]> = { trigger: [], manual: [] };
	const executions: INodeExecutionData[][] = [];
	/** Requests being handled, and who waits for the next one to be done. */
	let inFlight = 0;
	let waiting: Array<() => void> = [];
	const handled = () => {
		const wake = waiting;
		waiting = [];
		for (const resolve of wake) resolve();
	};
	const nextHandled = async () => await new Promise<void>((resolve) => waiting.push(resolve));

	const app = express();
	const server: Server = app.listen(0, '127.0.0.1');
	await new Promise((resolve) => server.once('listening', resolve));
	const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const publicBase = (opts.webhookBaseUrl ?? baseUrl).replace(/\/+$/, '');
	const additionalData = (extra: Partial<IWorkflowExecuteAdditionalData> = {}) =>
		createAdditionalData(helper, publicBase, extra);

	/** What n8n's WebhookService.getNodeWebhooks registers for the node (static paths only). */
	const webhooksOf = (workflow: Workflow, isTest: boolean): IWebhookData[] =>
		(nodeType.description.webhooks ?? []).flatMap((description) => {
			const get = (value: unknown, fallback?: string | boolean) =>
				workflow.expression.getSimpleParameterValue(
					node,
					value as string,
					'internal',
					{},
					undefined,
					fallback,
				);
			const nodePath = String(get(description.path)).replace(/^\/|\/$/g, '');
			const path = NodeHelpers.getNodeWebhookPath(
				workflow.id,
				node,
				nodePath,
				get(description.isFullPath, false) as boolean,
			);
			return String(get(description.httpMethod, 'GET'))
				.split(',')
				.map((method) => ({
					httpMethod: method.trim() as IHttpRequestMethods,
					node: node.name,
					path,
					webhookDescription: description,
					workflowId: workflow.id,
					workflowExecuteAdditionalData: additionalData(),
					isTest,
				}));
		});

	const runSetup = async (
		method: WebhookSetupMethodNames,
		workflow: Workflow,
		webhook: IWebhookData,
		mode: WorkflowExecuteMode,
		activation: WorkflowActivateMode,
	) => {
		const fn = nodeType.webhookMethods?.[webhook.webhookDescription.name]?.[method];
		if (!fn) return undefined;
		return await fn.call(
			new HookContext(
				workflow,
				node,
				webhook.workflowExecuteAdditionalData,
				mode,
				activation,
				webhook,
			),
		);
	};

	const host: TriggerHost = {
		node,
		baseUrl,
		get staticData() {
			return saved.staticData;
		},
		get nodeStaticData() {
			return saved.staticData[`node:${node.name}`] as IDataObject | undefined;
		},
		get testStaticData() {
			return test?.staticData;
		},
		url(mode, name = 'default') {
			const webhook = webhooksOf(saved, mode === 'manual').find(
				(w) => w.webhookDescription.name === name,
			);
			if (!webhook) throw new Error(`The node has no webhook named "${name}"`);
			return `${publicBase}/${mode === 'manual' ? 'webhook-test' : 'webhook'}/${webhook.path}`;
		},
		async activate(mode) {
			// Production: ActiveWorkflowManager adds webhooks with mode 'trigger', activation 'activate'.
			// Test: TestWebhooks registers first, then creates with mode and activation 'manual',
			// on a workflow copy whose static data is kept with the registration only.
			const workflow =
				mode === 'trigger'
					? saved
					: (test = newWorkflow(JSON.parse(JSON.stringify(saved.staticData ?? {}))));
			for (const webhook of webhooksOf(workflow, mode === 'manual')) {
				registered[mode].push(webhook);
				if (
					!(await runSetup(
						'checkExists',
						workflow,
						webhook,
						mode,
						mode === 'trigger' ? 'activate' : 'manual',
					))
				) {
					await runSetup(
						'create',
						workflow,
						webhook,
						mode,
						mode === 'trigger' ? 'activate' : 'manual',
					);
				}
			}
		},
		async deactivate(mode) {
			const workflow = mode === 'trigger' ? saved : test;
			for (const webhook of registered[mode].splice(0)) {
				if (workflow) await runSetup('delete', workflow, webhook, 'internal', 'update');
			}
			// A listener started while this one was being removed keeps its registration.
			if (mode === 'manual' && test === workflow) test = undefined;
		},
		executions: () => executions,
		async idle() {
			while (inFlight > 0) await nextHandled();
		},
		async until(check) {
			while (!check()) await nextHandled();
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};

	// Body as n8n's webhook server hands it over (webhook-helpers parseRequestBody): for a node of
	// version 1 every body is read, parsed JSON / form / text in req.body, the bytes in req.rawBody;
	// for later versions only JSON, text, form and XML bodies, any other is left unread behind
	// req.readRawBody (n8n's rawBodyReader).
	app.use(express.raw({ type: () => true, limit: '16mb' }));
	app.use(async (req: Request, res: Response) => {
		inFlight++;
		try {
			await handle(req, res);
		} finally {
			inFlight--;
			handled();
		}
	});

	async function handle(req: Request, res: Response): Promise<void> {
		const match = /^\/(webhook|webhook-test)\/(.+?)\/*$/.exec(req.path);
		const mode: TriggerMode = match?.[1] === 'webhook-test' ? 'manual' : 'trigger';
		const path = match?.[2] ?? '';
		const webhook = registered[mode].find((w) => w.path === path && w.httpMethod === req.method);
		const loadsAfresh = mode === 'trigger' && opts.createExecution !== undefined;
		const workflow =
			mode === 'trigger'
				? loadsAfresh
					? newWorkflow(JSON.parse(JSON.stringify(saved.staticData)) as IDataObject)
					: saved
				: test;
		if (!match || !webhook || !workflow) {
			res.status(404).json({
				code: 404,
				message: `The requested webhook "${req.method} ${path}" is not registered.`,
			});
			return;
		}
		const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
		const contentType = req.header('content-type') ?? '';
		const unread = req as Request & { rawBody?: Buffer; readRawBody?: () => Promise<void> };
		unread.readRawBody = async () => {
			unread.rawBody = raw;
		};
		if (
			node.typeVersion > 1 &&
			!/^(application\/json|text\/plain|application\/x-www-form-urlencoded)|[/+]xml(;|$)/i.test(
				contentType,
			)
		) {
			req.body = undefined;
		} else {
			unread.rawBody = raw;
			try {
				req.body = parseBody(raw, contentType);
			} catch {
				res.status(422).json({ code: 422, message: 'Failed to parse request body' });
				return;
			}
		}

		const executeMode: WorkflowExecuteMode = mode === 'manual' ? 'manual' : 'webhook';
		let result: IWebhookResponseData;
		try {
			const data = {
				...webhook,
				workflowExecuteAdditionalData: additionalData({ httpRequest: req, httpResponse: res }),
			};
			const context = new WebhookContext(
				workflow,
				node,
				data.workflowExecuteAdditionalData,
				executeMode,
				data,
				[],
				null,
			);
			result = (await nodeType.webhook!.call(context)) as IWebhookResponseData;
		} catch (error) {
			res.status(500).json({
				code: 0,
				message: 'Workflow Webhook Error: Workflow could not be started!',
				error: (error as Error).message,
			});
			return;
		}
		if (result.workflowData !== undefined && loadsAfresh) {
			try {
				await opts.createExecution!(result.workflowData[0] ?? []);
			} catch (error) {
				if (!res.headersSent)
					res.status(500).json({
						code: 0,
						message: 'There was a problem executing the workflow',
						error: (error as Error).message,
					});
				return;
			}
		}
		if (result.workflowData !== undefined) {
			const items = result.workflowData[0] ?? [];
			executions.push(items);
			// n8n removes test webhooks (running their delete) once a test call started an execution.
			// It does so after answering; done first here so a test sees the removal when its request returns.
			if (mode === 'manual') await host.deactivate('manual');
			// responseMode 'responseNode': the execution answers. Its first node is the trigger, which
			// n8n runs (execute(), when the node has one) with the webhook's items; its sendResponse
			// answers the request. n8n answers itself only if the execution ends without a response.
			if (webhook.webhookDescription.responseMode === 'responseNode' && nodeType.execute) {
				const respond = async (response: IDataObject) => {
					if (res.headersSent) return;
					res
						.status(Number(response.statusCode ?? 200))
						.set((response.headers ?? {}) as Record<string, string>);
					if (Buffer.isBuffer(response.body)) res.end(response.body);
					else res.json(response.body);
				};
				await nodeType.execute.call({
					getInputData: () => items,
					getNode: () => node,
					getWorkflow: () => ({ id: workflow.id, name: workflow.name, active: workflow.active }),
					getMode: () => executeMode,
					getNodeParameter: (name: string, _item: number, fallback?: unknown) =>
						node.parameters[name] ?? fallback,
					// The execution's static data: here the delivery's own (saved below with it).
					getWorkflowStaticData: (type: string) => workflow.getStaticData(type, node),
					sendResponse: respond,
				} as unknown as IExecuteFunctions);
				if (!res.headersSent) res.status(200).json({ message: 'Workflow executed successfully' });
			}
			if (loadsAfresh) {
				// n8n saves the static data of this delivery (and of its execution), whole.
				const copy = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
				for (const key of Object.keys(saved.staticData)) delete saved.staticData[key];
				Object.assign(saved.staticData, copy);
			}
		}
		if (!result.noWebhookResponse && !res.headersSent) {
			const fallback =
				result.workflowData === undefined ? 'Webhook call received' : 'Workflow was started';
			res.status(200).json(result.webhookResponse ?? { message: fallback });
		}
	}

	return host;
}

/**
 * n8n's parseBody (cli middlewares/body-parser, with n8n-core's parseIncomingMessage): the media
 * type is compared exactly, the text decoded with the declared charset as a Node Buffer encoding
 * (default utf-8); a charset Node does not know ("iso-8859-1") or a body that does not parse
 * throws, which n8n answers 422. A type it does not parse leaves the body empty.
 */
function parseBody(raw: Buffer, contentType: string): unknown {
	if (raw.length === 0) return {};
	const [type, ...parameters] = contentType.split(';');
	const mediaType = type.trim().toLowerCase();
	const charset =
		/charset\s*=\s*"?([^";]+)/i.exec(parameters.join(';'))?.[1]?.trim().toLowerCase() ?? 'utf-8';
	const text = () => raw.toString(charset as BufferEncoding);
	if (mediaType === 'application/json') return JSON.parse(text());
	if (mediaType === 'application/x-www-form-urlencoded')
		return Object.fromEntries(new URLSearchParams(text()));
	if (mediaType === 'text/plain') return text();
	return {};
}

export interface TriggerHosts {
	/** startTriggerHost, remembered for endAll. */
	start(opts: TriggerHostOptions): Promise<TriggerHost>;
	/** Deactivates every started host's test and production registrations (a failure is ignored: the test may have broken it on purpose) and closes it. */
	endAll(): Promise<void>;
}

/** The trigger hosts of a test file, ended together: `const hosts = triggerHosts(); afterEach(() => hosts.endAll());`. */
export function triggerHosts(): TriggerHosts {
	let open: TriggerHost[] = [];
	return {
		async start(opts) {
			const host = await startTriggerHost(opts);
			open.push(host);
			return host;
		},
		async endAll() {
			const ending = open;
			open = [];
			for (const host of ending) {
				for (const mode of ['manual', 'trigger'] as const)
					await host.deactivate(mode).catch(() => undefined);
				await host.close();
			}
		},
	};
}
