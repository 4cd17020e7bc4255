/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
import { Container } from '@n8n/di';
import type {
	ICredentialType,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { PollContext, PollTriggerExecutor } from 'n8n-core';

import { createAdditionalData } from './context';
import { HarnessCredentialsHelper, type HarnessCredentials } from './credentials-helper';
import { createNodeTypes } from './node-types';

export interface PollHostOptions {
	nodeType: INodeType | IVersionedNodeType;
	/** Node type name, e.g. 'n8n-nodes-knolyx.knolyxPollTrigger'. */
	type: string;
	parameters: INodeParameters;
	credentials: HarnessCredentials;
	credentialTypes: ICredentialType[];
	/** The workflow's static data as saved in n8n's database (a restart reloads it from there). */
	savedStaticData?: IDataObject;
	/** Workflow ID; polls of one node in one process are told apart by workflow and node ID. */
	workflowId?: string;
	nodeName?: string;
}

/** What one poll tick did. */
export interface PollTick {
	/** Items of the execution the tick started, if it started one. */
	emitted?: INodeExecutionData[];
	/** The error n8n records as a failed execution of the trigger, if the poll failed. */
	error?: Error;
}

export interface PollHost {
	readonly node: INode;
	/** The static data in memory (n8n's workflow object). */
	readonly staticData: IDataObject;
	/** `staticData['node:<name>']`, what the node reads via getWorkflowStaticData('node'). */
	readonly nodeStaticData: IDataObject | undefined;
	/** The static data as last saved to the database (plain JSON); what a restart starts from. */
	readonly saved: IDataObject;
	/**
	 * Publishing ('activate') or n8n starting with the workflow published ('init'): n8n runs one
	 * poll at once (an error fails the activation) and then saves the static data.
	 */
	activate(activation?: 'activate' | 'init'): Promise<PollTick>;
	/** One scheduled tick, as n8n's poll executor runs it when the Poll Times schedule fires. */
	tick(): Promise<PollTick>;
	/** Items of every execution the ticks started, oldest first. */
	executions(): INodeExecutionData[][];
}

/**
 * Hosts one polling trigger node the way n8n does in production: n8n-core's PollTriggerExecutor
 * runs node.poll() with n8n-core's PollContext (mode 'trigger'); a poll that returns items starts
 * an execution and saves the static data (n8n's __emit), one that fails is recorded as a failed
 * execution (__emitError) and saves nothing, one that returns null saves nothing either (n8n keeps
 * the change in memory only). Publishing runs a first poll at once and then saves the static data.
 */
export function startPollHost(opts: PollHostOptions): PollHost {
	const nodeTypes = createNodeTypes({ [opts.type]: opts.nodeType });
	const nodeType = NodeHelpers.getVersionedNodeType(opts.nodeType);
	const version = nodeType.description.version;
	const node: INode = {
		id: 'poll-node',
		name: opts.nodeName ?? nodeType.description.defaults.name ?? 'Poll Trigger',
		type: opts.type,
		typeVersion: Array.isArray(version) ? Math.max(...version) : version,
		position: [0, 0],
		parameters: opts.parameters,
		credentials: Object.fromEntries(
			(nodeType.description.credentials ?? [])
				.filter(({ name }) => opts.credentials[name])
				.map(({ name }) => [name, { id: `test-${name}`, name: `Test ${name}` }]),
		),
	};
	const helper = new HarnessCredentialsHelper(opts.credentialTypes, opts.credentials);
	const copy = (data: IDataObject) => JSON.parse(JSON.stringify(data)) as IDataObject;
	let saved = copy(opts.savedStaticData ?? {});
	const workflow = new Workflow({
		id: opts.workflowId ?? 'harness-poll-workflow',
		name: 'Harness poll workflow',
		nodes: [node],
		connections: {},
		nodeTypes,
		active: true,
		staticData: copy(saved),
	});
	const save = () => {
		// WorkflowStaticDataService.saveStaticData: only when n8n's observable says it changed.
		if (workflow.staticData.__dataChanged === true) {
			saved = copy(workflow.staticData);
			workflow.staticData.__dataChanged = false;
		}
	};
	const executions: INodeExecutionData[][] = [];
	// n8n builds the poll context once, at activation, and reuses it for every tick.
	let activation: WorkflowActivateMode = 'activate';
	const executor = Container.get(PollTriggerExecutor);

	const run = async (testingTrigger: boolean): Promise<PollTick> => {
		const tick: PollTick = {};
		const context = new PollContext(
			workflow,
			node,
			createAdditionalData(helper),
			'trigger',
			activation,
			(data) => {
				save();
				tick.emitted = data[0] ?? [];
				executions.push(tick.emitted);
			},
			(error) => {
				tick.error = error;
			},
		);
		try {
			await executor.create(workflow, node, context, () => true)(testingTrigger);
		} catch (error) {
			tick.error = error as Error;
		}
		return tick;
	};

	return {
		node,
		get staticData() {
			return workflow.staticData;
		},
		get nodeStaticData() {
			return workflow.staticData[`node:${node.name}`] as IDataObject | undefined;
		},
		get saved() {
			return saved;
		},
		async activate(mode = 'activate') {
			activation = mode;
			const tick = await run(true);
			if (!tick.error) save();
			return tick;
		},
		tick: async () => await run(false),
		executions: () => executions,
	};
}
