/**
 * Prints the counts of every fault scenario after the run, one line each:
 * faults injected, items, succeeded, failed, duplicates found, lost.
 * The scenarios append JSON lines to $KNOLYX_FAULT_COUNTS (see test/faults/counts.ts).
 */
const { existsSync, readFileSync, rmSync } = require('node:fs');

class CountsReporter {
	onRunComplete() {
		const file = process.env.KNOLYX_FAULT_COUNTS;
		if (!file || !existsSync(file)) return;
		const rows = readFileSync(file, 'utf8')
			.split('\n')
			.filter((line) => line.trim() !== '')
			.map((line) => JSON.parse(line));
		rmSync(file, { force: true });
		if (rows.length === 0) return;
		rows.sort((a, b) => (a.suite + a.scenario).localeCompare(b.suite + b.scenario));
		const width = Math.max(...rows.map((row) => `${row.suite} › ${row.scenario}`.length));
		const lines = rows.map((row) => {
			const name = `${row.suite} › ${row.scenario}`.padEnd(width);
			const extra = row.note ? `  (${row.note})` : '';
			return `${name}  faults injected ${String(row.faults).padStart(5)}, items ${String(row.items).padStart(5)}, succeeded ${String(row.succeeded).padStart(5)}, failed ${String(row.failed).padStart(4)}, duplicates found = ${row.duplicates}, lost = ${row.lost}${extra}`;
		});
		process.stdout.write(`\nFault scenarios (${rows.length}):\n${lines.join('\n')}\n`);
	}
}

module.exports = CountsReporter;
