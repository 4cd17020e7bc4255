/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/** The variants suite plays every variant of the sandbox at least once. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { VARIANT_NAMES } from '../../sandbox';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file jest's config reads too
const { groups, solo } = require('./groups.js') as { groups: string[][]; solo: string[] };

it('every variant is in a group of the operations runs or solo, and every name there is a variant', () => {
	expect(new Set([...groups.flat(), ...solo])).toEqual(new Set(VARIANT_NAMES));
	expect(groups.flat().filter((name) => solo.includes(name))).toEqual([]);
});

it('every solo variant is played by a test of test/variants', () => {
	const tests = readdirSync(__dirname)
		.filter((file) => file.endsWith('.test.ts'))
		.map((file) => readFileSync(join(__dirname, file), 'utf8'))
		.join('\n');
	expect(solo.filter((name) => !tests.includes(`play('${name}'`))).toEqual([]);
});
