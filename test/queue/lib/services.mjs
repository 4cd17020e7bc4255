// Redis and PostgreSQL for the queue-mode run, from Debian's packages, each a
// process of ours (own process group) with its data folder inside the run folder
// and its own port on 127.0.0.1. Nothing of the system's (no service, no
// /var/lib/postgresql cluster, no /etc config) is used or changed.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { ensureDebian, postgresBinDir, REDIS_SERVER } from '../../../scripts/lib/debian.mjs';
import { freePort } from '../../../scripts/n8n-runtime.mjs';
import { killGroup, RUN_ROOT, sleep, trackPid, waitFor } from '../../e2e/lib/processes.mjs';

const say = (msg) => console.error(`[queue services] ${msg}`);

export { postgresBinDir, REDIS_SERVER };

/**
 * Debian's redis-server and postgresql, installed when either is missing (scripts/lib/debian.mjs).
 * Returns the seconds it took (0 when nothing was missing).
 */
export function ensureDebianPackages() {
	return ensureDebian(['redis-server', 'postgresql'], say);
}

/** Spawn a server as its own process group, output to a log file; resolves the handle at once. */
function spawnServer(cmd, args, { logFile, cwd, uid, gid, label, env }) {
	const out = fs.openSync(logFile, 'a');
	const child = spawn(cmd, args, {
		cwd,
		stdio: ['ignore', out, out],
		detached: true,
		...(uid !== undefined ? { uid, gid } : {}),
		env: { ...process.env, ...env },
	});
	fs.closeSync(out);
	trackPid(child.pid, label);
	let exit = null;
	const exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			exit = { code, signal };
			resolve(exit);
		}),
	);
	return {
		pid: child.pid,
		logFile,
		exited,
		get exit() {
			return exit;
		},
		/** `signal` to the group, bounded wait, then SIGKILL. */
		async stop(signal = 'SIGTERM', timeoutMs = 10_000) {
			if (exit) return exit;
			killGroup(child.pid, signal);
			const done = await Promise.race([exited, sleep(timeoutMs).then(() => null)]);
			killGroup(child.pid, 'SIGKILL');
			return done ?? Promise.race([exited, sleep(3_000)]);
		},
	};
}

function tail(file, chars = 3000) {
	try {
		return fs.readFileSync(file, 'utf8').slice(-chars);
	} catch {
		return '';
	}
}

/** One RESP command over a fresh socket; resolves the raw reply. */
export function redisCommand(port, ...words) {
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1');
		let data = '';
		socket.setTimeout(3_000, () => socket.destroy(new Error('redis: timeout')));
		socket.on('error', reject);
		socket.on('data', (d) => {
			data += d;
			if (data.endsWith('\r\n')) socket.end();
		});
		socket.on('close', () => resolve(data));
		socket.write(
			`*${words.length}\r\n${words.map((w) => `$${Buffer.byteLength(String(w))}\r\n${w}\r\n`).join('')}`,
		);
	});
}

/** redis-server on 127.0.0.1:port, no persistence, its working folder in `dir`. */
export async function startRedis({ dir, port }) {
	port ??= await freePort();
	fs.mkdirSync(dir, { recursive: true });
	const logFile = path.join(dir, 'redis.log');
	const handle = spawnServer(
		REDIS_SERVER,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
			'--dir',
			dir,
			'--protected-mode',
			'yes',
		],
		{ logFile, cwd: dir, label: 'redis' },
	);
	try {
		await waitFor(
			async () => {
				if (handle.exit) throw new Error(`redis-server exited (${JSON.stringify(handle.exit)})`);
				return (await redisCommand(port, 'PING').catch(() => '')).startsWith('+PONG');
			},
			{ timeoutMs: 30_000, intervalMs: 100, what: `redis on port ${port}` },
		);
	} catch (e) {
		await handle.stop('SIGKILL');
		throw new Error(`${e.message}\n${tail(logFile)}`);
	}
	return { ...handle, port, stop: handle.stop };
}

function postgresUser() {
	const line = fs
		.readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((l) => l.startsWith('postgres:'));
	if (!line) throw new Error('no "postgres" system user (the postgresql package creates it)');
	const [, , uid, gid] = line.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A throw-away PostgreSQL cluster: initdb into `dir`/data (trust auth, user
 * "postgres"), then `postgres` on 127.0.0.1:port with its socket in `dir`,
 * durability off (test data), and a database `database`. As root the server
 * runs as the "postgres" system user (initdb refuses root).
 */
export async function startPostgres({ dir, port, database = 'n8n' }) {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed');
	port ??= await freePort();
	const asRoot = process.getuid?.() === 0;
	const owner = asRoot ? postgresUser() : undefined;
	const dataDir = path.join(dir, 'data');
	fs.mkdirSync(dir, { recursive: true });
	if (owner) {
		// The postgres user must reach the folder: the folders from the run folder
		// (mkdtemp makes it 0700) down to `dir` get o+x; /tmp itself is open.
		for (let d = path.dirname(dir); d.startsWith(RUN_ROOT); d = path.dirname(d)) {
			fs.chmodSync(d, (fs.statSync(d).mode & 0o777) | 0o711);
		}
		fs.chownSync(dir, owner.uid, owner.gid);
	}
	const logFile = path.join(dir, 'postgres.log');
	const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};
	const env = { HOME: dir, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' };
	const init = spawnSync(
		path.join(bin, 'initdb'),
		['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions'],
		{ cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env }, ...asOwner },
	);
	if (init.status !== 0)
		throw new Error(
			`initdb failed (${init.status ?? init.signal}):\n${init.stdout}\n${init.stderr}`,
		);
	const handle = spawnServer(
		path.join(bin, 'postgres'),
		[
			'-D',
			dataDir,
			'-p',
			String(port),
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			`unix_socket_directories=${dir}`,
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=200',
		],
		{ logFile, cwd: dir, label: 'postgres', env, ...asOwner },
	);
	const psql = (sql, db = 'postgres') =>
		spawnSync(
			path.join(bin, 'psql'),
			[
				'-h',
				'127.0.0.1',
				'-p',
				String(port),
				'-U',
				'postgres',
				'-d',
				db,
				'-XAtq',
				'-v',
				'ON_ERROR_STOP=1',
				'-c',
				sql,
			],
			{
				encoding: 'utf8',
				timeout: 60_000,
			},
		);
	try {
		await waitFor(
			() => {
				if (handle.exit) throw new Error(`postgres exited (${JSON.stringify(handle.exit)})`);
				return psql('select 1').status === 0;
			},
			{ timeoutMs: 60_000, intervalMs: 200, what: `PostgreSQL on port ${port}` },
		);
		const created = psql(`CREATE DATABASE ${database}`);
		if (created.status !== 0) throw new Error(`CREATE DATABASE failed: ${created.stderr}`);
	} catch (e) {
		await handle.stop('SIGKILL');
		throw new Error(`${e.message}\n${tail(logFile)}`);
	}
	return {
		...handle,
		port,
		database,
		user: 'postgres',
		/** Run SQL in the n8n database; resolves stdout (rows, `|`-separated), throws on error. */
		query(sql) {
			const res = psql(sql, database);
			if (res.status !== 0) throw new Error(`psql: ${res.stderr}`);
			return res.stdout;
		},
		/**
		 * A session of its own that runs `sql` (`BEGIN; LOCK TABLE …`) and stays open, holding
		 * what it took, until `end()` commits; resolves once `sql` ran.
		 */
		async hold(sql) {
			const child = spawn(
				path.join(bin, 'psql'),
				['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-XAtq'],
				{ stdio: ['pipe', 'pipe', 'pipe'] },
			);
			let out = '';
			child.stdout.on('data', (chunk) => (out += chunk));
			child.stderr.on('data', (chunk) => (out += chunk));
			const exited = new Promise((resolve) => child.on('exit', resolve));
			child.stdin.write(`${sql}\nselect 'HELD';\n`);
			await waitFor(
				() => {
					if (/ERROR/.test(out)) throw new Error(`psql: ${out}`);
					return /HELD/.test(out);
				},
				{ timeoutMs: 60_000, intervalMs: 50, what: `psql to run ${sql}` },
			);
			return {
				async end() {
					child.stdin.end('COMMIT;\n');
					await exited;
					if (/ERROR/.test(out)) throw new Error(`psql: ${out}`);
				},
			};
		},
		// Fast shutdown: SIGINT to the postmaster.
		stop: (signal = 'SIGINT', timeoutMs = 15_000) => handle.stop(signal, timeoutMs),
	};
}
