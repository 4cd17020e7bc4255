/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Where the n8n install of scripts/n8n-runtime.mjs lives. The runner asks the
 * script once (its CACHE_DIR honours N8N_RUNTIME_DIR) and passes the answer to
 * every worker process in N8N_RUNTIME_DIR; a worker started on its own falls
 * back to the script's default folder.
 */
import { join } from 'node:path';

const REPO = join(__dirname, '..');

/** Native import() of the ESM runtime script (ts-node compiles bench files to CommonJS). */
export const importEsm = new Function('specifier', 'return import(specifier)') as <T>(
	s: string,
) => Promise<T>;

export const RUNTIME_SCRIPT = join(REPO, 'scripts', 'n8n-runtime.mjs');

/** Called once by the runner, before any worker starts. */
export async function resolveRuntimeDir(): Promise<string> {
	const { CACHE_DIR } = await importEsm<{ CACHE_DIR: string }>(RUNTIME_SCRIPT);
	process.env.N8N_RUNTIME_DIR = CACHE_DIR;
	return CACHE_DIR;
}

export const runtimeDir = (): string =>
	process.env.N8N_RUNTIME_DIR ?? join(REPO, '.cache', 'n8n-2.41.1');
