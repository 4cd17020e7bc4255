/**
 * `npm run bench -- <rows> --update-results`: replaces the parts of bench/RESULTS.md that the
 * rows of this run print (their sections, their lines of the summary table and of the missed
 * goals) and leaves every other row as the last whole run wrote it. A line under the command
 * says which rows come from which later run; "How it is measured" is written anew from
 * method.ts, as a whole run writes it.
 */
import { METHOD, NOT_MEASURED } from './method';

export interface RowUpdate {
	/** The command of this run, its start (ISO), load averages and length. */
	command: string;
	date: string;
	startLoad: number;
	endLoad: number;
	elapsedS: number;
	sections: string[];
	/** Summary rows of this run, already formatted as table lines, with their benchmark names. */
	summary: Array<{ bench: string; line: string }>;
	misses: string[];
	notes: string[];
}

const MISSES_HEADING = '### Goals missed in this run: by how much, why, what would close it';

/** A section's identity: "9" for "### 9. Trigger in a real n8n …", else the heading up to its colon. */
export function sectionKey(heading: string): string {
	const numbered = /^### (\d+)\./.exec(heading);
	return numbered ? numbered[1] : heading.replace(/^### /, '').split(':')[0].trim();
}

const isBoundary = (line: string) =>
	line.startsWith('### ') || line.startsWith('## ') || line.startsWith('Whole run:');

/** The file's text with this run's rows in place of the old ones. Throws when the file is not a RESULTS.md of the runner. */
export function updateResults(text: string, update: RowUpdate): string {
	const lines = text.split('\n');
	const find = (predicate: (line: string) => boolean, from = 0) => {
		for (let i = from; i < lines.length; i++) if (predicate(lines[i])) return i;
		return -1;
	};
	const need = (index: number, what: string) => {
		if (index < 0)
			throw new Error(`bench/RESULTS.md has no ${what}; run the whole bench (npm run bench) first`);
		return index;
	};

	// 1. Which rows come from which run: one line per later run, under the command.
	const keys = update.sections.map((s) => sectionKey(s.split('\n')[0]));
	const prefix = `${keys.length > 1 ? 'Rows' : 'Row'} ${keys.join(', ')} from a later run:`;
	const provenance = `${prefix} \`${update.command}\` (${update.date}; load average (1 min) at its start ${update.startLoad}, at its end ${update.endLoad}; ${update.elapsedS} s)${
		update.notes.length ? `. Notes from that run: ${update.notes.join(' ')}` : ''
	}. Every other row is from the command above.`;
	const command = need(
		find((l) => l.startsWith('Command: ')),
		'"Command:" line',
	);
	const earlier = find((l) => l.startsWith(prefix));
	if (earlier >= 0) lines[earlier] = provenance;
	else lines.splice(command + 1, 0, '', provenance);

	// 2. The summary table: this run's lines where the old ones of the same benchmarks were.
	const summaryStart = need(
		find((l) => l.startsWith('## Summary')),
		'"## Summary" table',
	);
	const tableStart = need(
		find((l) => l.startsWith('| '), summaryStart),
		'summary table',
	);
	let tableEnd = tableStart;
	while (tableEnd < lines.length && lines[tableEnd].startsWith('| ')) tableEnd++;
	const benches = new Set(update.summary.map((s) => s.bench));
	const ofBench = (line: string) => benches.has(line.split('|')[1]?.trim() ?? '');
	const tableLines = lines.slice(tableStart, tableEnd);
	const at = tableLines.findIndex(ofBench);
	const kept = tableLines.filter((l) => !ofBench(l));
	kept.splice(at >= 0 ? at : kept.length, 0, ...update.summary.map((s) => s.line));
	lines.splice(tableStart, tableEnd - tableStart, ...kept);

	// 3. Missed goals: the old lines of these benchmarks out, this run's in.
	const missOf = (line: string) => [...benches].some((b) => line.startsWith(`- **${b},`));
	let heading = find((l) => l === MISSES_HEADING);
	if (heading >= 0) {
		for (let i = lines.length - 1; i > heading; i--) if (missOf(lines[i])) lines.splice(i, 1);
	}
	if (update.misses.length) {
		if (heading < 0) {
			const firstSection = need(
				find((l) => l.startsWith('### ')),
				'row section',
			);
			lines.splice(firstSection, 0, MISSES_HEADING, '', '');
			heading = firstSection;
		}
		let end = heading + 2;
		while (end < lines.length && lines[end].startsWith('- **')) end++;
		lines.splice(end, 0, ...update.misses);
	} else if (heading >= 0 && !(lines[heading + 2] ?? '').startsWith('- **')) {
		lines.splice(heading, 3); // the heading, its blank line and the blank line after the list
	}

	// 4. The rows' sections, in place of the old ones (or before the notes when new).
	for (const section of update.sections) {
		const key = sectionKey(section.split('\n')[0]);
		const start = find(
			(l) => l.startsWith('### ') && l !== MISSES_HEADING && sectionKey(l) === key,
		);
		if (start >= 0) {
			let end = start + 1;
			while (end < lines.length && !isBoundary(lines[end])) end++;
			lines.splice(start, end - start, ...section.split('\n'), '');
		} else {
			const before = need(
				find((l) => l.startsWith('### Notes from this run') || l.startsWith('Whole run:')),
				'"Whole run:" line',
			);
			lines.splice(before, 0, ...section.split('\n'), '');
		}
	}

	// 5. How it is measured: as method.ts says now.
	const method = need(
		find((l) => l === '## How it is measured'),
		'"## How it is measured" section',
	);
	lines.splice(method, lines.length - method, ...[METHOD, NOT_MEASURED].join('\n').split('\n'));
	return lines.join('\n');
}
