// n8n's CLI against a user folder while no server runs on it: import, publish, export, execute.

import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';

import { killGroup } from '../lib/processes.mjs';
import { running } from './children.mjs';
import { ensureN8n } from './install.mjs';
import { n8nEnv } from './server.mjs';
import { N8N_MAJOR } from './version.mjs';

/**
 * Run an n8n CLI command (import:credentials, import:workflow,
 * publish:workflow, export:nodes, execute --id ...) against a user folder.
 * Use it while no server runs on that folder. Resolves { code, stdout, stderr };
 * rejects on a non-zero exit unless `allowFailure`.
 */
export async function runN8nCli(
	args,
	{ userFolder, extensionsDir, env = {}, timeoutMs = 180_000, allowFailure = false } = {},
) {
	const { nodeBin, n8nBin } = await ensureN8n();
	await fsp.mkdir(userFolder, { recursive: true });
	return new Promise((resolve, reject) => {
		const child = spawn(nodeBin, [n8nBin, ...args], {
			cwd: path.resolve(userFolder),
			// The CLI must not collide with a server's ports; it does not listen, but the
			// task-runner broker of `execute` does, so give it a free one.
			env: n8nEnv({ port: 0, brokerPort: 0, userFolder, extensionsDir, env }),
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		const tracked = { pid: child.pid };
		running.add(tracked);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), timeoutMs);
		child.on('error', reject);
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			killGroup(child.pid, 'SIGKILL'); // leftovers (task runner) in the group
			running.delete(tracked);
			const result = { code: code ?? signal, stdout, stderr };
			if (code === 0 || allowFailure) resolve(result);
			else
				reject(
					Object.assign(
						new Error(
							`n8n ${args.join(' ')} failed (${code ?? signal}):\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`,
						),
						result,
					),
				);
		});
	});
}

/**
 * Publish (activate) a stored workflow from the CLI, while no server runs on the
 * user folder: `publish:workflow --id=ID` in 2.x; 1.x has no such command and
 * activates with `update:workflow --id=ID --active=true`.
 */
export function publishWorkflowCli(id, options = {}) {
	const args =
		N8N_MAJOR >= 2
			? ['publish:workflow', `--id=${id}`]
			: ['update:workflow', `--id=${id}`, '--active=true'];
	return runN8nCli(args, options);
}

/**
 * `n8n execute --id ID --rawOutput` and parse the run data it prints (the CLI
 * mixes log lines into stdout: the JSON is the block from a line "{" to a line "}").
 */
export async function executeWorkflow(id, options = {}) {
	const result = await runN8nCli(['execute', `--id=${id}`, '--rawOutput'], {
		allowFailure: true,
		...options,
	});
	const lines = result.stdout.split('\n');
	const start = lines.indexOf('{');
	const end = lines.lastIndexOf('}');
	if (start < 0 || end < start) {
		throw new Error(
			`n8n execute --id ${id}: no JSON in the output (exit ${result.code}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`,
		);
	}
	return { ...result, run: JSON.parse(lines.slice(start, end + 1).join('\n')) };
}
