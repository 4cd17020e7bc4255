/**
 * Decoding a write's text answer (transport/decode.ts): the item carries at most 500 characters
 * of it, cut on a whole code point, so an emoji across the bound leaves no lone surrogate.
 */
import { decodeAnswer } from '../../nodes/Knolyx/transport/decode';
import { node } from './node';

const written = (text: string) =>
	decodeAnswer(
		node,
		{ statusCode: 200, headers: { 'content-type': 'text/plain' }, body: text },
		{ answer: 'json' },
		{ method: 'POST', path: '/public/api/v1/webhook/ping' },
	) as { answer: string };

describe("a write's text answer", () => {
	it('is carried whole when short', () => {
		expect(written('OK')).toEqual({ answer: 'OK' });
	});

	it('is cut at 500 characters on a whole code point: no lone surrogate', () => {
		const { answer } = written(`${'a'.repeat(499)}\u{1F600}tail`);
		expect(answer).toBe('a'.repeat(499));
		expect(answer).not.toMatch(/[\uD800-\uDFFF]/);
	});
});
