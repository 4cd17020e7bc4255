// The templates of examples/template-*.json in an e2e run: prepared the way a user sets
// them up (lib/template-setup.mjs: Knolyx credential chosen, the one mapping node edited),
// run with the other tool's trigger given pinned data in that tool's payload shape, and the
// sandbox read back.

import fs from 'node:fs';
import path from 'node:path';

import { CREDENTIAL, readExample, runManually } from './n8n.mjs';
import { REPO_ROOT } from './processes.mjs';
import { demoFor, editWorkflow, pinDataOf, setUpTemplate } from './template-setup.mjs';

export {
	demoFor,
	editWorkflow,
	fixture,
	isKnolyxType,
	PATH_FROM_WEBHOOK_ID,
	setUpTemplate,
	tagWorkflow,
	useDataTable,
} from './template-setup.mjs';

export const TEMPLATE_FILES = fs
	.readdirSync(path.join(REPO_ROOT, 'examples'))
	.filter((f) => /^template-.*\.json$/.test(f))
	.sort();

/**
 * The template `file` with workflow id `id`, set up with the run's Knolyx credential and the
 * mapping of its fixture's demo block (the one node a user edits); `disable` as in setUpTemplate.
 */
export function prepareTemplate(file, id, { disable = [] } = {}) {
	const demo = demoFor(file);
	return {
		...setUpTemplate(readExample(file), {
			credential: CREDENTIAL,
			mapping: demo?.mapping,
			disable,
		}),
		id,
	};
}

/** The workflow for n8n's CLI import: without its tags (see tagWorkflow in template-setup.mjs). */
export const withoutTags = ({ tags, ...wf }) => wf;

/**
 * Save `pins` ({ nodeName: json | json[] }) as the workflow's pinned data, the way the
 * editor's "Pin data" does (PATCH /rest/workflows/:id), then run it like "Execute
 * workflow" from `trigger` (lib/n8n.mjs runManually): n8n uses the pinned output of a
 * pinned node instead of running it.
 */
export async function runPinned(rest, workflowId, trigger, pins) {
	await editWorkflow(rest, workflowId, (wf) => {
		for (const name of Object.keys(pins)) {
			if (!wf.nodes.some((n) => n.name === name))
				throw new Error(`workflow ${workflowId} has no node "${name}" to pin`);
		}
		return { ...wf, pinData: pinDataOf(pins) };
	});
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
