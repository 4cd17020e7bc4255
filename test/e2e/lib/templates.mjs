// The templates of examples/template-*.json in an e2e run: prepared the way a user sets
// them up (Knolyx credential chosen, the one mapping node edited), run with the other
// tool's trigger given pinned data in that tool's payload shape, and the sandbox read back.

import fs from 'node:fs';
import path from 'node:path';

import { CREDENTIAL, readExample, runManually } from './n8n.mjs';
import { REPO_ROOT } from './processes.mjs';

export const TEMPLATE_FILES = fs
	.readdirSync(path.join(REPO_ROOT, 'examples'))
	.filter((f) => /^template-.*\.json$/.test(f))
	.sort();

/** A tool's payload fixture (test/e2e/fixtures/<tool>.json). */
export function fixture(tool) {
	return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', `${tool}.json`), 'utf8'));
}

export const isKnolyxType = (type) => type.startsWith('n8n-nodes-knolyx.');

/**
 * A template as a user has it after the set-up: its Knolyx nodes use the Knolyx credential
 * (the file has none), the mapping Set node holds `mapping` ({ nodeName: { field: object } }),
 * the nodes named in `disable` are switched off (the template's way to drop a branch).
 */
export function prepareTemplate(file, id, { mapping = {}, disable = [] } = {}) {
	const wf = readExample(file);
	const nodes = wf.nodes.map((node) => {
		const copy = structuredClone(node);
		if (isKnolyxType(copy.type)) copy.credentials = { knolyxApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };
		for (const [field, value] of Object.entries(mapping[copy.name] ?? {})) {
			const assignment = copy.parameters.assignments.assignments.find((a) => a.name === field);
			if (!assignment) throw new Error(`${file}: node "${copy.name}" has no field ${field}`);
			assignment.value = JSON.stringify(value, null, 2);
		}
		if (disable.includes(copy.name)) copy.disabled = true;
		return copy;
	});
	for (const name of [...Object.keys(mapping), ...disable]) {
		if (!wf.nodes.some((n) => n.name === name)) throw new Error(`${file}: no node "${name}"`);
	}
	return { ...wf, id, nodes };
}

/**
 * The workflow for n8n's CLI import: without its tags. `import:workflow` of several files
 * that share a new tag fails in both lines (it creates the tag once per file: "UNIQUE
 * constraint failed: tag_entity.name"); the editor's import creates tags over REST, as
 * tagWorkflow() does after the start.
 */
export const withoutTags = ({ tags, ...wf }) => wf;

/** Give an imported workflow its tags the way the editor's import does: POST /rest/tags for a new name, then save with the tag ids. */
export async function tagWorkflow(rest, workflowId, names) {
	const existing = await rest.request('GET', '/rest/tags');
	const ids = [];
	for (const name of names) {
		const tag = existing.find((t) => t.name === name) ?? (await rest.request('POST', '/rest/tags', { name }));
		existing.push(tag);
		ids.push(tag.id);
	}
	const id = encodeURIComponent(workflowId);
	const wf = await rest.request('GET', `/rest/workflows/${id}`);
	await rest.request('PATCH', `/rest/workflows/${id}`, { ...wf, tags: ids });
}

/**
 * Save `pins` ({ nodeName: json | json[] }) as the workflow's pinned data, the way the
 * editor's "Pin data" does (PATCH /rest/workflows/:id), then run it like "Execute
 * workflow" from `trigger` (lib/n8n.mjs runManually): n8n uses the pinned output of a
 * pinned node instead of running it.
 */
export async function runPinned(rest, workflowId, trigger, pins) {
	const id = encodeURIComponent(workflowId);
	const wf = await rest.request('GET', `/rest/workflows/${id}`);
	const pinData = Object.fromEntries(
		Object.entries(pins).map(([name, json]) => [name, [].concat(json).map((j) => ({ json: j }))]),
	);
	for (const name of Object.keys(pinData)) {
		if (!wf.nodes.some((n) => n.name === name)) throw new Error(`workflow ${workflowId} has no node "${name}" to pin`);
	}
	await rest.request('PATCH', `/rest/workflows/${id}`, { ...wf, pinData });
	return runManually(rest, workflowId, trigger);
}

/** E-mail addresses of the members of a workgroup in a sandbox state dump. */
export function membersOf(state, workgroupId) {
	const wg = state.workgroups.find((w) => w.id === workgroupId);
	if (!wg) throw new Error(`no workgroup ${workgroupId} in the sandbox`);
	return wg.members.map((m) => m.email).sort();
}

export function userByEmail(state, email) {
	return state.users.find((u) => u.email === email);
}
