/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * No import circle anywhere in the repository: every .ts, .mts, .cts, .js, .mjs and .cjs source
 * (nodes, credentials, sandbox, bench, scripts, test and its helpers, the configuration files),
 * every relative import of it counted (static, `import type`, re-exports, `import()`, `require`).
 * test/description/layers.test.ts checks the layers of nodes/; this checks the whole tree, where a
 * circle is as much a knot: neither file can be read, changed or loaded without the other.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';

const ROOT = join(__dirname, '..', '..');

const SOURCE = /\.(?:[mc]?ts|[mc]?js)$/;

/** The folders .gitignore names (build output, dependencies, scratch), and git's own. */
const IGNORED = new Set([
	'.git',
	...readFileSync(join(ROOT, '.gitignore'), 'utf8')
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line.endsWith('/'))
		.map((line) => line.slice(0, -1)),
]);

function sources(dir: string): string[] {
	return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = dir ? posix.join(dir, entry.name) : entry.name;
		if (entry.isDirectory()) return IGNORED.has(path) ? [] : sources(path);
		return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
	});
}

/**
 * Relative module names a source imports, re-exports, requires or imports by `import()`; lines
 * of comments are left out (a usage example in a header comment imports nothing).
 */
function specifiersOf(file: string): string[] {
	const text = readFileSync(join(ROOT, file), 'utf8')
		.split('\n')
		.filter((line) => !/^\s*(?:\/\/|\/\*|\*)/.test(line))
		.join('\n');
	return [
		...text.matchAll(
			/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"`])(\.{1,2}\/[^'"`]*)\1/gm,
		),
	].map((match) => match[2]);
}

const EXTENSIONS = ['', '.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'];

/** The file a relative name leads to, as Node and TypeScript find it; undefined when none. */
function resolve(file: string, specifier: string): string | undefined {
	const path = posix.normalize(posix.join(posix.dirname(file), specifier));
	const isFile = (candidate: string) =>
		existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile();
	return [
		...EXTENSIONS.map((extension) => `${path}${extension}`),
		...EXTENSIONS.slice(1).map((extension) => `${path}/index${extension}`),
	].find(isFile);
}

/**
 * The circles of an import graph: each group of files that reach one another through their
 * imports (a strongly connected component, Tarjan's algorithm), and a file that imports itself.
 * Each group sorted, the groups in order of their first file.
 */
function circles(graph: Map<string, string[]>): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	const connect = (file: string) => {
		index.set(file, index.size);
		low.set(file, index.get(file)!);
		stack.push(file);
		onStack.add(file);
		for (const next of graph.get(file) ?? []) {
			if (!index.has(next)) {
				connect(next);
				low.set(file, Math.min(low.get(file)!, low.get(next)!));
			} else if (onStack.has(next)) {
				low.set(file, Math.min(low.get(file)!, index.get(next)!));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const group: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			group.push(member);
		} while (member !== file);
		if (group.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(group.sort());
	};
	for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
	return found.sort((a, b) => a[0].localeCompare(b[0]));
}

const files = sources('');
const edges = files.flatMap((file) =>
	specifiersOf(file).map((specifier) => ({ file, specifier, target: resolve(file, specifier) })),
);

describe('import circles in the whole repository', () => {
	it('reads every kind of source, and each relative import leads to a file', () => {
		const folders = new Set(files.map((file) => file.split('/')[0]));
		for (const folder of ['nodes', 'credentials', 'sandbox', 'bench', 'scripts', 'test'])
			expect(folders).toContain(folder);
		expect(files.some((file) => file.endsWith('.mjs'))).toBe(true);
		expect(files.some((file) => file.endsWith('.js'))).toBe(true);
		expect(edges.length).toBeGreaterThan(300);
		expect(
			edges
				.filter(({ target }) => target === undefined)
				.map(({ file, specifier }) => `${file}: ${specifier}`),
		).toEqual([]);
	});

	it('finds a circle when there is one (the check itself)', () => {
		const graph = new Map([
			['a.ts', ['b.ts']],
			['b.ts', ['c.ts']],
			['c.ts', ['a.ts', 'd.ts']],
			['d.ts', ['e.ts']],
			['e.ts', ['d.ts']],
			['f.ts', ['f.ts']],
			['g.ts', ['a.ts']],
		]);
		expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts', 'e.ts'], ['f.ts']]);
		expect(circles(new Map([['a.ts', ['b.ts']]]))).toEqual([]);
	});

	it('has none', () => {
		const graph = new Map<string, string[]>(files.map((file) => [file, []]));
		for (const { file, target } of edges)
			if (target !== undefined && graph.has(target)) graph.get(file)!.push(target);
		expect(circles(graph).map((group) => group.join(' ⇄ '))).toEqual([]);
	});
});
