// The real n8n of an e2e run: prepared with n8n's own CLI (credential and
// workflow import), started with the package linked as a community package,
// and read through its REST API (executions and their run data).
//
// Everything reusable lives in scripts/n8n-runtime.mjs; this file only adds
// what the tests need on top of it.

import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import {
	CACHE_DIR,
	DATA_TABLE_ENV,
	linkPackage,
	N8N_MAJOR,
	N8N_VERSION,
	N8nRest,
	PACKAGE_NAME,
	runN8nCli,
	startN8n,
} from '../../../scripts/n8n-runtime.mjs';
import {
	REPO_ROOT,
	RUN_DIR,
	RUN_ROOT,
	startSandboxProcess,
	trackPid,
	waitFor,
} from './processes.mjs';
import { DEMO, SandboxClient } from './sandbox.mjs';
import {
	asEditorImports,
	PAYMENT_HOOK_CREDENTIAL,
	PAYMENT_HOOK_HEADER,
	PAYMENT_HOOK_HEADERS,
} from './template-setup.mjs';

export { PAYMENT_HOOK_CREDENTIAL, PAYMENT_HOOK_HEADER, PAYMENT_HOOK_HEADERS };

export const USER_FOLDER = path.join(RUN_DIR, 'n8n');
export const OWNER = {
	email: 'e2e-owner@example.com',
	password: 'Knolyx-E2e-1',
	firstName: 'E2E',
	lastName: 'Owner',
};
/** Same id and name as in examples/*.json, so the examples import unchanged. */
export const CREDENTIAL = { id: 'knolyxSandboxCred', name: 'Knolyx sandbox', type: 'knolyxApi' };
export const TYPES = {
	action: `${PACKAGE_NAME}.knolyx`,
	trigger: `${PACKAGE_NAME}.knolyxTrigger`,
};

/** The credential as a node refers to it: `credentials: KNOLYX_CREDENTIALS`. */
export const KNOLYX_CREDENTIALS = { knolyxApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };

/**
 * A test workflow (to import) whose nodes run one after another, the first being its trigger.
 * Each node gets the id `<workflow id>-<index>`, typeVersion 1, no parameters and a place left to
 * right unless it says otherwise, and a connection to the next one.
 */
export function chainWorkflow({ id, name, nodes }) {
	const placed = nodes.map((node, index) => ({
		id: `${id}-${index}`,
		typeVersion: 1,
		position: [index * 220, 0],
		parameters: {},
		...node,
	}));
	const next = (index) => ({ main: [[{ node: placed[index + 1].name, type: 'main', index: 0 }]] });
	return {
		id,
		name,
		nodes: placed,
		connections: Object.fromEntries(placed.slice(0, -1).map((node, i) => [node.name, next(i)])),
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

/** The run data of an execution is stored with `flatted`; use the copy n8n itself depends on. */
const requireFromN8n = createRequire(path.join(CACHE_DIR, 'node_modules', 'n8n', 'package.json'));

/** examples/<file> as the editor's import gives it: its triggers get webhook IDs (asEditorImports). */
export function readExample(file) {
	return asEditorImports(
		JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'examples', file), 'utf8')),
	);
}

/** The base URL the Knolyx credential holds in the base user folder, until startTestFile sets the file's. */
const NO_SANDBOX_YET = 'http://127.0.0.1:9';

/**
 * The user folder every test file of this run starts from (RUN_ROOT/base-n8n): the built package
 * linked as a community package, n8n's database made and migrated, and the credentials (Knolyx,
 * with no sandbox yet, and Flow B's webhook header) imported with n8n's CLI. Made once per run by
 * the first file that needs it (jest runs two files at a time: a lock folder keeps the second
 * waiting), so that a file pays one CLI run (its workflows) instead of two, the first of which made
 * and migrated a database (measured: 11.0 s on 2.41.1, 7.0 s on 1.123.81, where a CLI run on a
 * migrated database takes 4-5 s).
 */
async function baseUserFolder({ apiKey, projectId }) {
	const base = path.join(RUN_ROOT, 'base-n8n');
	const ready = path.join(base, '.base-ready');
	const lock = `${base}.lock`;
	await waitFor(
		() => {
			if (fs.existsSync(ready)) return true;
			try {
				fs.mkdirSync(lock);
				return true;
			} catch {
				return false;
			}
		},
		{ timeoutMs: 180_000, intervalMs: 200, what: `the base user folder ${base}` },
	);
	if (fs.existsSync(ready)) return base;
	try {
		fs.rmSync(base, { recursive: true, force: true });
		await linkPackage({ userFolder: base });
		const file = path.join(RUN_ROOT, 'base-credentials.json');
		const credentials = [
			{ ...CREDENTIAL, data: { baseUrl: NO_SANDBOX_YET, projectId, apiKey } },
			{ ...PAYMENT_HOOK_CREDENTIAL, data: PAYMENT_HOOK_HEADER },
		];
		fs.writeFileSync(file, JSON.stringify(credentials, null, 2));
		await runN8nCli(['import:credentials', `--input=${file}`], { userFolder: base });
		fs.writeFileSync(ready, `${new Date().toISOString()}\n`);
		return base;
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

/**
 * Before the first start: this file's user folder as a copy of the run's base user folder (the
 * package linked, the credentials imported: baseUserFolder), and the workflows imported with n8n's
 * CLI (`import:workflow --separate`). The Knolyx credential holds no sandbox yet: startTestFile
 * sets this file's sandbox in it once n8n runs (setSandboxUrl).
 */
export async function prepareUserFolder({ apiKey, projectId, workflows }) {
	const base = await baseUserFolder({ apiKey, projectId });
	fs.rmSync(USER_FOLDER, { recursive: true, force: true });
	fs.cpSync(base, USER_FOLDER, { recursive: true, verbatimSymlinks: true });
	const dir = path.join(RUN_DIR, 'import');
	fs.mkdirSync(path.join(dir, 'workflows'), { recursive: true });
	for (const wf of workflows) {
		fs.writeFileSync(path.join(dir, 'workflows', `${wf.id}.json`), JSON.stringify(wf, null, 2));
	}
	await runN8nCli(['import:workflow', '--separate', `--input=${path.join(dir, 'workflows')}`], {
		userFolder: USER_FOLDER,
	});
}

/** The Knolyx credential, as the user edits it in n8n: its base URL becomes `sandboxUrl`. */
export async function setSandboxUrl(rest, { sandboxUrl, apiKey, projectId }) {
	await rest.request('PATCH', `/rest/credentials/${encodeURIComponent(CREDENTIAL.id)}`, {
		name: CREDENTIAL.name,
		type: CREDENTIAL.type,
		data: { baseUrl: sandboxUrl, projectId, apiKey },
	});
}

/**
 * The environment this file's n8n runs with on top of its own (startTestFile's `env`). n8n's
 * environment is built from scratch (scripts/n8n/server.mjs drops every N8N_ and DB_ setting of
 * this process), so a setting n8n needs goes here, not into process.env.
 */
let serverEnv = {};

/**
 * Start (or restart) the run's n8n on `port` (a free one when omitted), with `env` added to the
 * file's environment from then on (a restart with another database driver); its group is
 * tracked for cleanup.
 */
export async function startServer({ port, env } = {}) {
	if (env) serverEnv = { ...serverEnv, ...env };
	const n8n = await startN8n({ port, userFolder: USER_FOLDER, env: serverEnv });
	trackPid(n8n.pid, 'n8n');
	return n8n;
}

/**
 * The start of an e2e test file: the sandbox (demo seed), the user folder with the credential
 * and `workflows` imported, n8n started (with `env` added to its environment, restarts too), its owner logged in and the credential set to the sandbox. Returns
 * { sandbox, sb, n8n, rest, timings }; what started is stopped again when a later step fails.
 */
export async function startTestFile({ workflows, env = {} }) {
	serverEnv = env;
	const timings = {};
	let t = Date.now();
	// The sandbox starts while n8n's CLI imports the workflows (the credential gets the sandbox's
	// URL only once n8n runs): neither waits for the other.
	const [started, imported] = await Promise.allSettled([
		startSandboxProcess({ seed: 'demo' }).then((sandbox) => {
			timings.sandboxMs = Date.now() - t;
			return sandbox;
		}),
		prepareUserFolder({ apiKey: DEMO.apiKey, projectId: DEMO.projectId, workflows }).then(() => {
			timings.cliImportMs = Date.now() - t;
		}),
	]);
	if (imported.status === 'rejected') {
		if (started.status === 'fulfilled') await started.value.stop().catch(() => undefined);
		throw imported.reason;
	}
	if (started.status === 'rejected') throw started.reason;
	const sandbox = started.value;
	let n8n;
	try {
		const credential = { sandboxUrl: sandbox.url, apiKey: DEMO.apiKey, projectId: DEMO.projectId };
		t = Date.now();
		n8n = await startServer();
		timings.n8nStartMs = Date.now() - t;
		const rest = new N8nRest(n8n.url);
		await rest.ensureOwner(OWNER);
		await setSandboxUrl(rest, credential);
		return { sandbox, sb: new SandboxClient(sandbox.url), n8n, rest, timings };
	} catch (e) {
		await n8n?.stop().catch(() => undefined);
		await sandbox.stop().catch(() => undefined);
		throw e;
	}
}

export function newWorkflowId() {
	// n8n workflow ids: 16 alphanumeric characters.
	return crypto
		.randomBytes(12)
		.toString('base64')
		.replace(/[^A-Za-z0-9]/g, '')
		.padEnd(16, 'x')
		.slice(0, 16);
}

/** Executions of a workflow, newest first: [{ id, status, mode, finished?, ... }]. */
export async function executionsOf(rest, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const page = await rest.request('GET', `/rest/executions?filter=${filter}&limit=100`);
	return [...(page.results ?? [])].sort((a, b) => Number(b.id) - Number(a.id));
}

/** One execution with its run data parsed: { ...execution, run: { resultData: { runData, error } } }. */
export async function execution(rest, id) {
	const ex = await rest.request('GET', `/rest/executions/${encodeURIComponent(id)}`);
	const { parse } = requireFromN8n('flatted');
	return { ...ex, run: typeof ex.data === 'string' ? parse(ex.data) : ex.data };
}

/** The JSON of the items a node output on its first run, main output 0. */
export function nodeOutput(ex, nodeName) {
	const runs = ex.run?.resultData?.runData?.[nodeName];
	if (!runs?.length) return undefined;
	return (runs[0].data?.main?.[0] ?? []).map((item) => item.json);
}

export const DONE = new Set(['success', 'error', 'crashed', 'canceled']);

/** Wait until the workflow has exactly `count` executions and all are done; resolves with them (newest first). */
export async function waitForExecutions(rest, workflowId, count, { timeoutMs = 30_000 } = {}) {
	return waitFor(
		async () => {
			const list = await executionsOf(rest, workflowId);
			if (list.length > count)
				throw new Error(`expected ${count} executions of ${workflowId}, found ${list.length}`);
			return list.length === count && list.every((e) => DONE.has(e.status)) ? list : undefined;
		},
		{ timeoutMs, what: `${count} finished execution(s) of workflow ${workflowId}` },
	);
}

/**
 * Start a workflow the way the editor's "Execute workflow" button does:
 * POST /rest/workflows/:id/run { triggerToStartFrom: { name } } (n8n 2.41
 * runs the saved version; n8n 1.x runs the `workflowData` the editor sends,
 * here the saved workflow); resolves with the execution's id.
 */
export async function startManually(rest, workflowId, triggerName) {
	const id = encodeURIComponent(workflowId);
	const workflowData =
		N8N_MAJOR < 2 ? await rest.request('GET', `/rest/workflows/${id}`) : undefined;
	const started = await rest.request('POST', `/rest/workflows/${id}/run`, {
		...(workflowData ? { workflowData } : {}),
		triggerToStartFrom: { name: triggerName },
	});
	if (!started?.executionId)
		throw new Error(`n8n did not start workflow ${workflowId}: ${JSON.stringify(started)}`);
	return started.executionId;
}

/** startManually, then wait for the execution to finish and return it parsed. */
export async function runManually(rest, workflowId, triggerName, { timeoutMs = 60_000 } = {}) {
	return waitForExecution(rest, await startManually(rest, workflowId, triggerName), { timeoutMs });
}

/** Wait until the execution is in `status` (e.g. 'waiting': a Wait node waits for its form). */
export async function waitForStatus(rest, id, status, { timeoutMs = 60_000 } = {}) {
	await waitFor(
		async () => {
			const ex = await rest.request('GET', `/rest/executions/${encodeURIComponent(id)}`);
			if (DONE.has(ex.status) && ex.status !== status)
				throw new Error(`execution ${id} ended ${ex.status}, not ${status}`);
			return ex.status === status;
		},
		{ timeoutMs, what: `execution ${id} to be ${status}` },
	);
}

export async function waitForExecution(rest, id, { timeoutMs = 60_000 } = {}) {
	await waitFor(
		async () => {
			const ex = await rest.request('GET', `/rest/executions/${encodeURIComponent(id)}`);
			return DONE.has(ex.status);
		},
		{ timeoutMs, what: `execution ${id} to finish` },
	);
	return execution(rest, id);
}

/**
 * Test credential data the user has typed but not saved, as the editor does:
 * n8n 2.x tests it as it is (id ''); n8n 1.x only tests a stored credential the
 * user can read, merging the typed data over it (the editor saves first).
 */
export function testCredentialData(rest, { type = CREDENTIAL.type, data }) {
	return N8N_MAJOR < 2
		? rest.testCredential({ id: CREDENTIAL.id, name: CREDENTIAL.name, type, data })
		: rest.testCredential({ type, data });
}

export { DATA_TABLE_ENV, N8N_MAJOR, N8N_VERSION, N8nRest };
