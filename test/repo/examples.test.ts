/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: reads the example files in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Every workflow in examples/ imports into n8n as it is: each node has an ID and a name of its
 * own (two nodes with one ID fail the import on n8n 2; one name twice makes a connection point at
 * either), and every connection runs between nodes the file has. A node moved or merged by hand
 * (as the canvas work of issue 56 did) is where this breaks first; the e2e found it only at import.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Workflow {
	nodes: Array<{ id?: string; name: string }>;
	connections: Record<string, Record<string, Array<Array<{ node: string }> | null>>>;
}

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const FILES = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));

/** What would keep the file from importing as it is, in words (empty when nothing). */
function importProblems(wf: Workflow): string[] {
	const problems: string[] = [];
	const twice = (values: string[]) => [
		...new Set(values.filter((value, i) => values.indexOf(value) !== i)),
	];
	const missingId = wf.nodes.filter((n) => !n.id).map((n) => n.name);
	if (missingId.length) problems.push(`nodes without an ID: ${missingId.join(', ')}`);
	for (const id of twice(wf.nodes.flatMap((n) => (n.id ? [n.id] : []))))
		problems.push(
			`ID ${id} on ${wf.nodes
				.filter((n) => n.id === id)
				.map((n) => n.name)
				.join(' and ')}`,
		);
	for (const name of twice(wf.nodes.map((n) => n.name))) problems.push(`name ${name} twice`);
	const names = new Set(wf.nodes.map((n) => n.name));
	for (const [from, outputs] of Object.entries(wf.connections)) {
		if (!names.has(from)) problems.push(`a connection from ${from}, which is no node`);
		for (const targets of Object.values(outputs))
			for (const target of (targets ?? []).flatMap((t) => t ?? []))
				if (!names.has(target.node))
					problems.push(`a connection from ${from} to ${target.node}, which is no node`);
	}
	return problems;
}

describe('examples/: every workflow imports as it is', () => {
	test('there are examples to check', () => {
		expect(FILES.length).toBeGreaterThan(10);
	});

	test('a node ID twice, a name twice, a connection to no node: each is found', () => {
		const wf: Workflow = {
			nodes: [
				{ id: 'a', name: 'One' },
				{ id: 'a', name: 'Two' },
				{ id: 'b', name: 'Two' },
				{ name: 'Three' },
			],
			connections: { One: { main: [[{ node: 'Four' }]] }, Five: { main: [] } },
		};
		expect(importProblems(wf)).toEqual([
			'nodes without an ID: Three',
			'ID a on One and Two',
			'name Two twice',
			'a connection from One to Four, which is no node',
			'a connection from Five, which is no node',
		]);
	});

	test.each(FILES)('%s: node IDs and names each once, connections between its nodes', (file) => {
		const wf = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Workflow;
		expect({ file, problems: importProblems(wf) }).toEqual({ file, problems: [] });
	});
});
