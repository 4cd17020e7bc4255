#!/usr/bin/env node
// `npm run test:floor`: proves the oldest n8n this package states it supports.
//
// The built nodes use n8n-workflow APIs at load time (NodeConnectionTypes, a
// runtime value, in both node descriptions). n8n-workflow 1.83.0 is the first
// version that exports it (1.82.0 does not); n8n 1.85 is the first n8n release
// that ships it (n8n 1.82.3 ships n8n-workflow 1.80.1, n8n 1.85.3 ships 1.83.0).
// So the floor is n8n >= 1.85 (package.json engines.n8n, README).
//
// The check, cheap enough for CI (one npm install of ~300 packages, ~20 s, cached
// outside the repo in ${N8N_CACHE_ROOT:-~/.cache/n8n-nodes-knolyx}/n8n-floor-1.85):
//   1. with n8n-workflow 1.83.0 resolved for `require('n8n-workflow')`, the built
//      nodes and credential (dist/) load, their descriptions pass n8n-workflow's
//      own NodeHelpers (default parameters for every resource and operation,
//      main output), and the error classes the nodes throw exist;
//   2. with n8n-workflow 1.82.0 the same load fails (no NodeConnectionTypes), so
//      the floor is not stated too low;
//   3. the harness test suites (test/harness.test.ts, test/action, test/trigger:
//      real workflows over real HTTP against the sandbox) run with n8n-core 1.84.0
//      and n8n-workflow 1.83.0, the copies n8n 1.85 ships, in place of the 2.x
//      ones (jest.floor.config.js). Left out, because they assert what differs in
//      n8n itself, not in the nodes: n8n's wording when a required parameter is
//      missing (1.85: "The workflow has issues..."), an expression with an arrow
//      function (1.85's expression engine: "invalid syntax"), two checks that
//      spy on n8n 2.x's logger class, the agent-safety tests (and the agent switches of
//      test/action/booleans.test.ts) whose test agent reads
//      a refused tool call as 2.x reports it (n8n-core 1.84 hands the agent the
//      error's description as the tool's answer, "Error during node execution: Use
//      … instead. To allow this tool anyway, a person must switch on …"; the refusal
//      on the 1.x line is checked in the MCP e2e on n8n 1.123.81), and the
//      filesystem binary-data test (n8n-core 1.84's BinaryDataService takes its
//      configuration from n8n's own start-up, which the harness does not run; Get
//      Image in 1.x's default binary mode is checked in the e2e on 1.123.81).
//
// Extra arguments go to jest (e.g. `npm run test:floor -- test/harness.test.ts`);
// `--install-only` makes the install and stops.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FLOOR = '1.83.0'; // n8n-workflow of n8n 1.85
const FLOOR_CORE = '1.84.0'; // n8n-core of n8n 1.85 (depends on n8n-workflow 1.83.0 exactly)
const BELOW = '1.82.0';
const CACHE_ROOT =
	process.env.N8N_CACHE_ROOT ?? path.join(os.homedir(), '.cache', 'n8n-nodes-knolyx');
const DIR = path.join(CACHE_ROOT, 'n8n-floor-1.85');
/** Tests that assert n8n's own behaviour where 1.85 differs from 2.x (see above). */
const VERSION_SPECIFIC = [
	'parameters left out entirely',
	'as primitive nodes: course list',
	'a failed delete is logged, not thrown',
	'against a local sandbox: registers anyway and logs a clear warning',
	'Replace All called by an agent is refused with a clear text',
	'Delete rule and Delete webhook called by an agent are refused',
	'the refusal also holds when only one sign of a tool run is there',
	'the switch a person turns on lets the agent run it',
	// test/action/booleans.test.ts: each agent switch through the same test agent (as above).
	'the agent switches',
	'stores the image as a file n8n reads back byte for byte',
];
const MARKER = path.join(DIR, '.install-complete');

function install() {
	const pkg = {
		name: 'n8n-floor',
		private: true,
		description:
			'The oldest supported n8n-core/n8n-workflow for npm run test:floor. Managed by scripts/floor.mjs.',
		dependencies: {
			'n8n-core': FLOOR_CORE,
			'n8n-workflow': FLOOR,
			'wf-below': `npm:n8n-workflow@${BELOW}`,
		},
	};
	const want = JSON.stringify(pkg);
	if (fs.existsSync(MARKER) && fs.readFileSync(MARKER, 'utf8') === want) return;
	fs.rmSync(DIR, { recursive: true, force: true });
	fs.mkdirSync(DIR, { recursive: true });
	fs.writeFileSync(path.join(DIR, 'package.json'), JSON.stringify(pkg, null, 2));
	const env = { ...process.env };
	for (const key of Object.keys(env))
		if (/^npm_(config|package|lifecycle)_/i.test(key)) delete env[key];
	const res = spawnSync(
		'npm',
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
		{
			cwd: DIR,
			env,
			stdio: 'inherit',
			timeout: 10 * 60_000,
		},
	);
	if (res.status !== 0)
		throw new Error(`npm install in ${DIR} failed (${res.status ?? res.signal})`);
	fs.writeFileSync(MARKER, want);
}

/** Load dist/ in a fresh Node with `n8n-workflow` resolved to the given copy; returns its report. */
function check(alias) {
	const probe = `
const Module = require('node:module');
const path = require('node:path');
const target = ${JSON.stringify(path.join(DIR, 'node_modules', alias))};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
	if (request === 'n8n-workflow' || request.startsWith('n8n-workflow/')) request = target + request.slice('n8n-workflow'.length);
	return resolve.call(this, request, ...rest);
};
const wf = require('n8n-workflow');
const version = require(target + '/package.json').version;
const dist = ${JSON.stringify(path.join(ROOT, 'dist'))};
const report = { version, nodes: [], exportsNodeConnectionTypes: wf.NodeConnectionTypes !== undefined };
try {
	const { Knolyx } = require(dist + '/nodes/Knolyx/Knolyx.node.js');
	const { KnolyxTrigger } = require(dist + '/nodes/Knolyx/KnolyxTrigger.node.js');
	const { KnolyxPollTrigger } = require(dist + '/nodes/Knolyx/KnolyxPollTrigger.node.js');
	const { KnolyxApi } = require(dist + '/credentials/KnolyxApi.credentials.js');
	const cred = new KnolyxApi();
	if (!cred.authenticate || !cred.test) throw new Error('credential without authenticate/test');
	for (const node of [new Knolyx(), new KnolyxTrigger(), new KnolyxPollTrigger()]) {
		const d = node.description;
		const resources = d.properties.find((p) => p.name === 'resource')?.options ?? [{ value: undefined }];
		let combos = 0;
		for (const r of resources) {
			const ops = d.properties.find((p) => p.name === 'operation' && (!r.value || p.displayOptions?.show?.resource?.includes(r.value)));
			for (const o of ops?.options ?? [{ value: undefined }]) {
				const given = { ...(r.value ? { resource: r.value } : {}), ...(o.value ? { operation: o.value } : {}) };
				const params = wf.NodeHelpers.getNodeParameters(d.properties, given, true, false, { typeVersion: d.version }, d);
				if (!params) throw new Error(d.name + ': no parameters for ' + JSON.stringify(given));
				combos++;
			}
		}
		const outputs = JSON.stringify(d.outputs);
		if (outputs !== '["main"]') throw new Error(d.name + ': outputs ' + outputs);
		report.nodes.push({ name: d.name, combos, usableAsTool: d.usableAsTool === true, webhooks: (d.webhooks ?? []).length, polling: d.polling === true });
	}
	for (const cls of ['NodeApiError', 'NodeOperationError']) if (typeof wf[cls] !== 'function') throw new Error(cls + ' missing');
	report.ok = true;
} catch (e) {
	report.ok = false;
	report.error = String(e && e.message || e);
}
console.log(JSON.stringify(report));
`;
	const res = spawnSync(process.execPath, ['-e', probe], {
		cwd: ROOT,
		encoding: 'utf8',
		timeout: 60_000,
	});
	const line = res.stdout.trim().split('\n').pop();
	try {
		return JSON.parse(line);
	} catch {
		throw new Error(
			`probe with ${alias} printed no report (exit ${res.status}):\n${res.stdout}\n${res.stderr}`,
		);
	}
}

// `--install-only`: the install above and nothing else (.ci/run's scripts/ci-prepare.mjs makes it
// in the background while npm ci and the checks run).
if (process.argv.includes('--install-only')) {
	install();
	process.exit(0);
}
if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes', 'Knolyx', 'Knolyx.node.js'))) {
	console.error('dist/ is missing: run npm run build first');
	process.exit(1);
}
install();
const floor = check('n8n-workflow');
const below = check('wf-below');
console.log(
	`n8n-workflow ${floor.version} (n8n 1.85, the stated floor): ${floor.ok ? 'loads' : `FAILS: ${floor.error}`}`,
);
for (const n of floor.nodes ?? [])
	console.log(
		`  ${n.name}: ${n.combos} resource/operation combination(s) resolved; usableAsTool ${n.usableAsTool}; webhooks ${n.webhooks}; polling ${n.polling}`,
	);
console.log(
	`n8n-workflow ${below.version} (below the floor): ${below.ok ? 'loads (the floor is stated too high)' : `fails as expected (no NodeConnectionTypes export: ${below.error})`}`,
);
if (!floor.ok || below.ok || below.exportsNodeConnectionTypes) {
	console.error('floor check FAILED');
	process.exit(1);
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const args = process.argv.slice(2);
const jest = spawnSync(
	process.execPath,
	[
		path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
		'-c',
		path.join(ROOT, 'jest.floor.config.js'),
		'--testNamePattern',
		`^(?!.*(${VERSION_SPECIFIC.map(escape).join('|')}))`,
		...(args.length ? args : ['test/floor', 'test/harness.test.ts', 'test/action', 'test/trigger']),
	],
	{
		cwd: ROOT,
		stdio: 'inherit',
		env: { ...process.env, KNOLYX_FLOOR_DIR: DIR },
		timeout: 20 * 60_000,
	},
);
process.exit(jest.status ?? 1);
