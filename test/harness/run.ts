import type {
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
} from 'n8n-workflow';
import { createRunExecutionData, NodeHelpers, Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';

import { createAdditionalData } from './context';
import { HarnessCredentialsHelper, type HarnessCredentials } from './credentials-helper';
import { createNodeTypes } from './node-types';
import { manualWorkflow } from './workflow';

export interface RunWorkflowOptions {
	nodes: INode[];
	connections: IConnections;
	nodeTypes: INodeTypes;
	credentials: HarnessCredentials;
	credentialTypes: ICredentialType[];
}

export interface RunWorkflowResult {
	data: IRun;
	/** First (main) output of the node's last run; [] when it did not run or failed. */
	output(nodeName: string): INodeExecutionData[];
	/** Every main output of the node's last run (with *Continue (using error output)*: [success, error]). */
	outputs(nodeName: string): INodeExecutionData[][];
	/** The execution's error (a node that failed without continueOnFail), if any. */
	error?: Error;
	/** How often each credential type was loaded and decrypted during the run. */
	credentialReads: Record<string, number>;
}

/**
 * Gives each node a reference to every credential its type declares and the test provides
 * (as n8n stores `{ id, name }` on saved nodes), unless the node already names one.
 */
function attachCredentials(
	node: INode,
	nodeTypes: INodeTypes,
	credentials: HarnessCredentials,
): INode {
	const type = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const refs = { ...node.credentials };
	for (const { name } of type.description.credentials ?? []) {
		if (credentials[name] && !refs[name]) refs[name] = { id: `test-${name}`, name: `Test ${name}` };
	}
	return Object.keys(refs).length ? { ...node, credentials: refs } : node;
}

/** n8n-workflow's safeRegex runs a check in a `vm` limited to 250 ms and throws this on time-out. */
const REGEX_TIME_LIMIT = 'Regular expression execution timed out';
const REGEX_TRIES = 3;

/**
 * Starts a run; when n8n-core's check of the parameters before the run (a fixed resource-locator
 * ID goes through safeRegex) hits the regex time limit, starts it again. That check throws before
 * any node runs, so nothing was sent; on a loaded machine the limit passes while the `vm` waits
 * for a CPU. Any other error, and the third time-out, is the caller's.
 */
async function checkedRun(start: () => Promise<unknown>): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		try {
			await start();
			return;
		} catch (error) {
			const retry =
				attempt < REGEX_TRIES && (error as Error | undefined)?.message === REGEX_TIME_LIMIT;
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test harness: the run's own error, passed on unchanged
			if (!retry) throw error;
		}
	}
}

/**
 * Runs workflow JSON in-process with n8n-core's WorkflowExecute in 'manual' mode, starting at
 * the workflow's trigger (as n8n's own nodes-testing harness does), and waits for the
 * `workflowExecuteAfter` lifecycle hook.
 */
export async function runWorkflow(opts: RunWorkflowOptions): Promise<RunWorkflowResult> {
	const nodes = opts.nodes.map((node) => attachCredentials(node, opts.nodeTypes, opts.credentials));
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness workflow',
		nodes,
		connections: opts.connections,
		nodeTypes: opts.nodeTypes,
		active: false,
	});
	const startNode = workflow.getStartNode();
	if (!startNode) throw new Error('The workflow has no start node');

	const helper = new HarnessCredentialsHelper(opts.credentialTypes, opts.credentials);
	const hooks = new ExecutionLifecycleHooks('manual', 'harness-execution', {
		id: workflow.id,
		name: workflow.name,
		nodes,
		connections: opts.connections,
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	const finished = new Promise<IRun>((resolve) =>
		hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)),
	);
	const additionalData = createAdditionalData(helper, undefined, {
		hooks,
		executionId: 'harness-execution',
	});

	const runExecutionData: IRunExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});
	await checkedRun(() =>
		new WorkflowExecute(additionalData, 'manual', runExecutionData).processRunExecutionData(
			workflow,
		),
	);
	const data = await finished;

	const runData = data.data.resultData.runData;
	return {
		data,
		output: (nodeName) => runData[nodeName]?.at(-1)?.data?.main?.[0] ?? [],
		outputs: (nodeName) =>
			(runData[nodeName]?.at(-1)?.data?.main ?? []).map((items) => items ?? []),
		error: data.data.resultData.error as Error | undefined,
		credentialReads: helper.reads,
	};
}

export interface RunNodeOptions {
	nodeType: INodeType | IVersionedNodeType;
	/** The node type name used in the workflow, e.g. 'n8n-nodes-knolyx.knolyx'. */
	type: string;
	parameters: INodeParameters;
	items: IDataObject[];
	credentials: HarnessCredentials;
	credentialTypes: ICredentialType[];
	continueOnFail?: boolean;
	/** The node's *On Error* setting; `continueOnFail: true` is `continueRegularOutput`. */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	typeVersion?: number;
}

/** Runs Manual Trigger → Set Items (opts.items) → the node under test; returns the node's output. */
export async function runNode(opts: RunNodeOptions): Promise<{
	items: INodeExecutionData[];
	errorItems: INodeExecutionData[];
	error?: Error;
	run: IRun;
	credentialReads: Record<string, number>;
}> {
	const description = NodeHelpers.getVersionedNodeType(opts.nodeType, opts.typeVersion).description;
	const latest = Array.isArray(description.version)
		? Math.max(...description.version)
		: description.version;
	const onError = opts.onError ?? (opts.continueOnFail ? 'continueRegularOutput' : undefined);
	const result = await runWorkflow({
		...manualWorkflow({
			items: opts.items,
			steps: [
				{
					name: 'Node',
					type: opts.type,
					typeVersion: opts.typeVersion ?? latest,
					parameters: opts.parameters,
					onError,
				},
			],
		}),
		nodeTypes: createNodeTypes({ [opts.type]: opts.nodeType }),
		credentials: opts.credentials,
		credentialTypes: opts.credentialTypes,
	});
	const [items = [], errorItems = []] = result.outputs('Node');
	return {
		items,
		errorItems,
		error: result.error,
		run: result.data,
		credentialReads: result.credentialReads,
	};
}
