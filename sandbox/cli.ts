/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * `npm run sandbox -- [--port 5680] [--host 127.0.0.1] [--seed demo|empty] [--strict] [--latency ms] [--variants a,b] [--quiet]`
 * Port also from KNOLYX_SANDBOX_PORT. Prints the URL, the demo credentials and the seeded ids, then one line
 * per API request and per webhook delivery attempt (--quiet turns that off).
 */
import { DEMO, startSandbox, type SandboxOptions } from './index';

function usage(message?: string): never {
	if (message) console.error(`error: ${message}`);
	console.error(
		'usage: npm run sandbox -- [--port N] [--host H] [--seed demo|empty] [--strict] [--latency ms] [--variants a,b] [--quiet]',
	);
	process.exit(message ? 2 : 0);
}

function parseArgs(argv: string[]): SandboxOptions {
	const opts: SandboxOptions = { port: Number(process.env.KNOLYX_SANDBOX_PORT ?? 5680), log: true };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = (): string => {
			const v = inline ?? argv[++i];
			if (v === undefined) usage(`${flag} needs a value`);
			return v;
		};
		const number = (): number => {
			const n = Number(value());
			if (!Number.isInteger(n) || n < 0) usage(`${flag} needs a non-negative integer`);
			return n;
		};
		switch (flag) {
			case '--port':
				opts.port = number();
				break;
			case '--host':
				opts.host = value();
				break;
			case '--seed': {
				const seed = value();
				if (seed !== 'demo' && seed !== 'empty') usage('--seed must be demo or empty');
				opts.seed = seed;
				break;
			}
			case '--strict':
				opts.strict = true;
				break;
			case '--quiet':
				opts.log = false;
				break;
			case '--latency':
				opts.faults = { ...opts.faults, latencyMs: number() };
				break;
			case '--variants':
				opts.variants = value();
				break;
			case '--help':
			case '-h':
				usage();
				break;
			default:
				usage(`unknown option ${argv[i]}`);
		}
	}
	if (!Number.isInteger(opts.port) || (opts.port ?? 0) < 0)
		usage('KNOLYX_SANDBOX_PORT must be a port number');
	return opts;
}

async function main(): Promise<void> {
	const opts = parseArgs(process.argv.slice(2));
	const sandbox = await startSandbox(opts);
	const lines = [
		`Knolyx sandbox listening on ${sandbox.url}${opts.strict ? ' (strict webhook URLs)' : ''}`,
		`  Page (open it):        ${sandbox.url}/`,
		`  Base URL (credential): ${sandbox.url}`,
		`  Project ID:            ${DEMO.projectId}`,
		`  API key (all perms):   ${DEMO.apiKey}`,
		`  Read-only API key:     ${DEMO.readOnlyApiKey}`,
		`  No-permission API key: ${DEMO.noPermissionApiKey}`,
		`  Control endpoints:     ${sandbox.url}/sandbox/{state,stats,faults,variants,seed,reset,deliveries,activity/...}`,
	];
	if (sandbox.variants().length > 0)
		lines.push(`  Variants played:       ${sandbox.variants().join(', ')}`);
	if (sandbox.demo) lines.push('Seeded (demo):', JSON.stringify(sandbox.demo, null, 2));
	else lines.push('Seeded: empty (only the DEMO keys)');
	console.log(lines.join('\n'));

	let stopping = false;
	const stop = (signal: string): void => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping the Knolyx sandbox`);
		sandbox.close().then(
			() => process.exit(0),
			(err) => {
				console.error(err);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err) => {
	console.error(err);
	process.exit(1);
});
