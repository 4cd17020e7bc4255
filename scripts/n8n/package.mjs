// This package as n8n sees it: linked as a community package, its node types in workflows.

import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

import { REPO_ROOT } from './version.mjs';

/** The package's name and its n8n node types as a user who installed it sees them. */
export const PACKAGE_NAME = JSON.parse(
	fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'),
).name;

/**
 * Make the built package look installed, exactly as a community package:
 * <userFolder>/.n8n/nodes/node_modules/<name>/{package.json, dist -> <packageDir>/dist}.
 * n8n's community-packages module scans that folder (n8n-nodes-* names) on start,
 * whether or not the package is in its installed_packages table, and the node
 * types then are `n8n-nodes-knolyx.knolyx` / `.knolyxTrigger`: the types users
 * have, so example workflows import unchanged. (N8N_CUSTOM_EXTENSIONS instead
 * gives `CUSTOM.knolyx`.) dist is a symlink, so `npm run build` + restart is
 * enough after a change.
 */
export async function linkPackage({ userFolder, packageDir = REPO_ROOT }) {
	const pkg = JSON.parse(await fsp.readFile(path.join(packageDir, 'package.json'), 'utf8'));
	const target = path.join(path.resolve(userFolder), '.n8n', 'nodes', 'node_modules', pkg.name);
	await fsp.rm(target, { recursive: true, force: true }); // a symlink is removed, never followed
	await fsp.mkdir(target, { recursive: true });
	await fsp.writeFile(path.join(target, 'package.json'), JSON.stringify(pkg, null, 2));
	await fsp.symlink(path.join(path.resolve(packageDir), 'dist'), path.join(target, 'dist'), 'dir');
	return target;
}

/**
 * Rewrite this package's node types in a workflow object (in place), e.g.
 * from the community type `n8n-nodes-knolyx.knolyx` to `CUSTOM.knolyx` for an
 * n8n that loads the package through N8N_CUSTOM_EXTENSIONS, or back.
 */
export function rewriteNodeTypes(workflow, { from = `${PACKAGE_NAME}.`, to = 'CUSTOM.' } = {}) {
	for (const node of workflow.nodes ?? []) {
		if (/^(CUSTOM|n8n-nodes-knolyx)\.knolyx/.test(node.type) && node.type.startsWith(from)) {
			node.type = to + node.type.slice(from.length);
		}
	}
	return workflow;
}
