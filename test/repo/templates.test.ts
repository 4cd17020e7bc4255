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
}

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const templates = readdirSync(EXAMPLES)
	.filter((f) => /^template-.*\.json$/.test(f))
	.map((file) => ({
		file,
		nodes: (JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: Node[] }).nodes,
	}))
	.filter(({ nodes }) => nodes.some((n) => n.name === 'Skip events already handled'));

const codeOf = (nodes: Node[], name: string) => {
	const code = nodes.find((n) => n.name === name)?.parameters.jsCode;
	if (code === undefined) throw new Error(`no Code node "${name}"`);
	return code;
};

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
		const codes = templates.map(({ file, nodes }) => ({
			file,
			code: codeOf(nodes, 'Remember the event as handled'),
		}));
		for (const { file, code } of codes)
			expect({ file, code }).toEqual({ file, code: codes[0].code });
	});

	test('"Skip events already handled" is the same code in each but for the key of an event', () => {
		const codes = templates.map(({ file, nodes }) => {
			const code = codeOf(nodes, 'Skip events already handled');
			expect(code).toMatch(/^\/\/ The key: /m);
			expect(code).toMatch(/const keyOf = \(event\) => \{\n/);
			return { file, code: sharedPartOfSkip(code) };
		});
		for (const { file, code } of codes)
			expect({ file, code }).toEqual({ file, code: codes[0].code });
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
		const codes = healing.map(({ file, nodes }) => ({ file, code: codeOf(nodes, name) }));
		for (const { file, code } of codes)
			expect({ file, code }).toEqual({ file, code: codes[0].code });
	});
});
