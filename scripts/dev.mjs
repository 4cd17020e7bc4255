#!/usr/bin/env node
// `npm run dev`: a real n8n with this package, against the Knolyx sandbox.
//
//   1. start the Knolyx sandbox (demo seed) as a child process and print its page's URL
//      at once: it is usable while the rest is prepared
//   2. build the package (npm run build) and, at the same time, install the pinned n8n of
//      the chosen line on first use (scripts/n8n-runtime.mjs; 2.41.1 with Node 24: ~10 min
//      once on 2 cores, printing each phase and a progress line every minute; 1.123.81:
//      ~2-5 min once; cached in ~/.cache/n8n-nodes-knolyx/)
//   3. link the built package into n8n's user folder the way a community package
//      is installed (node types n8n-nodes-knolyx.knolyx / .knolyxTrigger, as users have them)
//   4. import (n8n CLI, only when something changed) a `Knolyx API` credential for the
//      sandbox and the example workflows from examples/*.json; the templates
//      (examples/template-*.json) get the credential on their Knolyx nodes, the demo
//      mapping and their tool's sample payload pinned (test/e2e/fixtures/<tool>.json)
//   5. start n8n, create/log in the demo owner, tag the templates, create the data table of
//      pending writes and choose it in their Data table nodes, publish the workflows
//      that have a trigger n8n serves itself, test the credential, print the editor URL
//      and what to try
// Ctrl-C stops n8n and the sandbox (a second Ctrl-C kills them at once).
//
// Options: --n8n VERSION (the n8n line: 2.41.1, the default, or 1.123.81; env
// KNOLYX_N8N_VERSION), --port N (n8n, default 5678, env N8N_DEV_PORT), --sandbox-port N
// (default 5680, env KNOLYX_SANDBOX_PORT), --no-build, --reset (forget the
// dev user folder: fresh database, owner, credential and workflows), --no-user-n8n (do not use an
// n8n found in PATH; without it, when the cache has no install of the selected line, an `n8n` in
// PATH of exactly that version, whose native modules load in the `node` in PATH, is run instead
// of installing one: scripts/n8n/install.mjs findUserN8n).

import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import {
	assertPortFree,
	CACHE_DIR,
	ensureN8n,
	findUserN8n,
	isN8nInstalled,
	DATA_TABLE_ENV,
	linkPackage,
	N8nRest,
	PACKAGE_NAME,
	REPO_ROOT,
	runN8nCli,
	startN8n,
	useN8n,
	N8N_MAJOR,
	N8N_VERSION,
} from './n8n-runtime.mjs';
import {
	asEditorImports,
	demoFor,
	PAYMENT_HOOK_CREDENTIAL,
	PAYMENT_HOOK_HEADER,
	setUpTemplate,
	tagWorkflow,
	useDataTable,
} from '../test/e2e/lib/template-setup.mjs';

// The demo login and credential (documented in scripts/README.md). Local only:
// n8n listens on 127.0.0.1.
export const DEV_OWNER = {
	email: 'demo@example.com',
	password: 'Knolyx-Demo-1',
	firstName: 'Demo',
	lastName: 'Owner',
};
// Same id and name as the credential the examples reference, so they open with it selected.
export const DEV_CREDENTIAL = { id: 'knolyxSandboxCred', name: 'Knolyx sandbox' };
const DEMO = { projectId: 'demo-project', apiKey: 'demo-api-key' }; // sandbox/seed.ts DEMO

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
	const i = argv.indexOf(`--${name}`);
	return i >= 0 ? argv[i + 1] : fallback;
};
const N8N_PORT = Number(option('port', process.env.N8N_DEV_PORT ?? 5678));
const SANDBOX_PORT = Number(option('sandbox-port', process.env.KNOLYX_SANDBOX_PORT ?? 5680));
// One user folder per n8n line: a database migrated by 2.x cannot be opened by 1.x.
const USER_FOLDER = path.join(
	REPO_ROOT,
	'.cache',
	N8N_MAJOR >= 2 ? 'n8n-dev' : `n8n-dev-${N8N_VERSION}`,
);

const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const say = (msg) => console.log(`[dev ${secs()}] ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Everything started here, stopped in reverse order on Ctrl-C or on failure. */
const cleanups = [];
let stopping = false;
async function shutdown(code) {
	if (stopping) return;
	stopping = true;
	for (const fn of cleanups.reverse()) {
		try {
			await fn();
		} catch (e) {
			console.error(e.message);
		}
	}
	process.exit(code);
}
process.on('SIGINT', () => {
	if (stopping) process.exit(130); // second Ctrl-C: the exit hook below SIGKILLs the groups
	console.log('\nStopping n8n and the sandbox...');
	shutdown(0);
});
process.on('SIGTERM', () => shutdown(0));

/** Run a command in the repo, output inherited; reject on failure. */
function run(cmd, args) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd: REPO_ROOT, stdio: 'inherit' });
		child.on('error', reject);
		child.on('exit', (code) =>
			code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (${code})`)),
		);
	});
}

/** Start the sandbox (`sandbox/cli.ts` through ts-node) and wait until it answers. */
async function startSandbox(port) {
	await assertPortFree(port); // otherwise we might talk to someone else's sandbox
	const logFile = path.join(USER_FOLDER, 'sandbox.log');
	const out = fs.openSync(logFile, 'w');
	const tsNode = path.join(REPO_ROOT, 'node_modules', 'ts-node', 'dist', 'bin.js');
	const child = spawn(
		process.execPath,
		[tsNode, '--transpile-only', 'sandbox/cli.ts', '--port', String(port), '--seed', 'demo'],
		{ cwd: REPO_ROOT, stdio: ['ignore', out, out], detached: true },
	);
	fs.closeSync(out);
	let exited = false;
	child.on('exit', () => (exited = true));
	const kill = (sig) => {
		try {
			process.kill(-child.pid, sig);
		} catch {
			/* gone */
		}
	};
	process.on('exit', () => kill('SIGKILL'));
	const stop = async () => {
		if (exited) return;
		kill('SIGTERM');
		for (let i = 0; i < 50 && !exited; i++) await sleep(100);
		kill('SIGKILL');
	};
	const url = `http://127.0.0.1:${port}`;
	for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(300)) {
		if (exited) break;
		try {
			const res = await fetch(`${url}/public/api/v1/key`, {
				headers: { 'X-Api-Key': DEMO.apiKey, 'X-Project-Id': DEMO.projectId },
				signal: AbortSignal.timeout(2_000),
			});
			if (res.ok) return { url, stop, logFile, child };
		} catch {
			/* not yet */
		}
	}
	await stop();
	throw new Error(
		`the Knolyx sandbox did not start on ${url} (port taken?); see ${logFile}:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`,
	);
}

/** A stable 16-character workflow id for an example file without one (so re-imports update, not duplicate). */
const idFor = (file) =>
	'knolyx' + crypto.createHash('sha1').update(file).digest('hex').slice(0, 10);

/** A request body for a webhook workflow: every `json.body.<field>` its expressions read, with demo values. */
function sampleBody(wf) {
	const demo = {
		email: 'grace@example.com',
		firstName: 'Grace',
		lastName: 'Hopper',
		name: 'Grace Hopper',
	};
	const fields = new Set(
		[...JSON.stringify(wf.nodes).matchAll(/json\.body\.(\w+)/g)].map((m) => m[1]),
	);
	return JSON.stringify(Object.fromEntries([...fields].map((f) => [f, demo[f] ?? `demo ${f}`])));
}

/** Node types that make a workflow worth publishing (it can then be started from outside). */
const isActivatingTrigger = (type) =>
	type === 'n8n-nodes-base.webhook' ||
	(/Trigger$/.test(type) && !/manualTrigger|executeWorkflowTrigger/.test(type));

/**
 * Whether to publish a workflow here. A template is published only when its trigger is served
 * by n8n itself (form, webhook): publishing a Stripe, Shopify, ... trigger registers a webhook
 * with that tool, which needs the user's account; the templates run from the editor instead,
 * with their tool's sample pinned.
 */
const publishHere = ({ file, wf }) =>
	wf.nodes.some((n) => isActivatingTrigger(n.type) && !n.disabled) &&
	(!file.startsWith('template-') ||
		wf.nodes.some((n) =>
			['n8n-nodes-base.formTrigger', 'n8n-nodes-base.webhook'].includes(n.type),
		));

/** The credential an inbound trigger's `authentication` asks for: [credential type, its name in the editor]. */
const INBOUND_AUTH = {
	basicAuth: ['httpBasicAuth', 'Basic Auth'],
	headerAuth: ['httpHeaderAuth', 'Header Auth'],
	bearerAuth: ['httpBearerAuth', 'Bearer Auth'],
	jwtAuth: ['jwtAuth', 'JWT Auth'],
};

/**
 * The trigger of a workflow that is closed by default and has no credential here yet:
 * { node, label } (n8n refuses to publish it until the user creates one), or undefined.
 */
function missingInboundCredential(wf) {
	for (const node of wf.nodes) {
		if (!isActivatingTrigger(node.type) || node.disabled) continue;
		const auth = INBOUND_AUTH[node.parameters?.authentication];
		if (auth && !node.credentials?.[auth[0]]) return { node: node.name, label: auth[1] };
	}
	return undefined;
}

/**
 * The example workflows, prepared for this n8n: a stable id, this package's
 * community node types (a `CUSTOM.` type from an N8N_CUSTOM_EXTENSIONS setup is
 * rewritten), and every Knolyx credential reference pointed at the dev credential.
 */
async function loadExamples() {
	const dir = path.join(REPO_ROOT, 'examples');
	const files = fs.existsSync(dir)
		? (await fsp.readdir(dir)).filter((f) => f.endsWith('.json')).sort()
		: [];
	const workflows = [];
	for (const file of files) {
		let wf;
		try {
			wf = JSON.parse(await fsp.readFile(path.join(dir, file), 'utf8'));
		} catch (e) {
			say(`skipping examples/${file}: not valid JSON (${e.message})`);
			continue;
		}
		if (!Array.isArray(wf.nodes)) {
			say(`skipping examples/${file}: no nodes`);
			continue;
		}
		wf.id ??= idFor(file);
		// The examples ship no webhookId (each import must get its own URL); the editor's import
		// gives each trigger one, n8n's CLI import does not: a stable one per file, as the editor would.
		wf = asEditorImports(wf, { seed: file });
		for (const node of wf.nodes) {
			if (node.type.startsWith('CUSTOM.knolyx'))
				node.type = `${PACKAGE_NAME}.${node.type.slice('CUSTOM.'.length)}`;
			if (node.credentials?.knolyxApi) node.credentials.knolyxApi = { ...DEV_CREDENTIAL };
		}
		// Templates carry no credentials (as in n8n's gallery): choose the dev credential, and set
		// them up with their tool's sample (mapping + pinned payload) so "Execute workflow" runs them.
		const demo = file.startsWith('template-') ? demoFor(file) : undefined;
		if (file.startsWith('template-'))
			wf = setUpTemplate(wf, {
				credential: DEV_CREDENTIAL,
				mapping: demo?.mapping,
				pins: demo?.pins,
			});
		// Tags are given over REST after the start (tagWorkflow): n8n's CLI import of
		// several files that share a new tag fails on the tag's unique name.
		const { tags, ...withoutTags } = wf;
		workflows.push({ file, wf: withoutTags, tags: (tags ?? []).map((t) => t.name), demo });
	}
	return workflows;
}

/** Import credential + workflows with n8n's CLI, only when they differ from the last import. */
async function importIfChanged(sandboxUrl, examples) {
	const credential = {
		...DEV_CREDENTIAL,
		type: 'knolyxApi',
		data: { baseUrl: sandboxUrl, projectId: DEMO.projectId, apiKey: DEMO.apiKey },
	};
	// Flow B's Webhook takes Header Auth (a demo value: the example's note says to set your own).
	const paymentHook = { ...PAYMENT_HOOK_CREDENTIAL, data: PAYMENT_HOOK_HEADER };
	const stateFile = path.join(USER_FOLDER, 'dev-import.sha1');
	const hash = crypto
		.createHash('sha1')
		.update(JSON.stringify({ credential, paymentHook, examples, n8n: N8N_VERSION }))
		.digest('hex');
	const database = path.join(USER_FOLDER, '.n8n', 'database.sqlite');
	if (
		fs.existsSync(database) &&
		fs.existsSync(stateFile) &&
		(await fsp.readFile(stateFile, 'utf8')) === hash
	) {
		say('credential and example workflows unchanged since the last run: no import');
		return;
	}
	const dir = path.join(USER_FOLDER, 'import');
	await fsp.rm(dir, { recursive: true, force: true });
	await fsp.mkdir(path.join(dir, 'workflows'), { recursive: true });
	await fsp.writeFile(
		path.join(dir, 'credentials.json'),
		JSON.stringify([credential, paymentHook], null, 2),
	);
	// import:credentials encrypts plain `data` with this user folder's key.
	await runN8nCli(['import:credentials', `--input=${path.join(dir, 'credentials.json')}`], {
		userFolder: USER_FOLDER,
	});
	say(
		`imported credentials "${DEV_CREDENTIAL.name}" (${sandboxUrl}) and "${paymentHook.name}" (header ${PAYMENT_HOOK_HEADER.name}, a demo value)`,
	);
	if (examples.length) {
		for (const { file, wf } of examples) {
			await fsp.writeFile(path.join(dir, 'workflows', file), JSON.stringify(wf, null, 2));
		}
		// One CLI start for all of them. Imported workflows are unpublished; published below over REST.
		await runN8nCli(['import:workflow', '--separate', `--input=${path.join(dir, 'workflows')}`], {
			userFolder: USER_FOLDER,
		});
		say(`imported ${examples.length} example workflow(s)`);
	} else {
		say('no examples/*.json yet: no workflows imported');
	}
	await fsp.writeFile(stateFile, hash);
}

async function main() {
	if (flag('reset')) {
		await fsp.rm(USER_FOLDER, { recursive: true, force: true });
		say(`removed ${path.relative(REPO_ROOT, USER_FOLDER)}`);
	}
	await fsp.mkdir(USER_FOLDER, { recursive: true });
	await assertPortFree(N8N_PORT); // fail fast, before building and installing

	const sandbox = await startSandbox(SANDBOX_PORT);
	cleanups.push(sandbox.stop);
	say(`Knolyx sandbox on ${sandbox.url} (log: ${path.relative(REPO_ROOT, sandbox.logFile)})`);
	let cold = !isN8nInstalled();
	if (cold && !flag('no-user-n8n')) {
		// An n8n the user already has (e.g. `npm install -g n8n`) of the selected version saves the install.
		const mine = await findUserN8n();
		if (mine?.usable) {
			useN8n(mine);
			cold = false;
			say(
				`using the n8n ${mine.version} in your PATH (${mine.n8nBin}, Node ${mine.nodeVersion}): nothing to install. ` +
					`Its own data (~/.n8n) is not used: this run keeps its data in ${path.relative(REPO_ROOT, USER_FOLDER)}.`,
			);
		} else if (mine) {
			say(`not using the n8n in your PATH (${mine.n8nBin}): ${mine.why}`);
		}
	}
	if (cold) {
		say(
			`n8n ${N8N_VERSION} is not installed yet: installing it once into ${CACHE_DIR}` +
				(N8N_MAJOR >= 2
					? ' with Node 24 (about 10 minutes on 2 cores, longer on a busy machine: npm install ~5 min, the Node binary, the sqlite3 build ~3-4 min)'
					: ' (about 2-5 minutes)') +
				'; later runs start in under half a minute.',
		);
		say(
			`Meanwhile the sandbox page is up: ${sandbox.url}/ (the users, workgroups, courses and events n8n will work on)`,
		);
	}

	// The build and the n8n install at the same time; a failed build still lets the install
	// finish (it is kept for the next run) before this run stops.
	const build = flag('no-build')
		? Promise.resolve()
		: (say('building the package (npm run build)'), run('npm', ['run', '--silent', 'build']));
	const [built, installed] = await Promise.allSettled([build, ensureN8n()]);
	if (installed.status === 'rejected') throw installed.reason;
	if (built.status === 'rejected') throw built.reason;
	if (!fs.existsSync(path.join(REPO_ROOT, 'dist')))
		throw new Error('dist/ is missing: run npm run build');
	say(`n8n ${N8N_VERSION} on ${installed.value.nodeBin}${cold ? ` (installed in ${secs()})` : ''}`);

	await linkPackage({ userFolder: USER_FOLDER });
	const examples = await loadExamples();
	await importIfChanged(sandbox.url, examples);

	say(`starting n8n on 127.0.0.1:${N8N_PORT}`);
	// The templates' Data table nodes: on 1.x, the pooled SQLite driver (docs/templates.md).
	const n8n = await startN8n({ port: N8N_PORT, userFolder: USER_FOLDER, env: DATA_TABLE_ENV });
	cleanups.push(() => n8n.stop());
	say(
		`n8n ready after ${(n8n.startupMs / 1000).toFixed(1)} s (log: ${path.relative(REPO_ROOT, n8n.logFile)})`,
	);

	const rest = new N8nRest(n8n.url);
	await rest.ensureOwner(DEV_OWNER);

	const types = (await rest.nodeTypes())
		.map((t) => t.name)
		.filter((n) => n.startsWith(`${PACKAGE_NAME}.`));
	if (!types.length) say(`WARNING: n8n did not load ${PACKAGE_NAME}; see ${n8n.logFile}`);

	const test = await rest
		.testStoredCredential(DEV_CREDENTIAL.id)
		.catch((e) => ({ status: 'Error', message: e.message }));

	// Publish workflows that can be started from outside (webhook, form, Knolyx Trigger).
	// A published Knolyx Trigger workflow is unpublished and published again on every
	// run: the sandbox starts empty each time, and n8n 2.41 (its default workflow
	// publication service) does not re-run a trigger's checkExists/create on restart,
	// so the webhook would otherwise be missing from the new sandbox.
	for (const { wf, tags } of examples) {
		if (tags.length)
			await tagWorkflow(rest, wf.id, tags).catch((e) =>
				say(`could not tag "${wf.name}": ${e.message.slice(0, 300)}`),
			);
	}

	// The data table each template with a retry schedule keeps its pending Knolyx writes in: made
	// by the workflow on n8n 2; on n8n 1.x made here with its ID in one node (its note's set-up step).
	try {
		for (const { wf } of examples) await useDataTable(rest, wf.id, { n8nMajor: N8N_MAJOR });
	} catch (e) {
		say(`could not set up the data table of pending writes: ${e.message.slice(0, 300)}`);
	}

	const published = [];
	// Closed by default (the bulk form's Basic Auth, the MCP trigger's Bearer token): n8n publishes
	// them only once the user made the credential their note asks for; said in words below.
	const needCredential = [];
	for (const example of examples) {
		const { wf } = example;
		if (!publishHere(example)) continue;
		const missing = missingInboundCredential(wf);
		if (missing) {
			needCredential.push({ wf, ...missing });
			continue;
		}
		try {
			const current = await rest.request('GET', `/rest/workflows/${wf.id}`);
			const isPublished = current.activeVersionId && current.activeVersionId === current.versionId;
			const hasKnolyxTrigger = wf.nodes.some(
				(n) => n.type === `${PACKAGE_NAME}.knolyxTrigger` && !n.disabled,
			);
			if (isPublished && hasKnolyxTrigger) await rest.deactivateWorkflow(wf.id);
			if (!isPublished || hasKnolyxTrigger) await rest.activateWorkflow(wf.id);
			published.push(wf);
		} catch (e) {
			say(`could not publish "${wf.name}": ${e.message.slice(0, 300)}`);
		}
	}

	const lines = [
		'',
		`Sandbox page: ${sandbox.url}/  (open it beside the editor: what the platform holds, live)`,
		'',
		`n8n ${N8N_VERSION} with ${PACKAGE_NAME} is running (started in ${secs()}).`,
		'',
		`  Editor:      ${n8n.url}/`,
		`  Login:       ${DEV_OWNER.email} / ${DEV_OWNER.password}`,
		`  Nodes:       ${types.join(', ') || '(not loaded!)'}`,
		`  Credential:  "${DEV_CREDENTIAL.name}" -> ${sandbox.url} (test: ${test.status}${test.message ? `, ${test.message}` : ''})`,
		`  Sandbox:     ${sandbox.url}  project ${DEMO.projectId}, key ${DEMO.apiKey}; state: ${sandbox.url}/sandbox/state`,
		'',
		'Workflows:',
		...(examples.length
			? examples.map(
					({ wf }) =>
						`  - ${wf.name}${published.includes(wf) ? ' (published)' : ''}: ${n8n.url}/workflow/${wf.id}`,
				)
			: ['  (none in examples/ yet)']),
		...(needCredential.length
			? [
					'',
					'Not published: each needs a credential of your own first (closed by default, as its note says):',
					...needCredential.map(
						({ wf, node, label }) =>
							`  - "${wf.name}": open "${node}", create a ${label} credential in it, then publish.`,
					),
				]
			: []),
		'',
		'Try:',
		'  - Open a workflow and click "Execute workflow"; then look at the sandbox page.',
	];
	for (const { wf, demo } of examples) {
		if (!demo || published.includes(wf)) continue;
		const trigger = wf.nodes.find((n) => isActivatingTrigger(n.type));
		const knolyxActions = wf.nodes.some((n) => n.type === `${PACKAGE_NAME}.knolyx`);
		lines.push(
			`  - "${wf.name}": open it and click "Execute workflow": ${demo.tool}'s sample ${demo.event} is pinned on "${trigger?.name}"` +
				`${Object.keys(demo.pins).length > 1 ? ' (and on the nodes that read its API)' : ''}; ` +
				(knolyxActions
					? 'the Knolyx nodes run against the sandbox.'
					: 'the tool nodes at the end need your own credentials (select one and press D to switch it off).'),
		);
	}
	for (const wf of published) {
		for (const node of wf.nodes) {
			if (node.type === 'n8n-nodes-base.webhook') {
				const auth =
					node.parameters?.authentication === 'headerAuth'
						? ` -H '${PAYMENT_HOOK_HEADER.name}: ${PAYMENT_HOOK_HEADER.value}'`
						: '';
				lines.push(
					`  - "${wf.name}": curl -X ${node.parameters?.httpMethod ?? 'GET'} -H 'content-type: application/json'${auth} ${n8n.url}/webhook/${node.parameters?.path ?? node.webhookId} -d '${sampleBody(wf)}'`,
				);
			} else if (node.type === 'n8n-nodes-base.formTrigger') {
				// Form Trigger 2.2+ keeps its path under options.
				lines.push(
					`  - "${wf.name}": open the form ${n8n.url}/form/${node.parameters?.path ?? node.parameters?.options?.path ?? node.webhookId}`,
				);
			} else if (node.type === '@n8n/n8n-nodes-langchain.mcpTrigger') {
				// Version 2+: Streamable HTTP and SSE on one URL; 1.x: SSE on <path>/sse.
				const mcpUrl = `${n8n.url}/mcp/${node.parameters?.path}${node.typeVersion >= 2 ? '' : '/sse'}`;
				lines.push(
					`  - "${wf.name}": paste this MCP server URL into your agent (Claude, ChatGPT, your IDE): ${mcpUrl}`,
				);
			} else if (node.type === `${PACKAGE_NAME}.knolyxTrigger`) {
				lines.push(
					`  - "${wf.name}": make the sandbox send an event:`,
					`      curl -X POST -H 'content-type: application/json' ${sandbox.url}/sandbox/activity/course-completed -d '{"email":"ada@example.com","courseId":101}'`,
					`    (also course-started, course-payment, bundle-payment {"email","bundleId":601}); see Executions in n8n.`,
				);
			}
		}
	}
	lines.push('', 'Ctrl-C stops n8n and the sandbox.');
	console.log(lines.join('\n'));

	// Stay up until Ctrl-C, or until a child dies on its own.
	const why = await Promise.race([
		n8n.exited.then(() => 'n8n exited'),
		new Promise((r) => sandbox.child.on('exit', () => r('the sandbox exited'))),
	]);
	if (!stopping) {
		console.error(`${why} unexpectedly; stopping.`);
		await shutdown(1);
	}
}

main().catch(async (err) => {
	console.error(`\nnpm run dev failed: ${err.stack ?? err}`);
	await shutdown(1);
});
