/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The sandbox in its own process, driven by the benchmark runner over IPC.
 *
 * Why a separate process: the client under test (n8n + the node) and the API it
 * talks to must not share one event loop, or a client that fires 1 000 requests
 * at once would slow the server down and the server would slow the client down.
 * On this 2-core machine each gets a core, as a real API would be elsewhere.
 */
import http from 'node:http';

import { SandboxState, startSandbox, type Sandbox, type SandboxOptions } from '../sandbox';
import type { User } from '../sandbox/types';

/**
 * The sandbox finds a user by e-mail with a scan of every user: at 10 000 users that
 * costs about a millisecond per request and the sandbox, not the client, becomes the
 * bottleneck of the N = 10 000 run. Same answers from an index kept beside the map
 * (every user is created by addUser; a miss falls back to the scan if they differ).
 */
const byEmail = new WeakMap<SandboxState, Map<string, User>>();
const indexOf = (state: SandboxState): Map<string, User> => {
	let index = byEmail.get(state);
	if (!index) byEmail.set(state, (index = new Map()));
	return index;
};
const original = {
	addUser: SandboxState.prototype.addUser,
	reset: SandboxState.prototype.reset,
	findUserByEmail: SandboxState.prototype.findUserByEmail,
};
SandboxState.prototype.addUser = function (this: SandboxState, input) {
	const user = original.addUser.call(this, input);
	indexOf(this).set(user.email.toLowerCase(), user);
	return user;
};
SandboxState.prototype.reset = function (this: SandboxState) {
	original.reset.call(this);
	indexOf(this).clear();
};
SandboxState.prototype.findUserByEmail = function (this: SandboxState, email: string) {
	const index = indexOf(this);
	const user = index.get(email.toLowerCase());
	if (user || index.size === this.users.size) return user;
	return original.findUserByEmail.call(this, email);
};

/**
 * A log of every request the sandbox answers, while asked for: [start, end] in ms since
 * `traceStart` and the status. The rate-limit picture (bench/rate-limit.svg) is drawn from it.
 * The sandbox's server is made by express through http.createServer; its listener is wrapped.
 */
let trace: { t0: number; entries: Array<[number, number, number]> } | undefined;
const createServer = http.createServer.bind(http);
(http as { createServer: unknown }).createServer = (...args: unknown[]) => {
	const listener = args.find((a) => typeof a === 'function') as http.RequestListener | undefined;
	if (!listener) return (createServer as (...a: unknown[]) => http.Server)(...args);
	const traced: http.RequestListener = (req, res) => {
		const current = trace;
		if (current) {
			const start = performance.now() - current.t0;
			res.once('finish', () =>
				current.entries.push([
					Math.round(start * 10) / 10,
					Math.round((performance.now() - current.t0) * 10) / 10,
					res.statusCode,
				]),
			);
		}
		listener(req, res);
	};
	return (createServer as (...a: unknown[]) => http.Server)(
		...args.map((a) => (a === listener ? traced : a)),
	);
};

type Command =
	| { cmd: 'reset' }
	| { cmd: 'faults'; faults: Record<string, unknown> }
	| { cmd: 'stats' }
	| { cmd: 'resetStats' }
	| { cmd: 'seed'; spec: Record<string, unknown> }
	| { cmd: 'members'; workgroupId: number; prefix: string; n: number }
	| { cmd: 'rules'; courseId: number }
	| { cmd: 'cpu' }
	| { cmd: 'webhooks' }
	| { cmd: 'traceStart' }
	| { cmd: 'traceGet' }
	| { cmd: 'close' };

let sandbox: Sandbox | undefined;

async function handle(message: Command): Promise<unknown> {
	const s = sandbox as Sandbox;
	switch (message.cmd) {
		case 'reset':
			s.resetFaults();
			s.reset('demo');
			s.resetStats();
			return s.demo;
		case 'faults':
			s.setFaults(message.faults);
			return null;
		case 'stats':
			return s.stats();
		case 'resetStats':
			s.resetStats();
			return null;
		case 'seed':
			return s.seed(message.spec as never);
		case 'members': {
			const members = s.state.memberships.get(message.workgroupId);
			let count = 0;
			for (let i = 0; i < message.n; i++)
				if (members?.has(`${message.prefix}-${i}@buyers.example`)) count++;
			return count;
		}
		case 'rules':
			return s.state.rules.get(message.courseId) ?? [];
		case 'cpu': {
			const used = process.cpuUsage();
			return (used.user + used.system) / 1000;
		}
		case 'webhooks':
			return [...s.state.webhooks.values()].map((w) => ({
				id: w.id,
				url: w.url,
				securityToken: w.securityToken,
			}));
		case 'traceStart':
			trace = { t0: performance.now(), entries: [] };
			return null;
		case 'traceGet': {
			const entries = trace?.entries ?? [];
			trace = undefined;
			return entries;
		}
		case 'close':
			await s.close();
			setImmediate(() => process.exit(0));
			return null;
	}
}

async function main(): Promise<void> {
	const options: SandboxOptions = { port: 0, seed: 'demo', ...JSON.parse(process.argv[2] ?? '{}') };
	sandbox = await startSandbox(options);
	process.on('message', (raw: { id: number } & Command) => {
		handle(raw).then(
			(result) => process.send?.({ id: raw.id, result }),
			(error: Error) => process.send?.({ id: raw.id, error: error.message }),
		);
	});
	process.on('disconnect', () => process.exit(0));
	process.send?.({ ready: true, url: sandbox.url, demo: sandbox.demo });
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
