/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Benchmark 7: the same bulk enrolment in a real n8n 2.41.1 (scripts/n8n-runtime.mjs,
 * Node 24), wired once with this package's node and once from n8n's own HTTP
 * Request nodes (defaults, and with the Batching option), as a user would.
 *
 * Each workflow: Webhook (POST, answers when the last node is done) → Split Out
 * (one item per buyer) → the enrolment. The time is the wall time of the webhook
 * call, so every variant pays the same trigger, split and execution-saving cost.
 * The package is built into bench/out/pkg (not dist/, which others use) and
 * linked into bench/out/n8n-user as a community package.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import type { INode, INodeParameters } from 'n8n-workflow';

import { wanted } from './config';
import { machineBusyMs, processCpuMs } from './lib';
import { importEsm, RUNTIME_SCRIPT, runtimeDir } from './runtime-dir';
import { buyers, DEMO_CREDENTIALS, httpEnrol, knolyxEnrol, type Batching } from './workflows';

const REPO = join(__dirname, '..');
const OUT = join(__dirname, 'out');
const PKG = join(OUT, 'pkg');
const USER_FOLDER = join(OUT, 'n8n-user');
const marker = () => join(runtimeDir(), '.install-complete');
const OWNER = {
	email: 'bench@example.com',
	password: 'Knolyx-Bench-1',
	firstName: 'Bench',
	lastName: 'Owner',
};

interface Runtime {
	linkPackage(o: { userFolder: string; packageDir: string }): Promise<string>;
	startN8n(o: { userFolder: string; timeoutMs?: number; env?: Record<string, string> }): Promise<{
		url: string;
		pid: number;
		logFile: string;
		startupMs?: number;
		stop(): Promise<unknown>;
	}>;
	N8nRest: new (url: string) => {
		request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
		ensureOwner(owner: typeof OWNER): Promise<unknown>;
		activateWorkflow(id: string): Promise<unknown>;
	};
}

export interface RealVariant {
	name: string;
	kind: 'knolyx' | 'http';
	batching?: Batching;
}

export interface RealN8n {
	/**
	 * Runs one variant: resolves with the wall time of the webhook call (ms), its HTTP status, and
	 * the CPU used meanwhile by n8n's process and by the whole machine.
	 */
	run(
		variant: RealVariant,
		n: number,
		workgroupId: number,
		prefix: string,
	): Promise<{
		ms: number;
		status: number;
		body: string;
		n8nCpuMs?: number;
		machineBusyMs?: number;
	}>;
	startupMs: number;
	url: string;
	pid: number;
	rest: InstanceType<Runtime['N8nRest']>;
	credential: { id: string; name: string };
	/** The package as at BASELINE.commit, loaded beside today's (default n8n only): its credential, or why not. */
	baseline: { credential: { id: string; name: string } } | { problem: string };
	/**
	 * Creates and publishes a workflow (removed again by stop()); resolves with its id. Its nodes
	 * run in a line unless `connections` are given.
	 */
	addWorkflow(name: string, nodes: INode[], connections?: Record<string, unknown>): Promise<string>;
	stop(): Promise<void>;
}

/** Nodes in a row: each one's main output into the next. */
export function chain(nodes: INode[]): Record<string, unknown> {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < nodes.length - 1; i++)
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return connections;
}

/** The first node of a workflow: a trigger with its own webhook id. */
export function triggerNode(
	name: string,
	type: string,
	parameters: INodeParameters,
	extra: Partial<INode> = {},
): INode {
	return {
		id: randomUUID(),
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters,
		...extra,
	};
}

/** n8n's Webhook node (typeVersion 2 unless told) with these parameters. */
export const webhookNode = (parameters: INodeParameters, typeVersion = 2): INode =>
	triggerNode('Webhook', 'n8n-nodes-base.webhook', parameters, { typeVersion });

/**
 * A second n8n beside the default one, started with more of n8n's environment (its own user
 * folder, bench/out/n8n-user-<name>), so a setting that only applies at start can be measured
 * side by side with the default in one run.
 */
export interface N8nFlavour {
	name: string;
	env: Record<string, string>;
}

const shared = new Map<string, Promise<RealN8n>>();

/** One real n8n per flavour (default: none) for every row of this run that needs one (stopped by stopSharedN8n). */
export function sharedRealN8n(
	sandboxUrl: string,
	log: (...a: unknown[]) => void,
	flavour?: N8nFlavour,
): Promise<RealN8n> {
	const key = flavour?.name ?? '';
	let started = shared.get(key);
	if (!started) {
		started = startRealN8n(sandboxUrl, log, { flavour });
		shared.set(key, started);
	}
	return started;
}

export async function stopSharedN8n(): Promise<void> {
	const started = [...shared.values()];
	shared.clear();
	for (const one of started) await (await one.catch(() => undefined))?.stop();
}

/** Why item 7 cannot run here, or undefined when it can. */
export function realN8nUnavailable(): string | undefined {
	if (!existsSync(marker()))
		return `the n8n runtime is not installed (${marker()} missing; node scripts/n8n-runtime.mjs install takes ~10 minutes)`;
	return undefined;
}

function copyAssets(from: string, to: string): void {
	for (const entry of readdirSync(from)) {
		const source = join(from, entry);
		if (statSync(source).isDirectory()) copyAssets(source, join(to, entry));
		else if (/\.(svg|png|json)$/.test(entry)) {
			mkdirSync(to, { recursive: true });
			copyFileSync(source, join(to, entry));
		}
	}
}

/** Builds the package at `src` into `out` (tsc + icons + codex files), as npm run build would into dist/. */
function buildPackage(src = REPO, out = PKG): void {
	rmSync(out, { recursive: true, force: true });
	mkdirSync(out, { recursive: true });
	execFileSync(
		process.execPath,
		[
			join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'),
			'-p',
			join(src, 'tsconfig.json'),
			'--outDir',
			join(out, 'dist'),
		],
		{
			cwd: src,
			stdio: 'pipe',
		},
	);
	copyAssets(join(src, 'nodes'), join(out, 'dist', 'nodes'));
	copyAssets(join(src, 'credentials'), join(out, 'dist', 'credentials'));
	copyFileSync(join(src, 'package.json'), join(out, 'package.json'));
}

/**
 * The package as at an earlier commit, for a ratio measured side by side with today's code in
 * one n8n: issue 57's "within 10 % of today's ratio" is a ratio of 1ecdaca, the code the issue
 * measured (its Knolyx Trigger answered before n8n held the execution). Renamed so that both
 * load in one n8n: the package (so its node types are `<name>.knolyxTrigger`) and its credential
 * type. BENCH_BASELINE_COMMIT names another commit.
 */
export const BASELINE = {
	commit: process.env.BENCH_BASELINE_COMMIT ?? '1ecdaca',
	name: 'n8n-nodes-knolyx-baseline',
	credentialType: 'knolyxApiBaseline',
};
const BASELINE_PKG = join(OUT, 'pkg-baseline');

/** A file of this repository as at BASELINE.commit. */
export const fileAtBaseline = (path: string): string =>
	execFileSync('git', ['-C', REPO, 'show', `${BASELINE.commit}:${path}`], { encoding: 'utf8' });

function buildBaseline(): void {
	const src = join(OUT, 'baseline-src');
	rmSync(src, { recursive: true, force: true });
	mkdirSync(src, { recursive: true });
	const archive = execFileSync('git', ['-C', REPO, 'archive', BASELINE.commit], {
		maxBuffer: 1 << 30,
	});
	execFileSync('tar', ['-x', '-C', src], { input: archive });
	symlinkSync(join(REPO, 'node_modules'), join(src, 'node_modules'), 'dir');
	buildPackage(src, BASELINE_PKG);
	const dist = join(BASELINE_PKG, 'dist');
	for (const entry of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
		if (!entry.endsWith('.js')) continue;
		const file = join(dist, entry);
		const text = readFileSync(file, 'utf8');
		const renamed = text.replace(/(['"])knolyxApi\1/g, `$1${BASELINE.credentialType}$1`);
		if (renamed !== text) writeFileSync(file, renamed);
	}
	const manifest = JSON.parse(readFileSync(join(BASELINE_PKG, 'package.json'), 'utf8')) as {
		name: string;
	};
	manifest.name = BASELINE.name;
	writeFileSync(join(BASELINE_PKG, 'package.json'), JSON.stringify(manifest, null, 2));
}

let built = false;
/** Whether the baseline was built in this run: undefined before the first try, else why not (or ''). */
let baselineProblem: string | undefined;

export async function startRealN8n(
	sandboxUrl: string,
	log: (...a: unknown[]) => void,
	options: {
		/** Development hook: change the built copy before n8n loads it (to try a change in a real n8n). */
		afterBuild?: (pkgDir: string) => void;
		flavour?: N8nFlavour;
	} = {},
): Promise<RealN8n> {
	const runtime = await importEsm<Runtime>(RUNTIME_SCRIPT);
	// One build per run: a second n8n (another flavour) links the same copy.
	if (!built || options.afterBuild) {
		buildPackage();
		options.afterBuild?.(PKG);
		built = true;
	}
	const userFolder = options.flavour ? `${USER_FOLDER}-${options.flavour.name}` : USER_FOLDER;
	mkdirSync(userFolder, { recursive: true });
	await runtime.linkPackage({ userFolder, packageDir: PKG });
	// The default n8n also loads the baseline when row 9 runs (inert unless a workflow uses its
	// nodes); no other row builds it.
	if (!options.flavour) {
		if (!wanted('n8n-trigger')) baselineProblem ??= 'row 9 is not in this run';
		if (baselineProblem === undefined) {
			try {
				buildBaseline();
				baselineProblem = '';
			} catch (error) {
				baselineProblem = `the package as at ${BASELINE.commit} could not be built (${(error as Error).message.split('\n')[0]})`;
				log(`  ${baselineProblem}`);
			}
		}
		if (!baselineProblem) await runtime.linkPackage({ userFolder, packageDir: BASELINE_PKG });
	}
	const started = Date.now();
	// When looking into a result: BENCH_N8N_NODE_OPTIONS, flags for n8n's own Node (e.g. --cpu-prof);
	// BENCH_N8N_ENV, more of n8n's environment as JSON (e.g. {"N8N_EXPRESSION_ENGINE":"legacy"}).
	const nodeOptions = process.env.BENCH_N8N_NODE_OPTIONS;
	const env = {
		...(JSON.parse(process.env.BENCH_N8N_ENV ?? '{}') as Record<string, string>),
		...(options.flavour?.env ?? {}),
		...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
	};
	const n8n = await runtime.startN8n({ userFolder, timeoutMs: 240_000, env });
	const startupMs = Date.now() - started;
	log(
		`  n8n${options.flavour ? ` (${options.flavour.name})` : ''} ready at ${n8n.url} after ${Math.round(startupMs / 1000)} s (log ${relative(REPO, n8n.logFile)})`,
	);
	try {
		const rest = new runtime.N8nRest(n8n.url);
		await rest.ensureOwner(OWNER);
		const credential = await rest.request<{ id: string; name: string }>(
			'POST',
			'/rest/credentials',
			{
				name: `Knolyx bench ${new Date().toISOString()}`,
				type: 'knolyxApi',
				data: { baseUrl: sandboxUrl, ...DEMO_CREDENTIALS },
			},
		);
		const baselineCredential =
			!options.flavour && !baselineProblem
				? await rest.request<{ id: string; name: string }>('POST', '/rest/credentials', {
						name: `Knolyx bench baseline ${new Date().toISOString()}`,
						type: BASELINE.credentialType,
						data: { baseUrl: sandboxUrl, ...DEMO_CREDENTIALS },
					})
				: undefined;
		const created = new Map<string, string>(); // variant key → webhook path
		const workflowIds: string[] = [];

		const addWorkflow = async (
			name: string,
			nodes: INode[],
			connections?: Record<string, unknown>,
		): Promise<string> => {
			const workflow = await rest.request<{ id: string }>('POST', '/rest/workflows', {
				name,
				nodes,
				connections: connections ?? chain(nodes),
				settings: { executionOrder: 'v1' },
				active: false,
			});
			workflowIds.push(workflow.id);
			await rest.activateWorkflow(workflow.id);
			return workflow.id;
		};

		const ensureWorkflow = async (variant: RealVariant, workgroupId: number): Promise<string> => {
			const key = `${variant.kind}-${variant.batching ? `${variant.batching.batchSize}-${variant.batching.batchInterval}` : 'default'}-${workgroupId}`;
			const existing = created.get(key);
			if (existing) return existing;
			const path = `bench-${key}-${randomUUID().slice(0, 8)}`;
			const steps =
				variant.kind === 'knolyx'
					? [knolyxEnrol(workgroupId, undefined)]
					: httpEnrol(sandboxUrl, workgroupId, variant.batching);
			const nodes: INode[] = [
				webhookNode({
					httpMethod: 'POST',
					path,
					responseMode: 'lastNode',
					responseData: 'firstEntryJson',
					options: {},
				}),
				{
					id: randomUUID(),
					name: 'Buyers',
					type: 'n8n-nodes-base.splitOut',
					typeVersion: 1,
					position: [200, 0],
					parameters: {
						fieldToSplitOut: 'body.buyers',
						include: 'noOtherFields',
						options: {},
					} as INodeParameters,
				},
				...steps.map(
					(step, index): INode => ({
						id: randomUUID(),
						name: step.name,
						type: step.type,
						typeVersion: step.typeVersion,
						position: [400 + index * 200, 0],
						parameters: step.parameters,
						onError: 'continueRegularOutput',
						...(variant.kind === 'knolyx'
							? { credentials: { knolyxApi: { id: credential.id, name: credential.name } } }
							: {}),
					}),
				),
			];
			await addWorkflow(`bench ${variant.name} ${key}`, nodes);
			created.set(key, path);
			return path;
		};

		return {
			startupMs,
			url: n8n.url,
			pid: n8n.pid,
			rest,
			credential,
			baseline: baselineCredential
				? { credential: baselineCredential }
				: { problem: baselineProblem || 'only the default n8n loads the baseline' },
			addWorkflow,
			async run(variant, n, workgroupId, prefix) {
				const path = await ensureWorkflow(variant, workgroupId);
				const body = JSON.stringify({ buyers: buyers(n, prefix) });
				// n8n registers a published workflow's webhook a moment after the publish call returns;
				// until then it answers 404 without starting anything, so retrying is safe.
				for (let attempt = 0; ; attempt++) {
					const cpuBefore = processCpuMs(n8n.pid);
					const busyBefore = machineBusyMs();
					const t = Date.now();
					const res = await fetch(`${n8n.url}/webhook/${path}`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body,
						signal: AbortSignal.timeout(300_000),
					});
					const text = await res.text();
					if (res.status === 404 && attempt < 60) {
						await new Promise((resolve) => setTimeout(resolve, 250));
						continue;
					}
					const ms = Date.now() - t;
					const cpuAfter = processCpuMs(n8n.pid);
					const busyAfter = machineBusyMs();
					return {
						ms,
						status: res.status,
						body: text.slice(0, 300),
						n8nCpuMs:
							cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
						machineBusyMs:
							busyBefore !== undefined && busyAfter !== undefined
								? busyAfter - busyBefore
								: undefined,
					};
				}
			},
			async stop() {
				// Unpublish and delete what this run created, so the next start activates nothing.
				for (const id of workflowIds) {
					await rest.request('POST', `/rest/workflows/${id}/deactivate`, {}).catch(() => undefined);
					await rest.request('POST', `/rest/workflows/${id}/archive`, {}).catch(() => undefined);
					await rest.request('DELETE', `/rest/workflows/${id}`).catch(() => undefined);
				}
				for (const id of [credential.id, baselineCredential?.id])
					if (id) await rest.request('DELETE', `/rest/credentials/${id}`).catch(() => undefined);
				await n8n.stop();
			},
		};
	} catch (error) {
		await n8n.stop();
		throw error;
	}
}
