// How a template of examples/template-*.json is set up for the sandbox, shared by the e2e
// test (lib/templates.mjs) and `npm run dev` (scripts/dev.mjs). No side effects on import.
//
// Each tool fixture (test/e2e/fixtures/<tool>.json) has a `demo` block: the template it
// belongs to, the value of the template's one mapping node, and which sample is pinned on
// which node (fixture keys), so "Execute workflow" runs it with that tool's payload shape.

import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { COLUMNS, TABLE_ID, tableName } from '../../../scripts/templates.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURES_DIR = path.resolve(HERE, '..', 'fixtures');

/**
 * Flow B's Webhook (examples/flow-b-payment-enrolment.json) takes Header Auth: the credential the
 * example names, with a demo header for the e2e and `npm run dev` only (the example's note tells
 * users to set their own).
 */
export const PAYMENT_HOOK_CREDENTIAL = {
	id: 'knolyxPaymentHookAuth',
	name: 'Payment webhook header',
	type: 'httpHeaderAuth',
};
export const PAYMENT_HOOK_HEADER = {
	name: 'X-Knolyx-Payment-Key',
	value: 'demo-only-payment-hook-key-not-a-secret',
};
/** The headers a caller of Flow B's Webhook sends: JSON and the header its credential expects. */
export const PAYMENT_HOOK_HEADERS = {
	'content-type': 'application/json',
	[PAYMENT_HOOK_HEADER.name]: PAYMENT_HOOK_HEADER.value,
};

export const isKnolyxType = (type) => type.startsWith('n8n-nodes-knolyx.');

/** A tool's payload fixture (test/e2e/fixtures/<tool>.json). */
export function fixture(tool) {
	return JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, `${tool}.json`), 'utf8'));
}

/** The demo set-up of a template file: { tool, event, mapping, pins: { nodeName: json } }, or undefined. */
export function demoFor(templateFile) {
	for (const file of fs.readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.json'))) {
		const tool = file.slice(0, -'.json'.length);
		const fx = fixture(tool);
		if (fx.demo?.template !== templateFile) continue;
		const pins = Object.fromEntries(
			Object.entries(fx.demo.pins).map(([node, key]) => [node, fx[key]]),
		);
		return { tool, event: fx.demo.event, mapping: fx.demo.mapping ?? {}, pins };
	}
	return undefined;
}

/** Node types whose URL n8n builds from the node's webhook ID. */
const hasWebhook = (type) =>
	(/Trigger$/.test(type) && !/\.(manual|schedule)Trigger$/.test(type)) ||
	type === 'n8n-nodes-base.webhook';

/** Node types whose empty `path` the editor sets to the node's webhook ID (n8n's useCanvasOperations). */
export const PATH_FROM_WEBHOOK_ID = [
	'n8n-nodes-base.webhook',
	'n8n-nodes-base.formTrigger',
	'@n8n/n8n-nodes-langchain.mcpTrigger',
];

/**
 * A workflow as the editor's import gives it: each trigger or Webhook node without a webhook ID
 * gets one of its own (the files carry none, so two imports never share a URL), and a Webhook,
 * Form or MCP trigger with an empty path gets that ID as its path, as the editor does on both
 * lines. n8n's CLI import gives neither, and n8n then builds a Webhook node's URL as
 * /webhook/<workflow id>/<node name>/<path>.
 * With `seed` (e.g. the file name) the IDs are the same on every call (a UUID-shaped hash of seed
 * and node name), for a set-up that imports the same files again (`npm run dev`).
 */
export function asEditorImports(wf, { seed } = {}) {
	const idFor = (node) => {
		if (seed === undefined) return randomUUID();
		const h = createHash('sha256').update(`${seed}\0${node.name}`).digest('hex');
		return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
	};
	return {
		...wf,
		nodes: wf.nodes.map((node) => {
			if (!hasWebhook(node.type) || node.webhookId) return node;
			const webhookId = idFor(node);
			// Only a `path` parameter the node has, left empty (the Form Trigger 2.2+ keeps its path
			// under options and gets none: its URL is then the webhook ID all the same).
			const emptyPath = PATH_FROM_WEBHOOK_ID.includes(node.type) && node.parameters?.path === '';
			return emptyPath
				? { ...node, webhookId, parameters: { ...node.parameters, path: webhookId } }
				: { ...node, webhookId };
		}),
	};
}

/** n8n's pinData shape: { nodeName: [{ json }] }. */
export const pinDataOf = (pins) =>
	Object.fromEntries(
		Object.entries(pins).map(([name, json]) => [name, [].concat(json).map((j) => ({ json: j }))]),
	);

/**
 * A template as a user has it after the set-up: its Knolyx nodes use `credential` (the file
 * has none), the mapping Set node holds `mapping` ({ nodeName: { field: object } }; for a node
 * that is no Set node, `field` is a parameter set to the value as it is), the
 * nodes named in `disable` are switched off (the templates' way to drop a branch).
 * Throws when a named node or field does not exist.
 */
export function setUpTemplate(wf, { credential, mapping = {}, disable = [], pins } = {}) {
	for (const name of [...Object.keys(mapping), ...disable, ...Object.keys(pins ?? {})]) {
		if (!wf.nodes.some((n) => n.name === name)) throw new Error(`${wf.name}: no node "${name}"`);
	}
	const nodes = wf.nodes.map((node) => {
		const copy = structuredClone(node);
		if (credential && isKnolyxType(copy.type) && !copy.credentials) {
			copy.credentials = { knolyxApi: { id: credential.id, name: credential.name } };
		}
		for (const [field, value] of Object.entries(mapping[copy.name] ?? {})) {
			// A Set node's field (the "(edit me)" mapping), or a parameter of any other node (a
			// workflow saved by the editor leaves out parameters at their default, e.g. empty IDs).
			const assignments = copy.parameters.assignments?.assignments;
			const assignment = assignments?.find((a) => a.name === field);
			if (assignment) assignment.value = JSON.stringify(value, null, 2);
			else if (!assignments) copy.parameters[field] = value;
			else throw new Error(`${wf.name}: node "${copy.name}" has no field ${field}`);
		}
		if (disable.includes(copy.name)) copy.disabled = true;
		return copy;
	});
	return { ...wf, nodes, ...(pins ? { pinData: pinDataOf(pins) } : {}) };
}

/**
 * Edit a stored workflow as the editor saves it: GET it, `edit(wf)` gives the workflow to save
 * (or undefined: nothing to save), PATCH that. Returns what `edit` returned. `rest` is an N8nRest.
 */
export async function editWorkflow(rest, workflowId, edit) {
	const path = `/rest/workflows/${encodeURIComponent(workflowId)}`;
	const edited = await edit(await rest.request('GET', path));
	if (edited !== undefined) await rest.request('PATCH', path, edited);
	return edited;
}

/**
 * Give an imported workflow its tags as the editor's import does: POST /rest/tags for a new
 * name, then save the workflow with the tag ids (PATCH). `rest` is an N8nRest.
 * n8n's CLI `import:workflow` of several files that share a new tag fails in both lines (it
 * creates the tag once per file: "UNIQUE constraint failed: tag_entity.name"), so the
 * templates are imported without tags and tagged this way.
 */
export async function tagWorkflow(rest, workflowId, names) {
	const existing = await rest.request('GET', '/rest/tags');
	const ids = [];
	for (const name of names) {
		const tag =
			existing.find((t) => t.name === name) ?? (await rest.request('POST', '/rest/tags', { name }));
		existing.push(tag);
		ids.push(tag.id);
	}
	await editWorkflow(rest, workflowId, (wf) => {
		const have = (wf.tags ?? []).map((t) => t.id).sort();
		return JSON.stringify(have) === JSON.stringify([...ids].sort())
			? undefined
			: { ...wf, tags: ids };
	});
}

/**
 * The data table a template with a retry schedule keeps its pending Knolyx writes in: one per
 * workflow (its retry schedule claims every pending row of the table). On n8n 2 the workflow's
 * "Pending writes table" node makes it, named after the workflow's ID (scripts/templates.mjs); on
 * n8n 1.x the note asks the user to create it with these columns and to paste its ID into one node.
 */

/** The REST path of the owner's data tables (`rest` an N8nRest signed in as the owner). */
async function dataTablesPath(rest) {
	const project = await rest.request('GET', '/rest/projects/personal');
	return `/rest/projects/${encodeURIComponent(project.id)}/data-tables`;
}

/** The owner's data table named `name`, or undefined. */
async function findTable(rest, base, name) {
	const listed = await rest.request('GET', `${base}?take=100&skip=0`);
	return [].concat(listed.data ?? listed).find((t) => t.name === name);
}

/**
 * The owner's data table `name`: { id(), rows(), exists() } (rows(): its rows, as the Data tables
 * page lists them; none while it does not exist). `create`: made now with COLUMNS,
 * as a user does by hand; otherwise found when asked (a workflow makes it).
 */
export async function pendingTable(rest, name, { create = true } = {}) {
	const base = await dataTablesPath(rest);
	let table = await findTable(rest, base, name);
	if (!table && create) table = await rest.request('POST', base, { name, columns: COLUMNS });
	const found = async () => (table ??= await findTable(rest, base, name));
	return {
		get id() {
			return table?.id;
		},
		exists: async () => (await found()) !== undefined,
		/** Delete the table, as *Overview → Data tables → Delete* does. */
		async drop() {
			if (!(await found())) return;
			await rest.request('DELETE', `${base}/${table.id}`);
			table = undefined;
		},
		/** Add rows ([{ key, status, attempts, detail }]), as the Data tables page does. */
		async insert(rows) {
			if (!(await found())) throw new Error(`no data table "${name}"`);
			await rest.request('POST', `${base}/${table.id}/insert`, { data: rows, returnType: 'count' });
		},
		async rows() {
			if (!(await found())) return [];
			const got = await rest.request('GET', `${base}/${table.id}/rows?take=1000&skip=0`);
			return got.data ?? got;
		},
	};
}

/**
 * Set up the pending-writes table of workflow `workflowId` as its note asks: nothing on n8n 2
 * (`n8nMajor` 2 or more: the workflow makes its table the first time it needs it); on n8n 1.x a
 * table made by hand, its ID in the one node the note names. Returns the table (pendingTable), or
 * undefined for a workflow without one.
 */
export async function useDataTable(rest, workflowId, { n8nMajor }) {
	let table;
	await editWorkflow(rest, workflowId, async (wf) => {
		const idNode = wf.nodes.find((n) => n.name === TABLE_ID);
		if (!idNode) return undefined;
		const name = tableName(wf.id);
		if (n8nMajor >= 2) {
			table = await pendingTable(rest, name, { create: false });
			return undefined;
		}
		table = await pendingTable(rest, name);
		const field = idNode.parameters.assignments.assignments.find((a) => a.name === 'id');
		field.value = table.id;
		return wf;
	});
	return table;
}
