// n8n's MCP Server Trigger (`@n8n/n8n-nodes-langchain.mcpTrigger`) seen from
// outside: whether the n8n of the run ships it, its URL, and a real MCP client
// (@modelcontextprotocol/sdk) that plays the agent.

import fs from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { CACHE_DIR } from '../../../scripts/n8n-runtime.mjs';

export const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';
const LANGCHAIN_PACKAGE = path.join(
	CACHE_DIR,
	'node_modules',
	'@n8n',
	'n8n-nodes-langchain',
	'package.json',
);
const N8N_PACKAGE = path.join(CACHE_DIR, 'node_modules', 'n8n', 'package.json');

const readJson = (file) => {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
};

/**
 * Whether the installed n8n (the run's CACHE_DIR) ships the MCP Server Trigger, read from the
 * node list of its @n8n/n8n-nodes-langchain package before n8n starts (jest must know before
 * it collects the tests). The tests then check n8n's /types/nodes.json agrees.
 * Returns { available, n8nVersion, reason }.
 */
export function mcpTriggerInstalled() {
	const n8nVersion = readJson(N8N_PACKAGE)?.version ?? 'unknown';
	const langchain = readJson(LANGCHAIN_PACKAGE);
	if (!readJson(N8N_PACKAGE)) {
		return {
			available: false,
			n8nVersion,
			reason: `no n8n installed in ${CACHE_DIR} (run npm run test:e2e, which installs it)`,
		};
	}
	if (!langchain)
		return {
			available: false,
			n8nVersion,
			reason: `n8n ${n8nVersion} has no @n8n/n8n-nodes-langchain package`,
		};
	const nodes = langchain.n8n?.nodes ?? [];
	if (!nodes.some((file) => /\/McpTrigger\.node\.js$/.test(file))) {
		return {
			available: false,
			n8nVersion,
			reason: `n8n ${n8nVersion} (@n8n/n8n-nodes-langchain ${langchain.version}) has no MCP Server Trigger node`,
		};
	}
	return { available: true, n8nVersion, reason: '' };
}

/**
 * The production URL an MCP client connects to. Version 2 and later serve both transports on
 * one path (GET: SSE, POST: Streamable HTTP); version 1.x serves SSE only, on <path>/sse.
 */
export function mcpUrl(n8nUrl, { path: mcpPath, typeVersion }) {
	return typeVersion >= 2 ? `${n8nUrl}/mcp/${mcpPath}` : `${n8nUrl}/mcp/${mcpPath}/sse`;
}

/**
 * A connected MCP client over 'streamableHttp' or 'sse', sending `headers` (e.g. the trigger's
 * Bearer token) on every request. Close it with client.close().
 */
export async function connectMcp(url, transport = 'streamableHttp', headers = {}) {
	const client = new Client({ name: 'n8n-nodes-knolyx-e2e', version: '1.0.0' });
	const opts = { requestInit: { headers } };
	const t =
		transport === 'sse'
			? new SSEClientTransport(new URL(url), opts)
			: new StreamableHTTPClientTransport(new URL(url), opts);
	await client.connect(t, { timeout: 30_000 });
	return client;
}

/**
 * Call a tool as an agent does; resolves { isError, text, json } where `text` is the tool's
 * text answer and `json` its parse (undefined when it is not JSON).
 */
export async function callTool(client, name, args) {
	const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
	const text = (result.content ?? [])
		.filter((c) => c.type === 'text')
		.map((c) => c.text)
		.join('\n');
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { isError: result.isError === true, text, json };
}
