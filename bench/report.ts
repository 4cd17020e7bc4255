/** What the rows print: the summary of goals, one section per row, notes, and the table helpers. */
import { round } from './lib';

export const sections: string[] = [];
export const summary: Array<{
	bench: string;
	measure: string;
	value: string;
	goal: string;
	met: string;
}> = [];
export const notes: string[] = [];
export const misses: string[] = [];

/** A row of the summary; `why` (by how much, why, what would close it) is printed when the goal is missed. */
export function goal(
	bench: string,
	measure: string,
	value: string,
	goalText: string,
	met: boolean | undefined,
	why?: () => string,
): void {
	summary.push({
		bench,
		measure,
		value,
		goal: goalText,
		met: met === undefined ? '–' : met ? 'yes' : '**no**',
	});
	if (met === false)
		misses.push(`- **${bench}, ${measure}: ${value}** (goal ${goalText}). ${why ? why() : ''}`);
}

export const ratio = (x: number) => `${x.toFixed(2)}×`;

export function table(headers: string[], rows: Array<Array<string | number>>): string {
	const line = (cells: Array<string | number>) => `| ${cells.map(String).join(' | ')} |`;
	return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export const fmtMs = (ms: number) =>
	ms >= 10_000 ? `${round(ms / 1000, 1)} s` : `${Math.round(ms)} ms`;
