/**
 * The worst cases of a JSON reader, each about `size` characters: what the bench's JSON row
 * (rows/json.ts) times and what test/helpers-unit/json.test.ts bounds. `valid`: JSON.parse
 * reads it, so the reader's time can be compared with JSON.parse's on the same text.
 */
import { MAX_JSON_DEPTH } from '../nodes/Knolyx/helpers/json';

export interface JsonPattern {
	name: string;
	valid: boolean;
	make: (size: number) => string;
}

const nestedToBound = `${'['.repeat(MAX_JSON_DEPTH - 1)}1${']'.repeat(MAX_JSON_DEPTH - 1)}`;

export const JSON_PATTERNS: JsonPattern[] = [
	{
		name: 'escaped quotes in a string ["\\"\\"…"]',
		valid: true,
		make: (size) => `["${'\\"'.repeat(size / 2 - 2)}"]`,
	},
	{
		name: 'escaped backslashes in a string "\\\\…"',
		valid: true,
		make: (size) => `"${'\\\\'.repeat(size / 2 - 1)}"`,
	},
	{ name: 'one long string', valid: true, make: (size) => `"${'a'.repeat(size - 2)}"` },
	{
		name: 'long integers [12345678901234567890,…]',
		valid: true,
		make: (size) => `[${'12345678901234567890,'.repeat(Math.floor(size / 21) - 1)}1]`,
	},
	{
		name: 'one number of a million digits per MiB',
		valid: true,
		make: (size) => `[${'7'.repeat(size - 2)}]`,
	},
	{
		name: `nesting to the bound (${MAX_JSON_DEPTH}), repeated`,
		valid: true,
		make: (size) =>
			`[${`${nestedToBound},`.repeat(Math.floor(size / (nestedToBound.length + 1)) - 1)}1]`,
	},
	{
		name: 'a wide object {"k00000000":1,…}',
		valid: true,
		make: (size) =>
			`{${Array.from({ length: Math.floor(size / 16) }, (_, i) => `"k${String(i).padStart(8, '0')}":1`).join(',')}}`,
	},
	{
		name: 'quote and backslash, unterminated "\\"\\…',
		valid: false,
		make: (size) => '"\\'.repeat(size / 2),
	},
	{
		name: 'escaped quotes, unterminated \\"\\"…',
		valid: false,
		make: (size) => '\\"'.repeat(size / 2),
	},
	{ name: 'quotes only """…', valid: false, make: (size) => '"'.repeat(size) },
	{ name: 'digits and dots 1.1.…', valid: false, make: (size) => '1.'.repeat(size / 2) },
	{ name: 'nesting past the bound [[[…', valid: false, make: (size) => '['.repeat(size) },
];
