/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: reads the example files in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The payment and CRM templates (examples/template-*.json) share the code that skips and remembers
 * handled events (issue 36): "Remember the event as handled" is the same in every template, and
 * "Skip events already handled" is the same but for the one thing that differs per tool, the key
 * of an event (`keyOf` and the comment line naming it). The templates with a retry schedule share
 * its code too: the nodes that keep a failed write as pending and close it once written. A fix to
 * one copy has to reach them all.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Node {
	name: string;
	parameters: { jsCode?: string };
	[setting: string]: unknown;
}

interface Workflow {
	nodes: Node[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const templates = readdirSync(EXAMPLES)
	.filter((f) => /^template-.*\.json$/.test(f))
	.map((file) => {
		const wf = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Workflow;
		return { file, nodes: wf.nodes, connections: wf.connections };
	})
	.filter(({ nodes }) => nodes.some((n) => n.name === 'Skip events already handled'));

const codeOf = (nodes: Node[], name: string) => {
	const code = nodes.find((n) => n.name === name)?.parameters.jsCode;
	if (code === undefined) throw new Error(`no Code node "${name}"`);
	return code;
};

/** Each entry's `value` equals the first entry's (the file named on a failure). */
function expectSameInEach(entries: Array<{ file: string; value: unknown }>) {
	for (const { file, value } of entries)
		expect({ file, value }).toEqual({ file, value: entries[0].value });
}

/** The Skip code with the tool's own part (the key) taken out. */
const sharedPartOfSkip = (code: string) =>
	code
		.replace(/^\/\/ The key: .*$/m, '// The key: <per tool>')
		.replace(/const keyOf = \(event\) => \{\n[\s\S]*?\n\};/, 'const keyOf = <per tool>;');

describe('the code that skips and remembers handled events, in every payment and CRM template', () => {
	test('six templates have it', () => {
		expect(templates.map((t) => t.file)).toHaveLength(6);
	});

	test('"Remember the event as handled" is the same code in each', () => {
		expectSameInEach(
			templates.map(({ file, nodes }) => ({
				file,
				value: codeOf(nodes, 'Remember the event as handled'),
			})),
		);
	});

	test('"Skip events already handled" is the same code in each but for the key of an event', () => {
		expectSameInEach(
			templates.map(({ file, nodes }) => {
				const code = codeOf(nodes, 'Skip events already handled');
				expect(code).toMatch(/^\/\/ The key: /m);
				expect(code).toMatch(/const keyOf = \(event\) => \{\n/);
				return { file, value: sharedPartOfSkip(code) };
			}),
		);
	});
});

/** The Code nodes of the retry schedule (docs/templates.md, "A failed Knolyx write heals itself"). */
const RETRY_CODE = ['Keep the write as pending', 'Close its pending write'];

describe('the retry schedule of failed writes, in every template that has one', () => {
	const healing = templates.filter(({ nodes }) =>
		nodes.some((n) => n.name === 'Retry pending writes every 15 minutes'),
	);

	test('all six payment and CRM templates have it', () => {
		expect(healing.map((t) => t.file)).toEqual(templates.map((t) => t.file));
	});

	test.each(RETRY_CODE)('"%s" is the same code in each', (name) => {
		expectSameInEach(healing.map(({ file, nodes }) => ({ file, value: codeOf(nodes, name) })));
	});

	// A claim names the run that made it; the run reads back what names it (n8n 1.x on SQLite can
	// report a write failed that was made), and leads it, one run, into the same steps as a delivery.
	test('the claim is the same chain in each: schedule → stopped runs → pending → read back → each as its event', () => {
		const CHAIN = [
			'Retry pending writes every 15 minutes',
			'Claim writes of a stopped run',
			'Claim pending writes',
			'Writes this run claimed',
			'Each pending write as its event',
		];
		const next = (connections: Workflow['connections']) =>
			CHAIN.slice(0, -1).map((from) => connections[from].main[0][0].node);
		expect(next(healing[0].connections)).toEqual(CHAIN.slice(1));
		const shapes = healing.map(({ file, nodes, connections }) => ({
			file,
			next: next(connections),
			// Each node but where it sits (its ID and position).
			nodes: CHAIN.slice(1, -1).map((name) =>
				Object.fromEntries(
					Object.entries(nodes.find((n) => n.name === name)!).filter(
						([setting]) => setting !== 'id' && setting !== 'position',
					),
				),
			),
		}));
		expectSameInEach(shapes.map(({ file, ...value }) => ({ file, value })));
	});

	// Drop marks what the read-back found: the same filter, or a claimed row would be left
	// `retrying` (or another run's row dropped). WooCommerce has no Drop: its Switch closes each row.
	test('"Drop what no step wrote" filters as "Writes this run claimed" does', () => {
		const filtersOf = (nodes: Node[], name: string) =>
			(nodes.find((n) => n.name === name)?.parameters as { filters?: unknown } | undefined)
				?.filters;
		const dropping = healing.filter(({ nodes }) =>
			nodes.some((n) => n.name === 'Drop what no step wrote'),
		);
		expect(dropping).toHaveLength(5);
		for (const { file, nodes } of dropping)
			expect({ file, filters: filtersOf(nodes, 'Drop what no step wrote') }).toEqual({
				file,
				filters: filtersOf(nodes, 'Writes this run claimed'),
			});
	});
});
