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
/** 31 levels of empty lists: inside a list, the deepest the node reads (32). */
const emptyLists = `${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}`;

/** `count` copies of `each`, separated by commas, in a list: about `size` characters. */
const listOf = (each: string, size: number) =>
	`[${`${each},`.repeat(Math.max(0, Math.floor(size / (each.length + 1)) - 1))}${each}]`;

/**
 * A course's rule list as the platform could answer it, every id a long integer (above 2^53):
 * rules with a name, dates, restrictions, an unknown field and 12 ids in their associations.
 */
function ruleList(size: number): string {
	const rules: string[] = [];
	let length = 2;
	let id = 9007199254740993n;
	const next = () => String((id += 2n));
	while (length < size) {
		const ids = (count: number) => Array.from({ length: count }, next).join(',');
		const rule = `{"id":${next()},"name":"Rule ${rules.length}","type":"PRIVATE","startDateTime":"2020-01-01 00:00:00","endDateTime":"2070-01-01 00:00:00","restrictions":{"minimumTime":false,"browseOrder":"anyOrder"},"associations":{"WORKGROUP":[${ids(6)}],"USER":[${ids(4)}],"DEPARTMENT":[${ids(2)}]},"action":"WORKGROUP","diplomaTemplateId":${next()}}`;
		rules.push(rule);
		length += rule.length + 1;
	}
	return `[${rules.join(',')}]`;
}

/**
 * A list the platform answers, every id a long integer (above 2^53), as Get Many, the pickers
 * and the Poll Trigger read it (parseExact: long integers as their digits): `entry` writes one
 * entry from a fresh id.
 */
function longList(size: number, entry: (next: () => string, index: number) => string): string {
	const entries: string[] = [];
	let length = 2;
	let id = 9007199254740993n;
	const next = () => String((id += 1n));
	while (length < size) {
		const text = entry(next, entries.length);
		entries.push(text);
		length += text.length + 1;
	}
	return `[${entries.join(',')}]`;
}

/** Row 12 (rows/lists.ts): lists of long ids, read as the node reads lists (parseExact). */
export const LIST_PATTERNS: JsonPattern[] = [
	{
		name: 'a course list of long ids [{"id":9007199254740994,"title":…},…]',
		valid: true,
		make: (size) => longList(size, (next, i) => `{"id":${next()},"title":"Course ${i}"}`),
	},
	{
		name: 'an event list of long ids (id, communityId, dates, title)',
		valid: true,
		make: (size) =>
			longList(
				size,
				(next, i) =>
					`{"id":${next()},"communityId":9007199254740993,"title":"Event ${i}","startDateTime":"2026-12-01 10:00:00","endDateTime":"2026-12-01 12:00:00"}`,
			),
	},
	{
		name: 'an attendee list of long ids (userId, email)',
		valid: true,
		make: (size) =>
			longList(size, (next, i) => `{"userId":${next()},"email":"user${i}@example.com"}`),
	},
];

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
		name: 'whitespace before long integers [  12345678901234567890,…',
		valid: true,
		make: (size) => listOf(`${' '.repeat(16)}12345678901234567890`, size),
	},
	{
		name: '16-digit numbers that fit [9007199254740990,…',
		valid: true,
		make: (size) => listOf('9007199254740990,1234567890123456,9007199254740994', size),
	},
	{
		name: '17-digit numbers that fit [10000000000000002,…',
		valid: true,
		make: (size) => listOf('10000000000000002', size),
	},
	{
		name: 'a rule list of long ids',
		valid: true,
		make: ruleList,
	},
	{
		name: 'one long integer, then escaped strings',
		valid: true,
		make: (size) => `[12345678901234567890,"${'\\"'.repeat(size / 2 - 14)}"]`,
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
		name: `${MAX_JSON_DEPTH - 1}-deep empty lists, repeated`,
		valid: true,
		make: (size) => listOf(emptyLists, size),
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
