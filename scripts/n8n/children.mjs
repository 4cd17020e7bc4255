// The child processes the runtime starts (installs, n8n servers, CLI runs): each in its own
// process group, all killed when this process exits without stopping them.

import fs from 'node:fs';
import { spawn } from 'node:child_process';

import { killGroup } from '../lib/processes.mjs';

export const log = (...args) => console.error('[n8n-runtime]', ...args);

/** n8n servers and CLI runs this process started ({ pid }); killed if we exit without stopping them. */
export const running = new Set();
process.on('exit', () => {
	for (const h of running) killGroup(h.pid, 'SIGKILL');
});

/** Run a command, stream its output to our stderr (or a log), resolve on exit 0, reject otherwise. */
export function run(cmd, args, { cwd, env, timeoutMs = 15 * 60_000, quiet = false } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, {
			cwd,
			env,
			stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
			detached: true, // own process group, so a timeout kills node-gyp's children too
		});
		const tracked = { pid: child.pid };
		running.add(tracked); // killed by the exit hook if we are interrupted
		let output = '';
		child.stdout?.on('data', (d) => (output += d));
		child.stderr?.on('data', (d) => (output += d));
		const timer = setTimeout(() => {
			killGroup(child.pid, 'SIGKILL');
			reject(
				new Error(
					`${cmd} ${args.join(' ')}: timed out after ${timeoutMs} ms\n${output.slice(-4000)}`,
				),
			);
		}, timeoutMs);
		child.on('error', (e) => {
			clearTimeout(timer);
			reject(e);
		});
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			running.delete(tracked);
			if (code === 0) resolve(output);
			else
				reject(
					new Error(`${cmd} ${args.join(' ')} failed (${code ?? signal})\n${output.slice(-4000)}`),
				);
		});
	});
}

export function tail(file, chars = 4000) {
	try {
		return fs.readFileSync(file, 'utf8').slice(-chars);
	} catch {
		return '';
	}
}
