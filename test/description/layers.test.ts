/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The layers of the README's Code map, checked on every import line of nodes/**: imports run
 * downward only,
 *   node files (nodes/Knolyx/*.node.ts) → actions/, trigger/, poll/ → methods/ (the pickers) → transport/ → helpers/,
 * and nothing outside transport/ reaches past its front, transport/index.ts; and no import circle
 * anywhere (every import line counts, `import type` too: a circle of types is a circle of meaning).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

import { ENDPOINTS } from '../../nodes/Knolyx/transport';

const ROOT = join(__dirname, '..', '..');
const NODE_DIR = 'nodes/Knolyx';

/** The rank of each layer, top first: a file may import its own rank or a higher one, never a lower. */
const LAYERS: Record<string, number> = {
	'': 0,
	actions: 1,
	trigger: 1,
	poll: 1,
	methods: 2,
	transport: 3,
	helpers: 4,
};

function tsFiles(dir: string): string[] {
	return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = posix.join(dir, entry.name);
		if (entry.isDirectory()) return tsFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** The relative modules a file imports or re-exports (static and dynamic). */
function importsOf(file: string): string[] {
	const text = readFileSync(join(ROOT, file), 'utf8');
	return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']*)'/gm)].map(
		(match) => match[1],
	);
}

/** The layer folder of a path below nodes/Knolyx ('' for the node files at its top). */
function layerOf(path: string): string {
	const inside = relative(NODE_DIR, path).split(sep).join('/');
	const parts = inside.split('/');
	return parts.length === 1 ? '' : parts[0];
}

interface Import {
	file: string;
	target: string;
}

/** The file an import names: `x` is x.ts, or x/index.ts for a folder. */
function resolve(file: string, spec: string): string {
	const path = posix.normalize(posix.join(posix.dirname(file), spec));
	return existsSync(join(ROOT, `${path}.ts`)) ? `${path}.ts` : `${path}/index.ts`;
}

const imports: Import[] = tsFiles(NODE_DIR).flatMap((file) =>
	importsOf(file).map((spec) => ({ file, target: resolve(file, spec) })),
);

/** Every circle of an import graph, each once, as the files around it (first file repeated at the end). */
function cycles(graph: Map<string, string[]>): string[][] {
	const found = new Map<string, string[]>();
	const state = new Map<string, 'open' | 'done'>();
	const stack: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		stack.push(file);
		for (const next of graph.get(file) ?? []) {
			if (state.get(next) === 'open') {
				const circle = stack.slice(stack.indexOf(next));
				// One entry per circle, whichever file the search entered it by.
				const key = [...circle].sort().join(' ');
				if (!found.has(key)) found.set(key, [...circle, next]);
			} else if (!state.has(next)) visit(next);
		}
		stack.pop();
		state.set(file, 'done');
	};
	for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
	return [...found.values()];
}

describe('the code map layers (README, Code map)', () => {
	it('reads the import lines of every file of the node', () => {
		expect(imports.length).toBeGreaterThan(100);
		expect(imports.filter(({ target }) => !existsSync(join(ROOT, target)))).toEqual([]);
	});

	it('has every folder of nodes/Knolyx in a layer', () => {
		const folders = new Set(tsFiles(NODE_DIR).map(layerOf));
		expect([...folders].filter((folder) => !(folder in LAYERS))).toEqual([]);
	});

	it('imports only downward (or within a layer)', () => {
		const upward = imports
			.filter(({ file, target }) => LAYERS[layerOf(target)] < LAYERS[layerOf(file)])
			.map(({ file, target }) => `${file} imports ${target}`);
		expect(upward).toEqual([]);
	});

	it('reaches transport/ only through transport/index.ts', () => {
		const past = imports
			.filter(
				({ file, target }) => layerOf(file) !== 'transport' && layerOf(target) === 'transport',
			)
			.filter(({ target }) => target !== `${NODE_DIR}/transport/index.ts`)
			.map(({ file, target }) => `${file} imports ${target}`);
		expect(past).toEqual([]);
	});

	it('finds an import circle when there is one (the check itself)', () => {
		const circular = new Map([
			['a.ts', ['b.ts']],
			['b.ts', ['c.ts']],
			['c.ts', ['a.ts', 'd.ts']],
			['d.ts', []],
		]);
		expect(cycles(circular)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
		expect(
			cycles(
				new Map([
					['a.ts', ['b.ts']],
					['b.ts', []],
				]),
			),
		).toEqual([]);
	});

	it('has no import circle in nodes/', () => {
		expect(tsFiles('nodes').every((file) => file.startsWith(`${NODE_DIR}/`))).toBe(true);
		const graph = new Map<string, string[]>(tsFiles(NODE_DIR).map((file) => [file, []]));
		for (const { file, target } of imports) graph.get(file)?.push(target);
		expect(cycles(graph).map((circle) => circle.join(' → '))).toEqual([]);
	});

	it('keeps every source file of nodes/ at 350 lines or fewer (one job a file)', () => {
		const long = tsFiles(NODE_DIR)
			.map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length }))
			.filter(({ lines }) => lines > 351)
			.map(({ file, lines }) => `${file}: ${lines - 1} lines`);
		expect(long).toEqual([]);
	});

	it('keeps the node files at the top: nothing imports them', () => {
		const intoNodes = imports
			.filter(({ target }) => layerOf(target) === '')
			.map(({ file, target }) => `${file} imports ${target}`);
		expect(intoNodes).toEqual([]);
	});
});

describe('the API module (transport/api/)', () => {
	const apiFiles = tsFiles(`${NODE_DIR}/transport/api`);
	/** Each `ENDPOINTS.<name>` a file names, with the file. */
	const uses = tsFiles(NODE_DIR).flatMap((file) =>
		[...readFileSync(join(ROOT, file), 'utf8').matchAll(/\bENDPOINTS\.(\w+)/g)].map((match) => ({
			file,
			name: match[1],
		})),
	);

	it('names every endpoint of the catalogue exactly once, in one file of transport/api/', () => {
		// So an operation over any endpoint of the contract finds its call already there: adding
		// it touches its operation file and its resource's list only (docs/development.md).
		const apiUses = uses.filter(({ file }) => apiFiles.includes(file)).map(({ name }) => name);
		expect([...apiUses].sort()).toEqual(Object.keys(ENDPOINTS).sort());
	});

	it('gives every read of JSON the shape its answers must have, and every paged read the page shape', () => {
		const reads = Object.entries(ENDPOINTS).filter(
			([, endpoint]) => endpoint.method === 'GET' && endpoint.answer !== 'binary',
		);
		expect(reads.filter(([, endpoint]) => !('shape' in endpoint)).map(([name]) => name)).toEqual(
			[],
		);
		// readPages relies on the client's check of the page shape.
		const paged = apiFiles.flatMap((file) =>
			[
				...readFileSync(join(ROOT, file), 'utf8').matchAll(
					/readPages<?[^(]*\(\s*client,\s*ENDPOINTS\.(\w+)/g,
				),
			].map((match) => match[1]),
		);
		expect(paged.length).toBeGreaterThan(0);
		const shapes = ENDPOINTS as Record<string, { shape?: string }>;
		expect(paged.filter((name) => shapes[name].shape !== 'page')).toEqual([]);
	});

	it('is the only code that names an endpoint', () => {
		const elsewhere = uses
			.filter(({ file }) => !apiFiles.includes(file))
			.map(({ file, name }) => `${file} names ENDPOINTS.${name}`);
		expect(elsewhere).toEqual([]);
	});
});
