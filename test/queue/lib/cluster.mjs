// n8n 2.41.1 in queue mode: one main, N workers (`n8n worker`), M webhook
// processors (`n8n webhook`), all sharing Redis (Bull queue) and PostgreSQL,
// one encryption key and one public webhook URL, each with its own user folder
// (the package linked as a community package in every one of them, so the node
// types are n8n-nodes-knolyx.*), its own ports and its own log.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import {
	freePort,
	linkPackage,
	N8nRest,
	REPO_ROOT,
	runN8nCli,
	startN8n,
} from '../../../scripts/n8n-runtime.mjs';
import { killGroup, sleep, trackPid } from '../../e2e/lib/processes.mjs';

/**
 * Environment every process of the cluster shares.
 * - EXECUTIONS_MODE=queue + QUEUE_BULL_REDIS_*: executions become Bull jobs in Redis.
 * - DB_TYPE=postgresdb + DB_POSTGRESDB_*: one database (SQLite cannot be shared).
 * - N8N_ENCRYPTION_KEY: workers decrypt the credential the main stored.
 * - N8N_WEBHOOK_URL: the public address (the balancer). The same on every process:
 *   the main registers the Knolyx webhook with it, and the Knolyx Trigger on a
 *   webhook processor finds its stored secret under the URL built from it.
 * - OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true: manual runs go to workers too (the
 *   2.x default to come; without it the main runs them and logs a deprecation).
 * - QUEUE_WORKER_LOCK_DURATION / _LOCK_RENEW_TIME / _STALLED_INTERVAL: how soon Bull
 *   notices a dead worker's job (defaults 60 s / 10 s / 30 s in 2.41); shortened so
 *   the run stays short. n8n 2.x fixes maxStalledCount at 0: a stalled job is failed,
 *   never handed to another worker.
 */
export function clusterEnv({ redisPort, postgres, publicUrl, encryptionKey, stall }) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		QUEUE_BULL_PREFIX: 'knolyxq',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		N8N_ENCRYPTION_KEY: encryptionKey,
		N8N_WEBHOOK_URL: `${publicUrl}/`,
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		QUEUE_WORKER_LOCK_DURATION: String(stall.lockDurationMs),
		QUEUE_WORKER_LOCK_RENEW_TIME: String(stall.lockRenewMs),
		QUEUE_WORKER_STALLED_INTERVAL: String(stall.stalledIntervalMs),
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		// n8n's default pool is 2 connections per process. A webhook processor taking
		// 10 deliveries at once then waits for connections until pg-pool's timeout
		// ("timeout exceeded when trying to connect"), its database ping fails and it
		// reconnects (measured here): every process gets 10.
		DB_POSTGRESDB_POOL_SIZE: '10',
		// JSON lines with a timestamp (the text format has none).
		N8N_LOG_FORMAT: 'json',
	};
}

export class Cluster {
	constructor({ runDir, redisPort, postgres, publicUrl, stall }) {
		this.runDir = runDir;
		this.encryptionKey = crypto.randomBytes(24).toString('hex');
		this.env = clusterEnv({
			redisPort,
			postgres,
			publicUrl,
			encryptionKey: this.encryptionKey,
			stall,
		});
		this.processes = new Map(); // name -> handle
		this.mainFolder = path.join(runDir, 'n8n-main');
	}

	folder(name) {
		return path.join(this.runDir, `n8n-${name}`);
	}

	/**
	 * A copy of the built package (package.json + dist/) taken once: every process,
	 * also one started later in the run, loads the same code even if someone runs
	 * `npm run build` in the repository meanwhile.
	 */
	snapshotPackage(from = REPO_ROOT) {
		this.packageDir = path.join(this.runDir, 'package');
		fs.mkdirSync(this.packageDir, { recursive: true });
		fs.copyFileSync(path.join(from, 'package.json'), path.join(this.packageDir, 'package.json'));
		fs.cpSync(path.join(from, 'dist'), path.join(this.packageDir, 'dist'), { recursive: true });
		return this.packageDir;
	}

	/** Link the package, import the credential and the workflows with n8n's CLI (runs the migrations on first use). */
	async prepare({ credentials, workflows, packageFrom }) {
		this.snapshotPackage(packageFrom);
		await linkPackage({ userFolder: this.mainFolder, packageDir: this.packageDir });
		const dir = path.join(this.runDir, 'import');
		fs.mkdirSync(path.join(dir, 'workflows'), { recursive: true });
		fs.writeFileSync(path.join(dir, 'credentials.json'), JSON.stringify(credentials, null, 2));
		for (const wf of workflows)
			fs.writeFileSync(path.join(dir, 'workflows', `${wf.id}.json`), JSON.stringify(wf, null, 2));
		await runN8nCli(['import:credentials', `--input=${path.join(dir, 'credentials.json')}`], {
			userFolder: this.mainFolder,
			env: this.env,
			timeoutMs: 300_000,
		});
		await runN8nCli(['import:workflow', '--separate', `--input=${path.join(dir, 'workflows')}`], {
			userFolder: this.mainFolder,
			env: this.env,
		});
	}

	async #start(name, { command, userFolder, env = {}, args = [], port, readyUrl }) {
		await linkPackage({ userFolder, packageDir: this.packageDir });
		const handle = await startN8n({
			command,
			args,
			port,
			userFolder,
			env: { ...this.env, ...env },
			readyUrl,
			timeoutMs: 240_000,
		});
		trackPid(handle.pid, `n8n ${name}`);
		handle.name = name;
		this.processes.set(name, handle);
		return handle;
	}

	/** The main: editor, REST API, activation of triggers; no production webhooks (those go to webhook processors). */
	async startMain() {
		const main = await this.#start('main', {
			command: 'start',
			userFolder: this.mainFolder,
			env: { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
		});
		this.rest = new N8nRest(main.url);
		return main;
	}

	/** `n8n worker`: takes jobs from Redis; answers readiness on its health port. */
	async startWorker(name, { concurrency } = {}) {
		const healthPort = await freePort();
		return this.#start(name, {
			command: 'worker',
			args: concurrency ? [`--concurrency=${concurrency}`] : [],
			userFolder: this.folder(name),
			port: await freePort(), // N8N_PORT: unused by a worker, but must not collide
			env: {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			},
			readyUrl: `http://127.0.0.1:${healthPort}/healthz/readiness`,
		});
	}

	/** `n8n webhook`: serves /webhook/* (production URLs) on its own port and enqueues the executions. */
	async startWebhook(name) {
		return this.#start(name, { command: 'webhook', userFolder: this.folder(name) });
	}

	get(name) {
		return this.processes.get(name);
	}

	/** SIGKILL the whole process group of one process (n8n and its task runner): a crash, no shutdown. */
	async kill(name) {
		const handle = this.processes.get(name);
		killGroup(handle.pid, 'SIGKILL');
		await Promise.race([handle.exited, sleep(5_000)]);
		this.processes.delete(name);
	}

	/** Graceful stop of one process (SIGTERM to its group, bounded). */
	async stop(name) {
		const handle = this.processes.get(name);
		if (!handle) return;
		await handle.stop({ stopTimeoutMs: 15_000 });
		this.processes.delete(name);
	}

	/** Stop everything: webhook processors and workers first, the main last. */
	async stopAll() {
		const order = [...this.processes.keys()].sort((a, b) => (a === 'main') - (b === 'main'));
		const others = order.filter((n) => n !== 'main');
		await Promise.all(others.map((n) => this.stop(n)));
		await this.stop('main');
	}
}
