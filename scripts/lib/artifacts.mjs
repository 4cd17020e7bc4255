// The logs a runner keeps for CI after a run (queue, install). No side effects on import.

import fs from 'node:fs';
import path from 'node:path';

/**
 * Empties `artifactsDir` and copies into it every file below `runDir` whose relative path matches
 * `wanted`, flattened (a/b/n8n.log → a__b__n8n.log), skipping folders named in `skipDirs`. Never
 * throws: a failed copy is told through `say`, as the run's own result matters more.
 */
export function keepRunLogs(runDir, artifactsDir, wanted, skipDirs, say) {
	fs.rmSync(artifactsDir, { recursive: true, force: true });
	fs.mkdirSync(artifactsDir, { recursive: true });
	const walk = (dir, rel = '') => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const r = path.join(rel, entry.name);
			if (entry.isDirectory() && !skipDirs.includes(entry.name))
				walk(path.join(dir, entry.name), r);
			else if (entry.isFile() && wanted.test(r))
				fs.copyFileSync(
					path.join(dir, entry.name),
					path.join(artifactsDir, r.replace(/\//g, '__')),
				);
		}
	};
	try {
		walk(runDir);
	} catch (e) {
		say(`could not copy the logs: ${e.message}`);
	}
}
