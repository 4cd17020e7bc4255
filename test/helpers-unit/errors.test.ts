/** transport/errors.ts (pure): what the user reads when the platform refuses or cannot be reached. */

import {
	apiError,
	networkError,
	networkErrorCode,
	oddAnswer,
	wrongBaseUrl,
} from '../../nodes/Knolyx/transport/errors';
import { ENDPOINTS } from '../../nodes/Knolyx/transport';
import { pathOf } from '../../nodes/Knolyx/transport/catalogue';
import { node } from './node';

describe('apiError', () => {
	it('a bare 403 names the permission the operation needs, in the message itself', () => {
		const error = apiError(
			node,
			403,
			{ status: 403, error: 'Forbidden', message: 'Forbidden' },
			{ permission: 'USER_PROVISION' },
			2,
		);
		expect(error.message).toBe('Knolyx: Forbidden (needs the USER_PROVISION permission) [403]');
		expect(error.description).toContain('lacks the USER_PROVISION permission');
		expect(error.context.itemIndex).toBe(2);
		expect(apiError(node, 403, '', { permission: 'EVENT_MANAGE' }).message).toBe(
			'Knolyx answered with status 403 (needs the EVENT_MANAGE permission)',
		);
	});

	it('a 403 with its own reason keeps it and explains both meanings', () => {
		const error = apiError(
			node,
			403,
			{ message: 'User has no access to the community' },
			{ permission: 'EVENT_MANAGE', forbidden: 'The user has no community access' },
		);
		expect(error.message).toBe('Knolyx: User has no access to the community [403]');
		expect(error.description).toBe(
			'The user has no community access. Otherwise the API key lacks the EVENT_MANAGE permission.',
		);
	});

	it('a 404 names what was not found', () => {
		const error = apiError(node, 404, { message: 'Entity not found' }, { notFound: 'course 42' });
		expect(error.message).toBe('Knolyx: Entity not found (course 42) [404]');
		expect(error.description).toContain('course 42');
		expect(error.httpCode).toBe('404');
	});

	it('an HTML error page is not shown as the message', () => {
		expect(apiError(node, 502, '<html><body>Bad gateway</body></html>', {}).message).toBe(
			'Knolyx answered with status 502',
		);
	});
});

describe('network errors', () => {
	it('the code survives the NodeApiError n8n builds (the rule editor relies on it after a lost save answer)', () => {
		const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		const error = networkError(node, cause, 0);
		expect(networkErrorCode(cause)).toBe('ECONNRESET');
		expect(networkErrorCode(error)).toBe('ECONNRESET');
	});

	it('recognises codes in causes and the usual messages, and nothing else', () => {
		expect(networkErrorCode({ cause: { code: 'ETIMEDOUT' } })).toBe('ETIMEDOUT');
		expect(networkErrorCode(new Error('timeout of 30000ms exceeded'))).toBe('ETIMEDOUT');
		expect(networkErrorCode(new Error('socket hang up'))).toBe('ECONNRESET');
		expect(networkErrorCode(new Error('Request failed with status code 500'))).toBeUndefined();
		expect(networkErrorCode(apiError(node, 500, { message: 'boom' }, {}))).toBeUndefined();
	});
});

// Base URL forms (joinUrl), Retry-After and the platform message of every error body shape are
// tested through the node over HTTP: test/action/transport.test.ts.
describe('paths', () => {
	it('pathOf encodes every value as one path segment', () => {
		expect(pathOf(ENDPOINTS.memberAdd, { workgroupId: 7, email: 'a/b?c#d@x.com' })).toBe(
			'/workgroup/7/member/a%2Fb%3Fc%23d%40x.com/',
		);
		expect(pathOf(ENDPOINTS.webhookGet, { webhookId: '../1' })).toBe('/webhook/..%2F1');
	});
});

/*
 * The platform's text in an error (transport/errors.ts) is read in bounded work: whatever an
 * answer holds (a web page of `<a`, a 400 whose message is `<!--` over and over, a list where an
 * object was due), only its first characters are looked at, and they are read without a regular
 * expression (test/repo/regexps.test.ts holds the node's sources to that). Asserted on what is
 * read, never on time: the message is the same whatever follows the first BOUND characters, so
 * nothing after them is worked on. The times measured are in docs/reliability.md.
 * Over HTTP, through the node: test/action/hostile-answers.test.ts.
 */
/** The most an error reads of an answer's text (the node reads at most this many, maybe fewer). */
const BOUND = 16_384;

/** Everything an error shows of an answer: its message, description and kept body. */
const shown = (error: { message: string; description?: string | null; errorResponse?: unknown }) =>
	JSON.stringify([error.message, error.description, error.errorResponse]);

/** The answers from issue 37 that blocked n8n for seconds (120 KB) and minutes (about 1 MB). */
const HOSTILE: Array<[string, string]> = [
	['120 KB of "<a"', '<a'.repeat(60_000)],
	['120 KB of "<!--"', '<!--'.repeat(30_000)],
	['1 MB of "<a"', '<a'.repeat(500_000)],
	['1 MB of "<!--"', '<!--'.repeat(250_000)],
	['1 MB of "<script"', '<script'.repeat(150_000)],
	['1 MB of "&amp"', '&amp'.repeat(250_000)],
	['1 MB of spaces and controls', ' \u0000\u202e\t'.repeat(250_000)],
];

/** Endings that would change the message if they were read: they close what the start opened. */
const ENDINGS = ['', '>', '-->', '</script>', ' Bad gateway', `${'x'.repeat(5000)}>`];

/** The same text with each ending: all must give what the text alone gives. */
const variants = (text: string) =>
	ENDINGS.map((ending) => `${text.padEnd(BOUND, ' ')}${ending}${'-->'.repeat(3)}`);

describe('an error reads at most the first characters of an answer', () => {
	it.each(HOSTILE)('a web page (200) of %s', (_what, text) => {
		const [first, ...others] = variants(text).map((page) =>
			shown(wrongBaseUrl(node, 200, 'text/html', page)),
		);
		for (const other of others) expect(other).toBe(first);
		expect(first).toContain('a web page (HTML)');
	});

	it.each(HOSTILE)('a 400 whose message is %s', (_what, text) => {
		const [first, ...others] = variants(text).map((message) =>
			shown(apiError(node, 400, { status: 400, message }, {})),
		);
		for (const other of others) expect(other).toBe(first);
		expect(JSON.parse(first)[0]).toMatch(/^Knolyx: .*\[400\]$|^Knolyx answered with status 400$/);
	});

	it.each(HOSTILE)('a 500 whose body is the text %s', (_what, text) => {
		const [first, ...others] = variants(text).map((body) =>
			shown(apiError(node, 500, `x${body}`, {})),
		);
		for (const other of others) expect(other).toBe(first);
	});

	it.each(HOSTILE)('a list of %s where an object was due (200)', (_what, text) => {
		const [first, ...others] = variants(text).map((entry) =>
			shown(oddAnswer(node, 'object', 200, [entry, { more: entry }], 0)),
		);
		for (const other of others) expect(other).toBe(first);
		expect(JSON.parse(first)[0]).toBe(
			'Knolyx answered a read with something that is not an object [200]',
		);
	});

	it('a list of a million entries where an object was due: only its start is shown', () => {
		const list = Array.from({ length: 1_000_000 }, (_, index) => ({ id: index }));
		const error = oddAnswer(node, 'object', 200, list, 0);
		expect(error.description).toContain('the answer began with: [{"id":0},{"id":1},');
	});
});

describe('what is kept of the text is still readable', () => {
	it.each([
		['<html><body><h1>502</h1> Bad&nbsp;gateway</body></html>', '502 Bad gateway'],
		['<p>a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;</p>', 'a ‹b› & "c" \'d\''],
		['<script type="x">alert(1)</script>Error<style>p{}</style> here', 'Error here'],
		['<SCRIPT>x</script >shown', 'shown'],
		['before<!-- hidden -->after', 'before after'],
		['a\u0000b\u202ec\u2028d\u200be\t\n f', 'a b c d e f'],
		['x < y and y > z', 'x < y and y > z'],
		['unclosed <!-- comment hides the rest', 'unclosed'],
		['a tag <b never closed', 'a tag <b never closed'],
		['&unknown; &amp &#60;', '&unknown; &amp &#60;'],
	])('%j → %j', (text, expected) => {
		expect(apiError(node, 400, { message: text }, {}).message).toBe(`Knolyx: ${expected} [400]`);
	});

	it('a long message is cut to 300 characters on a whole character, with …', () => {
		const message = `${'a'.repeat(299)}😀${'b'.repeat(500)}`;
		const shownMessage = apiError(node, 400, { message }, {}).message;
		expect(shownMessage).toBe(`Knolyx: ${'a'.repeat(299)}… [400]`);
		// No half of a surrogate pair left.
		expect(shownMessage).not.toMatch(/\p{Cs}/u);
	});
});
