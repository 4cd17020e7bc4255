#!/usr/bin/env node
// Checks that every relative link in the project's Markdown resolves: the file (or folder)
// exists, and a `#anchor` matches a heading of the target file as GitHub slugs it.
// Plain Node, no dependencies. Usage: node scripts/check-links.mjs [file.md ...]
// (default: README.md, CONTRIBUTING.md and docs/*.md). Exits 1 and lists the broken links.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function defaultFiles() {
	const files = ['README.md', 'CONTRIBUTING.md'].map((f) => join(root, f));
	const docs = join(root, 'docs');
	for (const name of readdirSync(docs).sort())
		if (name.endsWith('.md')) files.push(join(docs, name));
	return files;
}

/**
 * The lines of a Markdown text: `raw` as written, or '' inside a fenced code block, and `prose`,
 * the same with inline code spans blanked (where links are looked for). Line numbers are kept.
 */
function linesOf(text) {
	let fence = null;
	return text.split('\n').map((line) => {
		const open = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
		if (fence) {
			if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = null;
			return { raw: '', prose: '' };
		}
		if (open) {
			fence = open[1];
			return { raw: '', prose: '' };
		}
		return { raw: line, prose: line.replace(/(`+)(?:(?!\1).)+?\1/g, (m) => ' '.repeat(m.length)) };
	});
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
	return heading
		.trim()
		.toLowerCase()
		.replace(/<[^>]*>/g, '')
		.replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors a Markdown file offers: its headings (duplicates get -1, -2, …). */
const anchorCache = new Map();
function anchorsOf(file) {
	if (anchorCache.has(file)) return anchorCache.get(file);
	const anchors = new Set();
	const seen = new Map();
	for (const { raw } of linesOf(readFileSync(file, 'utf8'))) {
		const m = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
		if (!m) continue;
		// Links and emphasis in a heading count by their text only.
		const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]/g, '');
		const base = slug(text);
		const n = seen.get(base) ?? 0;
		seen.set(base, n + 1);
		anchors.add(n === 0 ? base : `${base}-${n}`);
	}
	anchorCache.set(file, anchors);
	return anchors;
}

/** Every `[text](target)` link (and image) of a file, with its line number. */
function linksOf(file) {
	const links = [];
	linesOf(readFileSync(file, 'utf8')).forEach(({ prose: line }, i) => {
		const re = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
		for (let m = re.exec(line); m; m = re.exec(line)) links.push({ target: m[1], line: i + 1 });
	});
	return links;
}

function check(file) {
	const problems = [];
	for (const { target, line } of linksOf(file)) {
		if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // absolute URL, mailto:
		const hash = target.indexOf('#');
		const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
		const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
		const dest = path === '' ? file : resolve(dirname(file), path);
		const where = `${relative(root, file)}:${line}`;
		if (!existsSync(dest)) {
			problems.push(`${where}: ${target}: no such file`);
			continue;
		}
		if (anchor === null || anchor === '') continue;
		if (statSync(dest).isDirectory() || !dest.endsWith('.md')) {
			problems.push(`${where}: ${target}: an anchor into a file that is not Markdown`);
			continue;
		}
		if (!anchorsOf(dest).has(anchor.toLowerCase())) {
			problems.push(`${where}: ${target}: no heading "#${anchor}" in ${relative(root, dest)}`);
		}
	}
	return problems;
}

const args = process.argv.slice(2);
const files = args.length
	? args.map((f) => resolve(f))
	: defaultFiles().filter((f) => existsSync(f));
const problems = files.flatMap(check);
const count = files.reduce((n, f) => n + linksOf(f).length, 0);
if (problems.length) {
	console.error(problems.join('\n'));
	console.error(`\n${problems.length} broken link(s) in ${files.length} file(s).`);
	process.exit(1);
}
console.log(
	`${count} link(s) in ${files.length} file(s): every relative file and #anchor resolves.`,
);
