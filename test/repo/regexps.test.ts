/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The rule for regular expressions in the nodes and the credential (docs/reliability.md): none
 * may take more than linear time on any text, so no answer, header, parameter or delivery can
 * stall n8n through one. Checked over every source file of nodes/ and credentials/ with ESLint's
 * API (n8n's lint configuration stays as n8n ships it):
 * - eslint-plugin-regexp's `no-super-linear-backtracking` and `no-super-linear-move`, reporting
 *   every potential case;
 * - and, because those miss a quantifier behind a prefix (`/<[a-z][^>]*>/g` on `<a<a<a…` reads to
 *   the end from every `<`), the project's own: a pattern with an unbounded quantifier (`*`, `+`,
 *   `{n,}`) must be anchored at the start of every alternative (`^`, without the `m` flag), so it
 *   is tried once per text; an unanchored pattern has bounded quantifiers only (`{1,64}`), so each
 *   place it is tried reads a bounded stretch. A pattern built at run time cannot be checked and is
 *   refused.
 * The few exceptions below say why each is linear anyway.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint, type Linter, type Rule } from 'eslint';
import * as regexpPlugin from 'eslint-plugin-regexp';
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';

// Its types resolve only under node16 module resolution; this project's tests use node10's.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parser = require('@typescript-eslint/parser') as Linter.Parser;

const ROOT = `${__dirname}/../..`;

/** [file, pattern source]: reviewed patterns the anchoring rule would refuse, with why they are linear. */
const REVIEWED: Array<[file: string, source: string, why: string]> = [
	[
		'nodes/Knolyx/trigger/body.ts',
		';\\s*charset\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))',
		// A delivery's Content-Type (at most the size of a header).
		'every try starts at a ";" and fails at the first character that is not "charset"; once ' +
			'"charset=" is found the second alternative always matches, so at most one try reads on',
	],
];

interface Pattern {
	source: string;
	flags: string;
}

/** Whether the pattern has a quantifier without an upper bound. */
function hasUnboundedQuantifier({ source, flags }: Pattern): boolean {
	const ast = new RegExpParser().parsePattern(source, 0, source.length, {
		unicode: flags.includes('u') || flags.includes('v'),
	});
	let unbounded = false;
	visitRegExpAST(ast, {
		onQuantifierEnter(quantifier) {
			if (quantifier.max === Infinity) unbounded = true;
		},
	});
	return unbounded;
}

/** Whether every alternative of the pattern starts with `^` and `^` means the start of the text. */
function anchored({ source, flags }: Pattern): boolean {
	if (flags.includes('m')) return false;
	const ast = new RegExpParser().parsePattern(source, 0, source.length, {
		unicode: flags.includes('u') || flags.includes('v'),
	});
	return ast.alternatives.every((alternative) => {
		const [first] = alternative.elements;
		return first?.type === 'Assertion' && first.kind === 'start';
	});
}

const anchoringRule: Rule.RuleModule = {
	meta: { type: 'problem', schema: [] },
	create(context) {
		const check = (node: Rule.Node, pattern: Pattern) => {
			if (hasUnboundedQuantifier(pattern) && !anchored(pattern))
				context.report({
					node,
					message: `/${pattern.source}/${pattern.flags}: an unbounded quantifier in a pattern not anchored with ^ (tried from every position, each try may read to the end: quadratic). Anchor it, bound the quantifier, or read the text without a regular expression.`,
				});
		};
		return {
			Literal(node) {
				const { regex } = node as { regex?: { pattern: string; flags: string } };
				if (regex) check(node, { source: regex.pattern, flags: regex.flags });
			},
			'NewExpression, CallExpression'(node: Rule.Node) {
				const call = node as unknown as {
					callee: { type: string; name?: string };
					arguments: Array<{ type: string; value?: unknown; regex?: unknown }>;
				};
				if (call.callee.type !== 'Identifier' || call.callee.name !== 'RegExp') return;
				const [source, flags] = call.arguments;
				if (source?.type === 'Literal' && typeof source.value === 'string') {
					const flagText =
						flags === undefined
							? ''
							: flags.type === 'Literal' && typeof flags.value === 'string'
								? flags.value
								: undefined;
					if (flagText !== undefined) return check(node, { source: source.value, flags: flagText });
				}
				context.report({
					node,
					message:
						'a regular expression built at run time: its pattern cannot be checked here. Write it as a literal, or read the text without one.',
				});
			},
		};
	},
};

/** Every TypeScript file under a folder. */
function sourcesUnder(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourcesUnder(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

interface Finding {
	file: string;
	line: number;
	rule: string;
	message: string;
}

/** ESLint with the TypeScript parser and the rules given, n8n's configuration left aside. */
function linter(rules: Linter.RulesRecord): ESLint {
	return new ESLint({
		cwd: ROOT,
		overrideConfigFile: true,
		overrideConfig: [
			{
				files: ['**/*.ts'],
				languageOptions: { parser },
				plugins: {
					regexp: regexpPlugin as unknown as ESLint.Plugin,
					knolyx: { rules: { 'anchored-or-bounded': anchoringRule } },
				},
				rules,
			},
		],
	});
}

async function findings(): Promise<Finding[]> {
	const eslint = linter({
		'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
		'regexp/no-super-linear-move': [
			'error',
			{ report: 'potential', ignoreSticky: false, ignorePartial: false },
		],
		'knolyx/anchored-or-bounded': 'error',
	});
	// lintText, file by file: lintFiles loads modules in a way jest's sandbox does not allow.
	const results = await Promise.all(
		['nodes', 'credentials']
			.flatMap((folder) => sourcesUnder(join(ROOT, folder)))
			.map(async (file) => await eslint.lintText(readFileSync(file, 'utf8'), { filePath: file })),
	);
	return results.flat().flatMap((result) =>
		result.messages.map((message) => ({
			file: relative(ROOT, result.filePath),
			line: message.line,
			rule: message.ruleId ?? '(parse)',
			message: message.message,
		})),
	);
}

const reviewed = (finding: Finding) =>
	REVIEWED.some(
		([file, source]) =>
			finding.file === file &&
			finding.rule === 'knolyx/anchored-or-bounded' &&
			finding.message.startsWith(`/${source}/`),
	);

describe('regular expressions in nodes/ and credentials/', () => {
	it('none can take more than linear time on any text', async () => {
		const found = (await findings()).filter((finding) => !reviewed(finding));
		expect(
			found.map(({ file, line, rule, message }) => `${file}:${line} ${rule}: ${message}`),
		).toEqual([]);
	}, 120_000);

	it('the checks find what they are for (they are not switched off)', async () => {
		const probe = linter({
			'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
			'knolyx/anchored-or-bounded': 'error',
		});
		const [result] = await probe.lintText(
			[
				"export const a = (t: string) => t.replace(/<\\/?[a-z!][^>]*>/gi, ' ');",
				'export const b = /^(a+)+$/;',
				'export const c = (s: string) => new RegExp(s);',
				'export const d = /^\\s*\\d{1,15}\\s*$/;',
				'export const e = /\\.([a-z0-9]{1,10})$/i;',
			].join('\n'),
			{ filePath: `${ROOT}/nodes/probe.ts` },
		);
		expect(result.messages.map((message) => [message.line, message.ruleId])).toEqual([
			[1, 'knolyx/anchored-or-bounded'],
			[2, 'regexp/no-super-linear-backtracking'],
			[3, 'knolyx/anchored-or-bounded'],
		]);
	});
});
