#!/usr/bin/env node
// The package installed, updated and removed the way users do it: `npm run test:install`
// (scripts/install-suite.mjs prepares the machine, packs the package, runs this file in its own
// process group under a time limit and kills whatever is left). Run folder: KNOLYX_E2E_RUN_DIR.
//
//   registry   verdaccio (scripts/registry/verdaccio.mjs) with the packed tarball published as
//              0.1.0-style <version>, and a proxy with its own test CA standing for the public
//              registry's host (scripts/registry/proxy.mjs), handed to n8n's npm through npm's
//              proxy and CA settings; n8n itself is not changed
//   way1       Settings → Community Nodes → Install: POST /rest/community-packages as the owner
//   way2       N8N_COMMUNITY_PACKAGES=n8n-nodes-knolyx@<version> at start (n8n 2.x)
//   way3       `npm install` in <user folder>/.n8n/nodes (README's command) and a start; the plain
//              `npm install` is checked too (what it does with the n8n-workflow peer)
//   each way   the nodes and the credential as n8n-nodes-knolyx.*, icons and documentation links,
//              the credential test, two example workflows run against the sandbox, the Knolyx
//              Trigger registers one webhook and runs once per event
//   life       (after way1) update to a newer version with the trigger live and deliveries
//              arriving (PATCH /rest/community-packages), rollback, uninstall
//   queue      (2.x) main, worker and webhook processor each install it from the registry:
//              the main from N8N_COMMUNITY_PACKAGES, the others from the database's record
//
// Flags: --ways 1,2,3  --no-life  --events-after N  --strict-swap  --no-queue  --probe-concurrency N

import crypto from 'node:crypto';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import {
	cleanNpmEnv,
	freePort,
	N8N_MAJOR,
	N8N_VERSION,
	N8nRest,
	PACKAGE_NAME,
	startN8n,
} from '../../scripts/n8n-runtime.mjs';
import { startRegistryProxy } from '../../scripts/registry/proxy.mjs';
import { startVerdaccio } from '../../scripts/registry/verdaccio.mjs';
import { nodeOutput, readExample, runManually as runManuallyE2e } from '../e2e/lib/n8n.mjs';
import { RUN_DIR, sleep, startSandboxProcess, trackPid, waitFor } from '../e2e/lib/processes.mjs';
import { DEMO, SandboxClient } from '../e2e/lib/sandbox.mjs';
import { clusterEnv } from '../queue/lib/cluster.mjs';
import { reportingToSink, startSink } from '../queue/lib/http.mjs';
import { startPostgres, startRedis } from '../queue/lib/services.mjs';
import {
	n8nDefaultRegistry,
	proxyEnv,
	publishTarball,
	registryUser,
	setLatest,
	writeNodesNpmrc,
} from './lib/registry.mjs';

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
	const i = argv.indexOf(`--${name}`);
	return i >= 0 ? argv[i + 1] : fallback;
};
const TARBALL = process.env.KNOLYX_INSTALL_TARBALL;
if (!TARBALL || !fs.existsSync(TARBALL))
	throw new Error(
		'KNOLYX_INSTALL_TARBALL must name the packed package (scripts/install-suite.mjs sets it)',
	);
const WAYS = new Set(
	flag('ways', N8N_MAJOR >= 2 ? '1,2,3' : '1,3')
		.split(',')
		.map(Number),
);
const LIFE = !argv.includes('--no-life');
/** Events delivered after an update/rollback finished (one every ~250 ms, from before the request on). */
const EVENTS_AFTER = Number(flag('events-after', 15));
/**
 * Exactly once also for deliveries that arrive while n8n swaps the package: not held (docs/install.md
 * "Updating"; a clean-clone CI run of 2026-12-07 saw 1 of 25 run again), so only reported by default.
 */
const STRICT_SWAP = argv.includes('--strict-swap');
/** Queue mode from the registry (n8n 2.x; needs Debian's redis-server and PostgreSQL). */
const QUEUE = N8N_MAJOR >= 2 && !argv.includes('--no-queue');
const PROBE = Number(flag('probe-concurrency', 0));

const T0 = Date.now();
const secs = (from = T0) => ((Date.now() - from) / 1000).toFixed(1);
const say = (msg) => console.error(`[install ${N8N_VERSION} ${secs()} s] ${msg}`);
const timings = {};
const checks = [];
function check(name, ok, detail = '') {
	checks.push({ name, ok: !!ok, detail });
	console.error(`${ok ? '  ok  ' : '  FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
	return !!ok;
}
async function phase(name, fn) {
	const t = Date.now();
	say(`--- ${name}`);
	try {
		return await fn();
	} catch (e) {
		check(`${name}: ran to the end`, false, e.stack ?? String(e));
		return undefined;
	} finally {
		timings[name] = Number(secs(t));
		say(`--- ${name} done in ${secs(t)} s`);
	}
}

const OWNER = {
	email: 'install-owner@example.com',
	password: 'Knolyx-Install-1',
	firstName: 'Install',
	lastName: 'Owner',
};
const TYPES = ['knolyx', 'knolyxTrigger', 'knolyxPollTrigger'].map((t) => `${PACKAGE_NAME}.${t}`);
const stops = [];
/** The README's command for the nodes folder (Install in your n8n). */
const README_NPM_ARGS = ['--omit=peer'];

// ------------------------------------------------------------------ n8n, as each way installs

async function startInstance(label, { env = {}, proxy }) {
	const userFolder = path.join(RUN_DIR, label);
	if (proxy) writeNodesNpmrc({ userFolder, proxy });
	const n8n = await startN8n({
		userFolder,
		env: { ...(proxy ? proxyEnv({ proxy }) : {}), ...env },
		timeoutMs: 300_000,
	});
	trackPid(n8n.pid, `n8n ${label}`);
	stops.push(() => n8n.stop());
	const rest = new N8nRest(n8n.url);
	await rest.ensureOwner(OWNER);
	return { n8n, rest, userFolder, label };
}

/** The node types, credential, icons and documentation links n8n serves for the installed package. */
async function checkTypes(inst) {
	const { rest, n8n, label } = inst;
	const nodes = (await rest.nodeTypes()).filter((t) => t.name.startsWith(`${PACKAGE_NAME}.`));
	const names = new Set(nodes.map((t) => t.name));
	check(
		`${label}: the three nodes are n8n-nodes-knolyx.*`,
		TYPES.every((t) => names.has(t)),
		[...names].join(', '),
	);
	for (const type of TYPES) {
		const d = nodes.find((t) => t.name === type);
		if (!d) continue;
		const icon = typeof d.iconUrl === 'object' ? d.iconUrl.light : d.iconUrl;
		let iconOk = false;
		if (icon) {
			const res = await fetch(`${n8n.url}/${icon.replace(/^\//, '')}`);
			const body = await res.text();
			iconOk = res.ok && body.includes('<svg');
		}
		check(`${label}: ${type} icon served`, iconOk, String(icon));
		const docs = d.codex?.resources?.primaryDocumentation?.[0]?.url ?? d.documentationUrl;
		check(`${label}: ${type} documentation link`, /^https:\/\//.test(docs ?? ''), String(docs));
	}
	const creds = await rest.credentialTypes();
	const cred = creds.find((c) => c.name === 'knolyxApi');
	check(
		`${label}: credential knolyxApi for n8n-nodes-knolyx.knolyx`,
		cred &&
			(cred.supportedNodes ?? []).includes(`${PACKAGE_NAME}.knolyx`) &&
			/^https:\/\//.test(cred.documentationUrl ?? ''),
		cred
			? `supportedNodes ${JSON.stringify(cred.supportedNodes)}, docs ${cred.documentationUrl}`
			: 'missing',
	);
	const iconUrl = typeof cred?.iconUrl === 'object' ? cred.iconUrl.light : cred?.iconUrl;
	if (iconUrl) {
		const res = await fetch(`${n8n.url}/${iconUrl.replace(/^\//, '')}`);
		check(
			`${label}: credential icon served`,
			res.ok && (await res.text()).includes('<svg'),
			iconUrl,
		);
	}
}

async function createCredential(inst, sandbox) {
	const cred = await inst.rest.request('POST', '/rest/credentials', {
		name: 'Knolyx sandbox',
		type: 'knolyxApi',
		data: { baseUrl: sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.apiKey },
	});
	const tested = await inst.rest.testStoredCredential(cred.id);
	check(`${inst.label}: credential test passes`, tested?.status === 'OK', JSON.stringify(tested));
	return cred;
}

function withCredential(wf, cred) {
	for (const n of wf.nodes)
		if (n.credentials?.knolyxApi) n.credentials.knolyxApi = { id: cred.id, name: cred.name };
	return wf;
}

async function createWorkflow(inst, wf) {
	const { id: _id, pinData: _p, ...body } = wf;
	return inst.rest.request('POST', '/rest/workflows', { ...body, active: false });
}

/** Run a stored workflow as the editor's "Execute workflow" button does (test/e2e/lib/n8n.mjs). */
const runManually = (inst, wf, triggerName) => runManuallyE2e(inst.rest, wf.id, triggerName);

/** The two manual examples (Flow A: register for an event; Flow B setup: the course's payment rule) run against the sandbox. */
async function runExamples(inst, cred, sb) {
	for (const file of ['flow-a-event-registration.json', 'flow-b-setup-course-rule.json']) {
		const ex = readExample(file);
		const wf = await createWorkflow(inst, withCredential(ex, cred));
		const manual = ex.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
		const run = await runManually(inst, wf, manual.name);
		check(`${inst.label}: example ${file} runs`, run.status === 'success', `status ${run.status}`);
	}
	const state = await sb.state();
	const grace = state.users.find((u) => u.email === 'grace@example.com');
	const event = state.events.find((e) => e.id === 401);
	check(
		`${inst.label}: Flow A's registrant attends event 401 on the platform`,
		grace && event?.attendeeIds.includes(grace.id),
		`user ${grace?.id}, attendees ${JSON.stringify(event?.attendeeIds)}`,
	);
}

/** examples/course-completed-notification.json plus one POST per execution to a sink: { eventId, executionId }. */
function triggerWorkflow(cred, sinkUrl) {
	return reportingToSink(withCredential(readExample('course-completed-notification.json'), cred), {
		triggerType: `${PACKAGE_NAME}.knolyxTrigger`,
		sinkUrl,
		reportId: 'e4b6f4d0-0001-4da1-8f94-0000000000aa',
		top: { name: 'install: Knolyx Trigger, course completed' },
	});
}

/** Events on the platform: fresh users completing course 101; each event's messages (one per webhook). */
function eventSource(sb, label) {
	let n = 0;
	const emitted = [];
	return {
		emitted,
		async emit() {
			const i = n++;
			const email = `${label}-${i}-${crypto.randomBytes(3).toString('hex')}@example.com`;
			await sb.request('POST', '/sandbox/seed', {
				users: [{ firstName: 'Install', lastName: `Student ${i}`, email }],
			});
			const res = await sb.activity('course-completed', { email, courseId: 101 });
			for (const m of res.messages ?? []) emitted.push({ messageId: m.messageId, at: Date.now() });
			return res.messages ?? [];
		},
	};
}

async function settle(sink, { quietMs = 3_000, maxMs = 60_000 } = {}) {
	const t = Date.now();
	let last = -1;
	while (Date.now() - t < maxMs) {
		if (sink.received.length === last) return;
		last = sink.received.length;
		await sleep(quietMs);
	}
}

function perEvent(sink) {
	const m = new Map();
	for (const r of sink.received) if (r.eventId) m.set(r.eventId, (m.get(r.eventId) ?? 0) + 1);
	return m;
}

/** Publish the trigger workflow: one webhook on the platform, one execution per event. */
async function checkTrigger(inst, cred, sb, sink) {
	const wf = await createWorkflow(inst, triggerWorkflow(cred, sink.url));
	const before = (await sb.webhooks()).length;
	await inst.rest.activateWorkflow(wf.id);
	const hooks = await sb.webhooks();
	check(
		`${inst.label}: the Knolyx Trigger registers one webhook`,
		hooks.length === before + 1,
		`${before} before, ${hooks.length} after: ${hooks.map((h) => h.url).join(', ')}`,
	);
	const events = eventSource(sb, inst.label);
	for (let i = 0; i < 3; i++) await events.emit();
	await waitFor(() => sink.received.length >= 3, {
		timeoutMs: 60_000,
		what: '3 trigger executions',
	});
	await settle(sink);
	const counts = perEvent(sink);
	check(
		`${inst.label}: each event runs the trigger workflow once`,
		events.emitted.every((e) => counts.get(e.messageId) === 1),
		JSON.stringify(events.emitted.map((e) => counts.get(e.messageId) ?? 0)),
	);
	return { wf, events };
}

/**
 * The Knolyx Trigger's seen-id window as n8n stored it with the workflow (its static data, read
 * through REST): the first 11 base64url characters of each id's SHA-256, in chunks
 * (nodes/Knolyx/trigger/dedupe.ts; the same reading as test/queue/queue.mjs).
 */
async function storedWindow(inst, wf) {
	// Read just after a package swap: in fresh CI run C (2026-11-29), beside queue mode's four n8n
	// processes, 2.41.1 took longer than the client's 30 s to answer this read after the rollback.
	const stored = await inst.rest.request('GET', `/rest/workflows/${wf.id}`, undefined, {
		timeoutMs: 90_000,
	});
	const data =
		typeof stored.staticData === 'string'
			? JSON.parse(stored.staticData)
			: (stored.staticData ?? {});
	const node = Object.entries(data).find(([k]) => k.startsWith('node:'))?.[1] ?? {};
	const hashes = new Set(
		(node.seen?.production?.ids ?? []).flatMap((chunk) => chunk.match(/.{11}/g) ?? []),
	);
	const hashOf = (id) =>
		crypto.createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, 11);
	return { size: hashes.size, has: (id) => hashes.has(hashOf(id)) };
}

/** A one-node run of the Knolyx action node: Manual Trigger → Knolyx with `parameters`; returns { status, items }. */
async function runKnolyx(inst, cred, parameters) {
	const manual = {
		parameters: {},
		id: crypto.randomUUID(),
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
	};
	const knolyx = {
		parameters,
		id: crypto.randomUUID(),
		name: 'Knolyx',
		type: `${PACKAGE_NAME}.knolyx`,
		typeVersion: 1,
		position: [220, 0],
		credentials: { knolyxApi: { id: cred.id, name: cred.name } },
	};
	const wf = await createWorkflow(inst, {
		name: `install: Knolyx ${parameters.resource} ${parameters.operation}`,
		nodes: [manual, knolyx],
		connections: { Start: { main: [[{ node: 'Knolyx', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	const run = await runManually(inst, wf, 'Start');
	return { status: run.status, items: nodeOutput(run, 'Knolyx') ?? [] };
}

async function stopInstance(inst) {
	await inst.n8n.stop();
}

/** Everything the three ways share: types, credential test, examples, trigger; then n8n stops. */
async function provenInstance(inst, sb, sink, { keep = false } = {}) {
	await sb.request('POST', '/sandbox/reset', { seed: 'demo' }); // each way starts from the demo data
	await checkTypes(inst);
	const cred = await createCredential(inst, sb);
	await runExamples(inst, cred, sb);
	const trig = await checkTrigger(inst, cred, sb, sink);
	if (!keep) {
		await inst.rest.deactivateWorkflow(trig.wf.id);
		check(
			`${inst.label}: unpublishing deletes the webhook`,
			(await sb.webhooks()).length === 0,
			JSON.stringify(await sb.webhooks()),
		);
		await stopInstance(inst);
	}
	return { cred, ...trig };
}

// ------------------------------------------------------------------ the run

async function main() {
	const registryUrl = n8nDefaultRegistry();
	say(`n8n ${N8N_VERSION}'s default registry (read from its dist): ${registryUrl}`);

	const verdaccio = await phase('registry', async () => {
		const v = await startVerdaccio({
			dir: path.join(RUN_DIR, 'verdaccio'),
			uplink: registryUrl,
			ours: PACKAGE_NAME,
		});
		trackPid(v.pid, 'verdaccio');
		stops.push(() => v.stop());
		return v;
	});
	if (!verdaccio) return;
	const publisher = await registryUser({ registryUrl: verdaccio.url, dir: RUN_DIR });
	const packed = JSON.parse(
		execFileSync('tar', ['-xzOf', TARBALL, 'package/package.json'], { encoding: 'utf8' }),
	);
	const v1 = publishTarball({
		tarball: TARBALL,
		registryUrl: verdaccio.url,
		npmrc: publisher.npmrc,
		dir: RUN_DIR,
	});
	const meta = await (await fetch(new URL(PACKAGE_NAME, verdaccio.url))).json();
	check(
		'registry: the packed package is published',
		meta.versions?.[v1] && meta['dist-tags']?.latest === v1,
		`${v1}, latest ${meta['dist-tags']?.latest}`,
	);
	const proxy = await startRegistryProxy({
		dir: path.join(RUN_DIR, 'proxy'),
		registryUrl,
		upstream: verdaccio.url,
	});
	stops.push(() => proxy.close());
	timings.proxyRequests = proxy.requests; // what n8n (and its npm) asked the public registry's name for
	const viaProxy = () =>
		proxy.requests.filter((r) => r.path.includes(PACKAGE_NAME) && r.status === 200).length;

	const sandbox = await startSandboxProcess({ seed: 'demo' });
	stops.push(() => sandbox.stop());
	const sb = new SandboxClient(sandbox.url);
	const sink = await startSink();
	stops.push(() => sink.close());

	// ---------------------------------------------------------------- way 1: the Community Nodes page
	let way1;
	if (WAYS.has(1)) {
		way1 = await phase('way1 (Settings → Community Nodes → Install)', async () => {
			const inst = await startInstance('way1', { proxy });
			const before = viaProxy();
			const t = Date.now();
			const installed = await inst.rest.request(
				'POST',
				'/rest/community-packages',
				{ name: PACKAGE_NAME },
				{ timeoutMs: 300_000 },
			);
			timings.way1InstallSeconds = Number(secs(t));
			check(
				'way1: POST /rest/community-packages installs the published version',
				installed?.packageName === PACKAGE_NAME && installed.installedVersion === v1,
				`${installed?.packageName}@${installed?.installedVersion} in ${timings.way1InstallSeconds} s; nodes ${installed?.installedNodes?.map((n) => n.type).join(', ')}`,
			);
			check(
				'way1: n8n fetched it through the proxy from the local registry',
				viaProxy() > before,
				`${viaProxy() - before} request(s) for the package`,
			);
			const onDisk = JSON.parse(
				fs.readFileSync(
					path.join(inst.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json'),
					'utf8',
				),
			);
			check(
				'way1: the installed files are the published tarball',
				onDisk.version === v1 && onDisk.name === packed.name,
			);
			return { inst, ...(await provenInstance(inst, sb, sink, { keep: LIFE })) };
		});
	}

	// A probe, not a check (--probe-concurrency N): N events delivered 4 at a time, then how many
	// of their ids the window n8n stored holds (those missing run again on a resend after the
	// process's memory is gone: a restart, or the package swap of an update).
	if (way1 && PROBE) {
		await phase('probe: concurrent deliveries and the stored window', async () => {
			const events = eventSource(sb, 'probe');
			await Promise.all(
				Array.from({ length: 4 }, async () => {
					while (events.emitted.length < PROBE) await events.emit();
				}),
			);
			await settle(sink, { quietMs: 4_000 });
			const window = await storedWindow(way1.inst, way1.wf);
			const missing = events.emitted.filter((e) => !window.has(e.messageId));
			timings.probe = { events: events.emitted.length, missingFromStoredWindow: missing.length };
			say(
				`probe: ${events.emitted.length} events 4 at a time; ${missing.length} ids missing from the stored window`,
			);
		});
	}

	// ---------------------------------------------------------------- update, rollback, uninstall (on way 1's n8n)
	if (way1 && LIFE) await life({ way1, sb, sink, verdaccio, publisher, v1 });
	// The update and the rollback under load are over: .ci/run's other lane waits for this file
	// before it starts queue mode, whose load made n8n's SQLite time out during a swap.
	if (process.env.KNOLYX_INSTALL_LIFE_DONE)
		fs.writeFileSync(process.env.KNOLYX_INSTALL_LIFE_DONE, '');

	// ---------------------------------------------------------------- way 2: N8N_COMMUNITY_PACKAGES at start
	if (WAYS.has(2)) {
		await phase('way2 (N8N_COMMUNITY_PACKAGES)', async () => {
			setLatest({ version: v1, registryUrl: verdaccio.url, npmrc: publisher.npmrc, dir: RUN_DIR });
			const before = viaProxy();
			// n8n 2.41's loader (instance-settings-loader, community-packages): a JSON list of
			// { name, version?, checksum? }, read only with N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true.
			const inst = await startInstance('way2', {
				proxy,
				env: {
					N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
					N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: PACKAGE_NAME, version: v1 }]),
				},
			});
			check(
				'way2: n8n installed it at start through the proxy',
				viaProxy() > before,
				`${viaProxy() - before} request(s)`,
			);
			const list = await inst.rest.request('GET', '/rest/community-packages');
			check(
				'way2: listed as an installed community package',
				list.some((p) => p.packageName === PACKAGE_NAME && p.installedVersion === v1),
				JSON.stringify(list.map((p) => `${p.packageName}@${p.installedVersion}`)),
			);
			await provenInstance(inst, sb, sink);
		});
	}

	// ---------------------------------------------------------------- way 3: npm install in ~/.n8n/nodes
	if (WAYS.has(3)) await way3({ sb, sink, verdaccio, v1 });

	// ---------------------------------------------------------------- queue mode, every process from the registry
	if (QUEUE) await queueMode({ sb, sink, proxy, v1, viaProxy });

	fs.writeFileSync(
		path.join(RUN_DIR, 'summary.json'),
		JSON.stringify({ n8n: N8N_VERSION, timings, checks }, null, 2),
	);
}

// ------------------------------------------------------------------ way 3

/**
 * `npm install <args> n8n-nodes-knolyx` in <userFolder>/.n8n/nodes, from the local registry, with the
 * user's npm and its defaults (install scripts run). Resolves { ok, error, dir, pkg, secondWorkflow }.
 */
async function npmInstallInNodes(userFolder, registryUrl, args) {
	const dir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(dir, { recursive: true });
	const res = await new Promise((resolve) =>
		execFile(
			'npm',
			[
				'install',
				...args,
				PACKAGE_NAME,
				`--registry=${registryUrl}`,
				'--no-audit',
				'--no-fund',
				'--loglevel=error',
			],
			{ cwd: dir, env: cleanNpmEnv(), timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
			(err, stdout, stderr) => resolve({ ok: !err, stderr: String(stderr) }),
		),
	);
	const wfPkg = path.join(dir, 'node_modules', 'n8n-workflow', 'package.json');
	return {
		ok: res.ok,
		error: res.ok
			? ''
			: (res.stderr.split('\n').find((l) => /error:|ERR!|gyp ERR! stack Error/.test(l)) ??
				res.stderr.slice(0, 300)),
		dir,
		pkg: fs.existsSync(path.join(dir, 'node_modules', PACKAGE_NAME, 'package.json')),
		secondWorkflow: fs.existsSync(wfPkg)
			? JSON.parse(fs.readFileSync(wfPkg, 'utf8')).version
			: null,
	};
}

/** A Knolyx node that gets a 404 (Flow A with an event that does not exist): how n8n shows the node's error. */
async function nodeErrorShown(inst, cred) {
	const ex = withCredential(readExample('flow-a-event-registration.json'), cred);
	const node = ex.nodes.find((n) => n.type === `${PACKAGE_NAME}.knolyx`);
	node.parameters.eventId = '999999';
	ex.name = 'install: a node error';
	const wf = await createWorkflow(inst, ex);
	const manual = ex.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	const run = await runManually(inst, wf, manual.name);
	const err = run.run?.resultData?.error ?? {};
	return {
		status: run.status,
		name: err.name,
		httpCode: err.httpCode,
		node: err.node?.name,
		message: String(err.message ?? '').slice(0, 160),
	};
}

async function way3({ sb, sink, verdaccio, v1 }) {
	await phase('way3 (npm install in ~/.n8n/nodes)', async () => {
		// The command users type without options: what npm does with the n8n-workflow peer.
		const plain = await npmInstallInNodes(path.join(RUN_DIR, 'way3-plain'), verdaccio.url, []);
		timings.way3Plain = { ok: plain.ok, error: plain.error, secondWorkflow: plain.secondWorkflow };
		say(
			`plain \`npm install ${PACKAGE_NAME}\`: ${plain.ok ? 'installed' : `FAILED (${plain.error})`}; n8n-workflow in nodes/node_modules: ${plain.secondWorkflow ?? 'none'}`,
		);
		check(
			`way3: a plain \`npm install ${PACKAGE_NAME}\` fails or brings a second n8n-workflow (why the README's command has ${README_NPM_ARGS.join(' ')})`,
			!plain.ok || plain.secondWorkflow,
			plain.ok ? `n8n-workflow ${plain.secondWorkflow} in nodes/node_modules` : plain.error,
		);
		if (plain.ok && plain.pkg) {
			const plainInst = await startInstance('way3-plain', {});
			const plainCred = await createCredential(plainInst, sb);
			timings.way3Plain.nodeError = await nodeErrorShown(plainInst, plainCred);
			say(`plain install, a node's 404: ${JSON.stringify(timings.way3Plain.nodeError)}`);
			await stopInstance(plainInst);
		}

		// README's command.
		const userFolder = path.join(RUN_DIR, 'way3');
		const got = await npmInstallInNodes(userFolder, verdaccio.url, README_NPM_ARGS);
		check(
			`way3: README's \`npm install ${README_NPM_ARGS.join(' ')} ${PACKAGE_NAME}\` installs it and no second n8n-workflow`,
			got.ok && got.pkg && !got.secondWorkflow,
			`exit ${got.ok ? 0 : got.error}, package ${got.pkg}, nodes/node_modules/n8n-workflow ${got.secondWorkflow ?? 'none'}`,
		);
		const inst = await startInstance('way3', {});
		const proven = await provenInstance(inst, sb, sink, { keep: true });
		const shown = await nodeErrorShown(inst, proven.cred);
		check(
			"way3: a node error is shown as the node's API error (404)",
			shown.status === 'error' &&
				shown.name === 'NodeApiError' &&
				String(shown.httpCode) === '404' &&
				shown.node === 'Register for event',
			JSON.stringify(shown),
		);
		await inst.rest.deactivateWorkflow(proven.wf.id);
		await stopInstance(inst);
	});
}

// ------------------------------------------------------------------ update, rollback, uninstall

async function life({ way1, sb, sink, verdaccio, publisher, v1 }) {
	const { inst, wf, cred } = way1;
	const [maj, min, pat] = v1.split('.').map(Number);
	const v2 = `${maj}.${min}.${pat + 1}`;
	const delivered = (counts, list) => list.filter((e) => counts.get(e.messageId) === 1).length;

	/** While `action` runs, and for a while after, one event every ~250 ms; then resend every event; check exactly once. */
	const underLoad = async (name, action, { expectWebhooks }) => {
		const events = eventSource(sb, `${inst.label}-${name}`);
		const previous = [...perEvent(sink).keys()];
		let stop = false;
		let beforeEnd = 0;
		const loop = (async () => {
			while (!stop) {
				await events.emit().catch((e) => say(`emit: ${e.message}`));
				await sleep(250);
			}
		})();
		await sleep(1_000);
		const t = Date.now();
		let result;
		try {
			result = await action();
		} finally {
			timings[`${name}Seconds`] = Number(secs(t));
			beforeEnd = events.emitted.length;
			// Deliveries go on after n8n's answer: past the swap window below, EVENTS_AFTER more.
			await sleep(2_100);
			const afterSwap = events.emitted.length;
			while (events.emitted.length < afterSwap + EVENTS_AFTER) await sleep(200);
			stop = true;
			await loop;
		}
		await settle(sink, { quietMs: 4_000 });
		const window = await storedWindow(inst, wf);
		const missing = events.emitted.filter((e) => !window.has(e.messageId));
		say(
			`${name}: the stored seen-id window holds ${window.size} ids; ${missing.length} of this phase's ${events.emitted.length} events are not in it: ${JSON.stringify(missing.map((e) => events.emitted.indexOf(e)))}`,
		);
		const hooks = await sb.webhooks();
		check(
			`${name}: ${expectWebhooks} webhook(s) on the platform`,
			hooks.length === expectWebhooks,
			hooks.map((h) => `${h.id} ${h.url}`).join(', '),
		);
		let counts = perEvent(sink);
		const ranBefore = delivered(counts, events.emitted);
		const failed =
			(await sb.deliveries({ ok: false })).filter?.((d) =>
				events.emitted.some((e) => e.messageId === d.messageId),
			) ?? [];
		say(
			`${name}: ${events.emitted.length} events (${beforeEnd} before the action ended), ${ranBefore} ran once before the resends, ${failed.length} failed attempt(s)`,
		);
		// Users (and the platform's retries) resend: every event of this phase and the ones before.
		for (const e of events.emitted) await sb.resend(e.messageId).catch(() => undefined);
		for (const id of previous.slice(-10)) await sb.resend(id).catch(() => undefined);
		await settle(sink, { quietMs: 4_000 });
		counts = perEvent(sink);
		// The swap: from the request to n8n's answer, plus 2 s for executions still finishing.
		const swapEnd = t + timings[`${name}Seconds`] * 1000 + 2_000;
		const inSwap = (e) => e.at >= t && e.at <= swapEnd;
		const detail = (list) =>
			JSON.stringify(
				list
					.slice(0, 10)
					.map((e) => [
						events.emitted.indexOf(e),
						counts.get(e.messageId) ?? 0,
						e.at - t,
						window.has(e.messageId),
					]),
			);
		const outside = events.emitted.filter((e) => !inSwap(e));
		const notOnce = outside.filter((e) => counts.get(e.messageId) !== 1);
		check(
			`${name}: every event delivered before and after the swap ran exactly once, resends included`,
			notOnce.length === 0 && outside.filter((e) => e.at > swapEnd).length >= EVENTS_AFTER,
			`${outside.length} events; not once (index, runs, ms after the request, in the stored window): ${detail(notOnce)}`,
		);
		const during = events.emitted.filter(inSwap);
		const again = during.filter((e) => counts.get(e.messageId) !== 1);
		timings[`${name}Swap`] = {
			events: during.length,
			ranAgainOnResend: again.length,
			notInStoredWindow: during.filter((e) => !window.has(e.messageId)).length,
		};
		say(
			`${name}: ${during.length} events delivered while n8n swapped the package; ${again.length} ran again when resent afterwards: ${detail(again)}`,
		);
		check(
			`${name}: every event delivered during the swap ran once, and at most once more on a later resend (docs/install.md "Updating")`,
			during.every((e) => [1, 2].includes(counts.get(e.messageId))),
			detail(during.filter((e) => ![1, 2].includes(counts.get(e.messageId)))),
		);
		if (STRICT_SWAP)
			check(
				`${name}: (--strict-swap) no event delivered during the swap ran again on a resend`,
				again.length === 0,
				detail(again),
			);
		check(
			`${name}: the seen-id window survived (resent earlier events did not run again)`,
			previous.slice(-10).every((id) => counts.get(id) === 1),
			JSON.stringify(previous.slice(-10).map((id) => counts.get(id))),
		);
		return result;
	};

	/** Update (`{}`) or roll back (`{ version }`) by PATCH /rest/community-packages under load; the version n8n installed. */
	const patchUnderLoad = async (name, body) => {
		const res = await underLoad(
			name,
			() =>
				inst.rest.request(
					'PATCH',
					'/rest/community-packages',
					{ name: PACKAGE_NAME, ...body },
					{ timeoutMs: 300_000 },
				),
			{ expectWebhooks: 1 },
		);
		return res?.installedVersion;
	};

	await phase('update (live trigger)', async () => {
		publishTarball({
			tarball: TARBALL,
			version: v2,
			registryUrl: verdaccio.url,
			npmrc: publisher.npmrc,
			dir: RUN_DIR,
		});
		const updated = await patchUnderLoad('update', {});
		check(
			'update: PATCH /rest/community-packages installs the newer version',
			updated === v2,
			`${updated}`,
		);
		const status = await inst.rest.publicationStatus(wf.id);
		check(
			'update: the trigger workflow is still published',
			status.status === 'published',
			JSON.stringify(status),
		);
	});

	await phase('rollback (live trigger)', async () => {
		const rolled = await patchUnderLoad('rollback', { version: v1 });
		check('rollback: PATCH with the earlier version installs it', rolled === v1, `${rolled}`);
	});

	await phase('uninstall (live trigger)', async () => {
		const hooksBefore = await sb.webhooks();
		const res = await inst.rest.request(
			'DELETE',
			`/rest/community-packages?name=${PACKAGE_NAME}`,
			undefined,
			{ expectOk: false, timeoutMs: 120_000 },
		);
		say(`uninstall answered HTTP ${res.status} ${JSON.stringify(res.data).slice(0, 300)}`);
		const status = await inst.rest.publicationStatus(wf.id).catch((e) => ({ error: e.message }));
		const hooksAfter = await sb.webhooks();
		say(
			`after uninstall: workflow ${JSON.stringify(status)}; webhooks on the platform: ${hooksAfter.length} (before ${hooksBefore.length})`,
		);
		timings.uninstall = {
			http: res.status,
			workflow: status.status,
			webhooksBefore: hooksBefore.length,
			webhooksAfter: hooksAfter.length,
		};
		// What a user does next: unpublish the workflow.
		const off = await inst.rest.request(
			'POST',
			`/rest/workflows/${wf.id}/deactivate`,
			{},
			{ expectOk: false },
		);
		await sleep(2_000);
		const hooksFinal = await sb.webhooks();
		say(`after unpublishing: HTTP ${off.status}; webhooks on the platform: ${hooksFinal.length}`);
		timings.uninstall.afterUnpublish = hooksFinal.length;
		// The way out in docs/install.md ("Uninstalling") when n8n gave the node no chance to delete
		// it: install the package again, Knolyx → Webhook → Get Many, find the registration by its
		// name, Delete that one.
		const leftover = hooksFinal.filter((h) => h.name.startsWith(`n8n: ${wf.name} / `));
		if (hooksFinal.length) {
			check(
				'uninstall: the registration left behind names its workflow and node',
				leftover.length === hooksFinal.length,
				JSON.stringify(hooksFinal.map((h) => h.name)),
			);
			await inst.rest.request(
				'POST',
				'/rest/community-packages',
				{ name: PACKAGE_NAME },
				{ timeoutMs: 300_000 },
			);
			const listed = await runKnolyx(inst, cred, { resource: 'webhook', operation: 'getAll' });
			const found = (listed.items ?? []).filter((h) => h.name?.startsWith(`n8n: ${wf.name} / `));
			check(
				'uninstall: Webhook → Get Many lists it by name',
				listed.status === 'success' && found.length === leftover.length,
				JSON.stringify(listed.items),
			);
			for (const h of found) {
				const del = await runKnolyx(inst, cred, {
					resource: 'webhook',
					operation: 'delete',
					webhookId: String(h.id),
				});
				check(
					`uninstall: Webhook → Delete removes registration ${h.id}`,
					del.status === 'success',
					JSON.stringify(del.items),
				);
			}
			const end = await sb.webhooks();
			check(
				'uninstall: no webhook left on the platform afterwards',
				end.length === 0,
				JSON.stringify(end),
			);
		} else {
			check('uninstall: no webhook left on the platform', true);
		}
		await stopInstance(inst);
	});
}

// ------------------------------------------------------------------ queue mode

/**
 * n8n 2.41.1 in queue mode (Redis and PostgreSQL from Debian, test/queue/lib): a main, a worker and a
 * webhook processor, each with its own user folder and none given the package from a folder: the
 * main installs it from N8N_COMMUNITY_PACKAGES, the others from the database's record
 * (N8N_REINSTALL_MISSING_PACKAGES), all from the local registry through the proxy. One execution per unique
 * event (resends included), and the Knolyx action node runs on the worker.
 */
async function queueMode({ sb, sink, proxy, v1, viaProxy }) {
	await phase(
		'queue mode (main: N8N_COMMUNITY_PACKAGES; worker, webhook processor: N8N_REINSTALL_MISSING_PACKAGES)',
		async () => {
			const [redis, postgres] = await Promise.all([
				startRedis({ dir: path.join(RUN_DIR, 'queue-redis') }),
				startPostgres({ dir: path.join(RUN_DIR, 'queue-postgres') }),
			]);
			stops.push(() => redis.stop());
			stops.push(() => postgres.stop());
			const webhookPort = await freePort();
			const env = {
				...clusterEnv({
					redisPort: redis.port,
					postgres,
					publicUrl: `http://127.0.0.1:${webhookPort}`,
					encryptionKey: crypto.randomBytes(24).toString('hex'),
					stall: { lockDurationMs: 15_000, lockRenewMs: 5_000, stalledIntervalMs: 10_000 },
				}),
				...proxyEnv({ proxy }),
				N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
				N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: PACKAGE_NAME, version: v1 }]),
				// n8n 2.41.1 reads N8N_COMMUNITY_PACKAGES in `n8n start` only (commands/start.js runs the
				// instance-settings loader; worker and webhook do not). A worker or webhook processor
				// installs what the main recorded in the database when it starts with this (and, while
				// running, when the main publishes an install or update).
				N8N_REINSTALL_MISSING_PACKAGES: 'true',
			};
			const start = async (label, options) => {
				const userFolder = path.join(RUN_DIR, label);
				writeNodesNpmrc({ userFolder, proxy });
				const handle = await startN8n({
					userFolder,
					timeoutMs: 300_000,
					...options,
					env: { ...env, ...options.env },
				});
				trackPid(handle.pid, `n8n ${label}`);
				stops.push(() => handle.stop());
				return { ...handle, userFolder, label };
			};
			const before = viaProxy();
			const main = await start('queue-main', {
				env: { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
			});
			const healthPort = await freePort();
			const worker = await start('queue-worker', {
				command: 'worker',
				port: await freePort(),
				env: {
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(healthPort),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				},
				readyUrl: `http://127.0.0.1:${healthPort}/healthz/readiness`,
			});
			const webhook = await start('queue-webhook', { command: 'webhook', port: webhookPort });
			for (const p of [main, worker, webhook]) {
				const file = path.join(
					p.userFolder,
					'.n8n',
					'nodes',
					'node_modules',
					PACKAGE_NAME,
					'package.json',
				);
				const installed =
					fs.existsSync(file) && !fs.lstatSync(path.dirname(file)).isSymbolicLink()
						? JSON.parse(fs.readFileSync(file, 'utf8')).version
						: null;
				check(
					`queue: ${p.label} installed ${PACKAGE_NAME}@${v1} itself from the registry (not a link)`,
					installed === v1,
					`found ${installed}`,
				);
			}
			check(
				'queue: the three processes fetched it through the proxy',
				viaProxy() - before >= 3,
				`${viaProxy() - before} request(s)`,
			);

			const rest = new N8nRest(main.url);
			await rest.ensureOwner(OWNER);
			const inst = { rest, n8n: main, label: 'queue', userFolder: main.userFolder };
			await sb.request('POST', '/sandbox/reset', { seed: 'demo' });
			await checkTypes(inst);
			const cred = await createCredential(inst, sb);
			// The action node on the worker: a manual run is a job for the worker (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS).
			const flowA = await createWorkflow(
				inst,
				withCredential(readExample('flow-a-event-registration.json'), cred),
			);
			const run = await runManually(inst, flowA, "When clicking 'Execute workflow'");
			const workerLog = fs.readFileSync(worker.logFile, 'utf8');
			check(
				'queue: Flow A (the Knolyx node) ran on the worker',
				run.status === 'success' &&
					new RegExp(`Worker (started|finished) execution ${run.id}\\b`).test(workerLog),
				`status ${run.status}, execution ${run.id}`,
			);
			// The trigger: registered by the main, deliveries to the webhook processor, executions on the worker.
			const wf = await createWorkflow(inst, triggerWorkflow(cred, sink.url));
			await rest.activateWorkflow(wf.id);
			const hooks = await sb.webhooks();
			check(
				'queue: one webhook on the platform, at the webhook processor',
				hooks.length === 1 && hooks[0].url.startsWith(`http://127.0.0.1:${webhookPort}/`),
				JSON.stringify(hooks.map((h) => h.url)),
			);
			const events = eventSource(sb, 'queue');
			for (let i = 0; i < 15; i++) await events.emit();
			await waitFor(() => events.emitted.every((e) => perEvent(sink).get(e.messageId)), {
				timeoutMs: 120_000,
				what: '15 trigger executions',
			});
			await settle(sink);
			for (const e of events.emitted) await sb.resend(e.messageId);
			await settle(sink);
			const counts = perEvent(sink);
			check(
				'queue: one execution per unique event, resends included',
				events.emitted.every((e) => counts.get(e.messageId) === 1),
				JSON.stringify(events.emitted.map((e) => counts.get(e.messageId) ?? 0)),
			);
			const finished = new Set(
				[
					...fs.readFileSync(worker.logFile, 'utf8').matchAll(/Worker finished execution (\d+)/g),
				].map((m) => m[1]),
			);
			const reported = new Set(
				sink.received
					.filter((r) => events.emitted.some((e) => e.messageId === r.eventId))
					.map((r) => String(r.executionId)),
			);
			check(
				'queue: the trigger executions ran on the worker',
				[...reported].every((id) => finished.has(id)),
				`${reported.size} executions, ${[...reported].filter((id) => finished.has(id)).length} in the worker's log`,
			);
			await rest.deactivateWorkflow(wf.id);
			check('queue: unpublishing deletes the webhook', (await sb.webhooks()).length === 0);
			await Promise.all([webhook.stop(), worker.stop()]);
			await main.stop();
			await Promise.all([redis.stop(), postgres.stop()]);
		},
	);
}

main()
	.catch((e) => check('install suite ran to the end', false, e.stack ?? String(e)))
	.finally(async () => {
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
		fs.writeFileSync(
			path.join(RUN_DIR, 'summary.json'),
			JSON.stringify({ n8n: N8N_VERSION, timings, checks }, null, 2),
		);
		const failed = checks.filter((c) => !c.ok);
		say(
			`${checks.length - failed.length}/${checks.length} checks passed${failed.length ? `; FAILED: ${failed.map((c) => c.name).join('; ')}` : ''}`,
		);
		process.exit(failed.length || !checks.length ? 1 : 0);
	});
