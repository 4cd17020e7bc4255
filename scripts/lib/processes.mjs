// Process plumbing shared by the scripts (n8n runtime, e2e, queue) and the test
// libraries (test/e2e/lib/processes.mjs re-exports it). No side effects on import:
// the scripts import it before they make their run folder.

import fs from 'node:fs';
import path from 'node:path';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Signal a whole process group (we start every child as its own group leader); false when it is gone. */
export function killGroup(pid, signal = 'SIGKILL') {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}

function kill(pid, signal) {
	try {
		process.kill(pid, signal);
	} catch {
		/* gone */
	}
}

/**
 * Every process whose working folder or command line is inside `dir`
 * (n8n and its task runner run in the user folder, the sandbox in the run
 * folder, Chromium has --user-data-dir there). Linux /proc only.
 */
export function processesInside(dir) {
	const found = [];
	let entries = [];
	try {
		entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
	} catch {
		return found;
	}
	for (const e of entries) {
		const pid = Number(e);
		if (pid === process.pid) continue;
		let cwd = '';
		let cmd = '';
		try {
			cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
		} catch {
			/* gone or not ours */
		}
		try {
			cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
		} catch {
			/* gone */
		}
		if (cwd === dir || cwd.startsWith(dir + path.sep) || cmd.includes(dir))
			found.push({ pid, cwd, cmd: cmd.slice(0, 200) });
	}
	return found;
}

/**
 * The end of a run (the suite runners, scripts/lib/suite.mjs): kill what it left in `runDir`, the
 * process groups recorded in <runDir>/pids whose leader was still inside the folder and every
 * process inside it: SIGTERM, up to 5 s for them to go, then SIGKILL. Returns
 * { leftovers, still }: what was running at the start, and what could not be killed.
 */
export async function killRunProcesses(runDir) {
	const pidsFile = path.join(runDir, 'pids');
	const recorded = fs.existsSync(pidsFile)
		? fs
				.readFileSync(pidsFile, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map((l) => Number(l.split(' ')[0]))
		: [];
	const inside = () => processesInside(runDir);
	const leftovers = inside();
	const leftoverPids = new Set(leftovers.map((p) => p.pid));
	const groups = recorded.filter((pid) => leftoverPids.has(pid));
	for (const pid of groups) killGroup(pid, 'SIGTERM');
	for (const { pid } of leftovers) kill(pid, 'SIGTERM');
	for (let i = 0; i < 50 && inside().length; i++) await sleep(100);
	for (const pid of groups) killGroup(pid, 'SIGKILL');
	for (const { pid } of inside()) kill(pid, 'SIGKILL');
	await sleep(200);
	return { leftovers, still: inside() };
}

/**
 * killRunProcesses, said with `say`; returns the run's exit code: a passing run that left
 * processes behind fails (the tests must stop every process they start), and so does one
 * with processes that could not be killed.
 */
export async function endRunProcesses(runDir, code, say) {
	const { leftovers, still } = await killRunProcesses(runDir);
	if (leftovers.length) {
		say(`${leftovers.length} process(es) of the run were still running and were killed:`);
		for (const p of leftovers) say(`  ${p.pid} ${p.cmd || p.cwd}`);
		if (code === 0) {
			say('failing the run: the tests must stop every process they start');
			code = 1;
		}
	}
	if (still.length) {
		say(`could not kill: ${still.map((p) => p.pid).join(', ')}`);
		code ||= 1;
	}
	return code;
}
