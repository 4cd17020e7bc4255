/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- development tooling: runs test/queue/lib/killed.mjs (the queue suite's check of a killed worker) in a child Node; never inside n8n, not published */
/**
 * The queue suite SIGKILLs a worker with executions running on it (by its log) and checks what
 * n8n stored of them: none may end `success` for a run the kill cut short. The worker's log can
 * lack the "finished" line of an execution that ended just before the kill (seen once): such a
 * success, stored as stopped before the kill, is not a run cut short. One stopped after the kill,
 * or a kill that cut nothing short, still fails.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const KILLED = pathToFileURL(join(__dirname, '..', 'queue', 'lib', 'killed.mjs')).href;

interface Exec {
	id: string;
	status: string;
	stoppedAt?: string;
}

function verdict(
	running: string[],
	execs: Exec[],
	killedAt: number,
): Promise<{ cutShort: string[]; endedBefore: string[]; ok: boolean }> {
	const script = `import { killVerdict } from ${JSON.stringify(KILLED)};
console.log(JSON.stringify(killVerdict(${JSON.stringify(running)}, ${JSON.stringify(execs)}, ${killedAt})));`;
	return new Promise((resolve, reject) =>
		execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) =>
			error ? reject(error) : resolve(JSON.parse(stdout)),
		),
	);
}

const KILL = Date.parse('2026-11-29T06:31:00.000Z');
const before = new Date(KILL - 40).toISOString();
const after = new Date(KILL + 900).toISOString();

const cut = (id: string, status = 'crashed'): Exec => ({ id, status, stoppedAt: after });
const success = (id: string, stoppedAt?: string): Exec => ({ id, status: 'success', stoppedAt });

describe('the queue suite: what became of the executions running on the killed worker', () => {
	it.each<[string, string[], Exec[], { cutShort: string[]; endedBefore: string[]; ok: boolean }]>([
		[
			'both cut short (crashed, error): passes',
			['20', '22'],
			[cut('20'), cut('22', 'error')],
			{ cutShort: ['20', '22'], endedBefore: [], ok: true },
		],
		[
			'a success the log called running, stored as stopped before the kill, beside one cut short: passes',
			['20', '22'],
			[cut('20'), success('22', before)],
			{ cutShort: ['20'], endedBefore: ['22'], ok: true },
		],
		[
			'a success stored as stopped after the kill (run again elsewhere): fails',
			['20', '22'],
			[cut('20'), success('22', after)],
			{ cutShort: ['20'], endedBefore: [], ok: false },
		],
		[
			'nothing cut short (every one a success before the kill): fails, the kill proved nothing',
			['22'],
			[success('22', before)],
			{ cutShort: [], endedBefore: ['22'], ok: false },
		],
		[
			'a success without a stop time: fails',
			['20', '22'],
			[cut('20', 'error'), success('22')],
			{ cutShort: ['20'], endedBefore: [], ok: false },
		],
		[
			'an execution n8n does not list: fails',
			['20', '23'],
			[cut('20', 'error')],
			{ cutShort: ['20'], endedBefore: [], ok: false },
		],
	])('%s', async (_title, running, execs, expected) => {
		expect(await verdict(running, execs, KILL)).toEqual(expected);
	});
});
