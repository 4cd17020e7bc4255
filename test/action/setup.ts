/**
 * Shared set-up of the action-node workflow tests: one sandbox per test file (real HTTP on
 * 127.0.0.1), reset to the demo seed before every test, and small builders for the node's
 * parameters, credentials and workflows.
 */
import type {
	IDataObject,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
} from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import type { Rule } from '../../nodes/Knolyx/helpers/rules';
import { changeText } from '../../nodes/Knolyx/helpers/rule-changes';
import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';
import {
	DEMO,
	startSandbox,
	type DemoIds,
	type Sandbox,
	type SandboxOptions,
	type SandboxStats,
} from '../../sandbox';
import {
	callListSearch,
	createNodeTypes,
	manualWorkflow,
	runNode,
	runWorkflow,
	testCredential,
	type RunNodeOptions,
	type TriggerHostOptions,
	type WorkflowStep,
} from '../harness';
import { startScriptedProxy } from '../faults/proxy';

export { DEMO };
export type { Sandbox, DemoIds };

export const NODE_TYPE = 'knolyx';

export interface SandboxHandle {
	/** The running sandbox. */
	readonly sandbox: Sandbox;
	/** Ids of the demo seed, fresh for each test. */
	readonly demo: DemoIds;
}

/**
 * Starts one sandbox for the test file; before every test the state is reset to the demo seed,
 * faults are cleared and the request counters start at zero.
 */
export function useSandbox(opts: SandboxOptions = {}): SandboxHandle {
	let sandbox: Sandbox | undefined;
	let demo: DemoIds | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, seed: 'demo', deliveryBackoffMs: 20, ...opts });
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	beforeEach(() => {
		const s = sandbox as Sandbox;
		s.resetFaults();
		demo = s.reset('demo');
		s.resetStats();
	});
	return {
		get sandbox() {
			if (!sandbox) throw new Error('sandbox not started');
			return sandbox;
		},
		get demo() {
			if (!demo) throw new Error('sandbox not seeded');
			return demo;
		},
	};
}

/** A resource locator value in "By ID" mode. */
export function rl(id: number | string): { __rl: true; mode: 'id'; value: string } {
	return { __rl: true, mode: 'id', value: String(id) };
}

/** A resource locator value in "From List" mode (the value is the id the list returned). */
export function rlList(id: number | string): {
	__rl: true;
	mode: 'list';
	value: string;
	cachedResultName: string;
} {
	return { __rl: true, mode: 'list', value: String(id), cachedResultName: `#${id}` };
}

export interface CredentialData {
	baseUrl: string;
	projectId: string;
	apiKey: string;
}

export function credentialsFor(
	sandbox: Sandbox,
	over: Partial<CredentialData> = {},
): CredentialData {
	return { baseUrl: sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.apiKey, ...over };
}

/** The credential test's bound: 10 s (KnolyxApi.testTimeoutMs). */
export const CREDENTIAL_TEST_BOUND_MS = 10_000;

/**
 * Tests the credential (as n8n's credential tester does) with its bound shortened to `ms`, put
 * back after: a test of what the bound cuts does not wait the 10 s each time. The bound itself
 * stays 10 s, checked here every time.
 */
export async function testCredentialWithin(
	ms: number,
	data: CredentialData,
): Promise<INodeCredentialTestResult> {
	expect(KnolyxApi.testTimeoutMs).toBe(CREDENTIAL_TEST_BOUND_MS);
	KnolyxApi.testTimeoutMs = ms;
	try {
		return await testCredential(new KnolyxApi(), { ...data });
	} finally {
		KnolyxApi.testTimeoutMs = CREDENTIAL_TEST_BOUND_MS;
	}
}

/** A Knolyx Trigger for `events`, hosted against the sandbox with the demo credential. */
export function knolyxTrigger(sandbox: Sandbox, events: string[]): TriggerHostOptions {
	return {
		nodeType: new KnolyxTrigger(),
		type: 'n8n-nodes-knolyx.knolyxTrigger',
		parameters: { events, options: {} },
		credentials: { knolyxApi: { ...credentialsFor(sandbox) } },
		credentialTypes: [new KnolyxApi()],
	};
}

export interface RunOptions {
	continueOnFail?: boolean;
	credentials?: Partial<CredentialData>;
}

export interface RunResult {
	items: INodeExecutionData[];
	json: IDataObject[];
	error?: Error;
}

/** Manual Trigger → Set Items (`items`) → Knolyx (`parameters`); the Knolyx node's output. */
export async function run(
	sandbox: Sandbox,
	parameters: INodeParameters,
	items: IDataObject[] = [{}],
	opts: RunOptions = {},
): Promise<RunResult> {
	const result = await runNode({
		nodeType: new Knolyx(),
		type: NODE_TYPE,
		parameters,
		items,
		credentials: { knolyxApi: { ...credentialsFor(sandbox, opts.credentials) } },
		credentialTypes: [new KnolyxApi()],
		continueOnFail: opts.continueOnFail,
	});
	return { items: result.items, json: result.items.map((item) => item.json), error: result.error };
}

/** The node with an *On Error* setting (n8n-core routes failed items to the error output). */
export async function runWithOnError(
	sandbox: Sandbox,
	onError: RunNodeOptions['onError'],
	parameters: INodeParameters,
	items: IDataObject[],
) {
	return await runNode({
		nodeType: new Knolyx(),
		type: NODE_TYPE,
		parameters,
		items,
		credentials: { knolyxApi: { ...credentialsFor(sandbox) } },
		credentialTypes: [new KnolyxApi()],
		onError,
	});
}

/**
 * Runs the node on one empty item and expects a refusal before anything is sent: the run's error is
 * `message` (the exact text, or a pattern) and no request reached the sandbox.
 */
export async function expectRefused(
	sandbox: Sandbox,
	parameters: INodeParameters,
	message: string | RegExp,
): Promise<void> {
	const result = await run(sandbox, parameters);
	if (typeof message === 'string') expect(result.error?.message).toBe(message);
	else expect(result.error?.message).toMatch(message);
	expect(sandbox.stats().requests).toBe(0);
}

/** Like `run`, but fails the test with the node's error when the run failed. */
export async function runOk(
	sandbox: Sandbox,
	parameters: INodeParameters,
	items: IDataObject[] = [{}],
	opts: RunOptions = {},
): Promise<IDataObject[]> {
	const result = await run(sandbox, parameters, items, opts);
	if (result.error)
		throw new Error(`The node failed: ${result.error.message} ${describeError(result.error)}`);
	return result.json;
}

function describeError(error: Error): string {
	const description = (error as { description?: unknown }).description;
	return typeof description === 'string' ? `(${description})` : '';
}

export interface ChainStep {
	name: string;
	parameters: INodeParameters;
	continueOnFail?: boolean;
	/** n8n's "Execute Once" node setting: run for the first input item only. */
	executeOnce?: boolean;
}

/**
 * Manual Trigger → Set Items (`items`) → Knolyx steps in a line, as a user would build a
 * workflow; `output(name)` gives a step's output.
 */
export async function runChain(
	sandbox: Sandbox,
	chain: ChainStep[],
	items: IDataObject[] = [{}],
	opts: Pick<RunOptions, 'credentials'> = {},
): Promise<{ output(name: string): IDataObject[]; error?: Error }> {
	const steps = chain.map(
		(step): WorkflowStep => ({
			name: step.name,
			type: NODE_TYPE,
			parameters: step.parameters,
			onError: step.continueOnFail ? 'continueRegularOutput' : undefined,
			executeOnce: step.executeOnce,
		}),
	);
	const result = await runWorkflow({
		...manualWorkflow({ items, steps }),
		nodeTypes: createNodeTypes({ [NODE_TYPE]: new Knolyx() }),
		credentials: { knolyxApi: { ...credentialsFor(sandbox, opts.credentials) } },
		credentialTypes: [new KnolyxApi()],
	});
	return { output: (name) => result.output(name).map((item) => item.json), error: result.error };
}

const LIST_OF = {
	searchCourses: ['course', 'get', 'courseId'],
	searchWorkgroups: ['workgroup', 'addMember', 'workgroupId'],
	searchCommunityEvents: ['event', 'get', 'eventId'],
} as const;

/**
 * Calls a list-search method of the node (the "From List" mode of the Course, Workgroup and Event
 * locators) as the editor does, with the credential of the node and the parameters typed in it
 * (the Event list reads the Community ID typed).
 */
export async function listSearch(
	sandbox: Sandbox,
	method: keyof typeof LIST_OF,
	filter?: string,
	credentials: Partial<CredentialData> = {},
	typed: INodeParameters = {},
): Promise<INodeListSearchResult> {
	// An operation that shows the picker: n8n drops the parameters a node does not show.
	const [resource, operation, field] = LIST_OF[method];
	return await callListSearch({
		nodeType: new Knolyx(),
		type: NODE_TYPE,
		parameters: { resource, operation, ...typed },
		credentials: { knolyxApi: { ...credentialsFor(sandbox, credentials) } },
		method,
		path: `parameters.${field}`,
		filter,
	});
}

/** Requests per route since the last reset, only the routes that were hit. */
export function routes(sandbox: Sandbox): SandboxStats['byRoute'] {
	return sandbox.stats().byRoute;
}

export const RULES_ROUTE = '/public/api/v1/business-rule/course/{id}';
export const RULE_READ = `GET ${RULES_ROUTE}`;
export const RULE_SAVE = `POST ${RULES_ROUTE}`;

/** The rules of a course as the platform stores them (a deep copy). */
export function rulesOf(sandbox: Sandbox, courseId: number): Array<Record<string, unknown>> {
	return structuredClone(sandbox.state.rules.get(courseId) ?? []);
}

/** The membership of `email` in a workgroup, as stored. */
export function membership(sandbox: Sandbox, workgroupId: number, email: string) {
	return sandbox.state.memberships.get(workgroupId)?.get(email.toLowerCase());
}

export function userByEmail(sandbox: Sandbox, email: string) {
	return sandbox.state.findUserByEmail(email);
}

/** The whole platform state as JSON (what GET /sandbox/state answers). */
export function stateSnapshot(sandbox: Sandbox): Record<string, unknown> {
	return JSON.parse(JSON.stringify(sandbox.state.toJSON())) as Record<string, unknown>;
}

/** "yyyy-MM-dd HH:mm:ss" UTC of an instant. */
export function apiDate(date: Date): string {
	return date.toISOString().slice(0, 19).replace('T', ' ');
}

export interface PrefixProxy {
	/** e.g. http://127.0.0.1:PORT/api (no trailing slash). */
	url: string;
	close(): Promise<void>;
}

/**
 * A reverse proxy that serves the sandbox below a path prefix, as a tenant deployment
 * (an https address with a path such as /api) does; paths outside the prefix get a 404. The sandbox
 * itself only serves /public/api/v1 at its root.
 */
export async function startPrefixProxy(target: string, prefix = '/api'): Promise<PrefixProxy> {
	return await startScriptedProxy(target, prefix);
}

/**
 * A rule as the platform stores it: PUBLIC, open from 2020 to 2070, no restrictions, no
 * associations; `fields` sets what a test is about (and may add unknown fields).
 */
export function aRule(name: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		name,
		type: 'PUBLIC',
		startDateTime: '2020-01-01 00:00:00',
		endDateTime: '2070-01-01 00:00:00',
		restrictions: { minimumTime: false, browseOrder: 'anyOrder' },
		associations: {},
		...fields,
	};
}

/**
 * A rule write's `change`, as its output item holds it, for the demo credential on `sandbox`: the
 * tenant (base URL and project) it is made on and its check, which Restore and Apply Previewed
 * Change verify.
 */
export function changeFor(
	sandbox: Pick<Sandbox, 'url'>,
	change: { courseId: number; operation: string; before: unknown[]; after: unknown[] },
): string {
	return changeText({
		...change,
		tenant: `${sandbox.url.toLowerCase()}|${DEMO.projectId}`,
		before: change.before as Rule[],
		after: change.after as Rule[],
	});
}
