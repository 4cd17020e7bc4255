import {
	generateSecret,
	matchesAny,
	redact,
	redactDeep,
	tokenFromHeaders,
	tokensMatch,
} from '../../nodes/Knolyx/trigger/security';

describe('secrets', () => {
	it('are 32 random bytes, hex encoded, different every time', () => {
		const secrets = new Set(Array.from({ length: 200 }, generateSecret));
		expect(secrets.size).toBe(200);
		for (const secret of secrets) expect(secret).toMatch(/^[0-9a-f]{64}$/);
	});
});

describe('token check', () => {
	const secret = generateSecret();

	it('matches only the exact secret', () => {
		expect(tokensMatch(secret, secret)).toBe(true);
		expect(tokensMatch(secret.toUpperCase(), secret)).toBe(false);
		expect(tokensMatch(`${secret}x`, secret)).toBe(false);
		expect(tokensMatch(secret.slice(0, -1), secret)).toBe(false);
		expect(tokensMatch(`${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`, secret)).toBe(
			false,
		);
	});

	it('fails closed without a token or without a stored secret', () => {
		expect(tokensMatch(undefined, secret)).toBe(false);
		expect(tokensMatch('', secret)).toBe(false);
		expect(tokensMatch(secret, undefined)).toBe(false);
		expect(tokensMatch(secret, '')).toBe(false);
		expect(matchesAny(secret, [])).toBe(false);
	});

	it('handles multi-byte input of the same string length without throwing', () => {
		const sameLength = 'é'.repeat(secret.length);
		expect(tokensMatch(sameLength, secret)).toBe(false);
	});

	it('matches any of several secrets', () => {
		const other = generateSecret();
		expect(matchesAny(other, [secret, other])).toBe(true);
		expect(matchesAny('nope', [secret, other])).toBe(false);
	});

	it('reads the header only when it is a single non-empty value', () => {
		expect(tokenFromHeaders({ 'x-webhook-security-token': 'abc' })).toBe('abc');
		expect(tokenFromHeaders({ 'x-webhook-security-token': '' })).toBeUndefined();
		expect(tokenFromHeaders({ 'x-webhook-security-token': ['a', 'b'] })).toBeUndefined();
		expect(tokenFromHeaders({})).toBeUndefined();
	});
});

describe('redaction', () => {
	it('removes every occurrence of the secret from text and nested values', () => {
		const secret = generateSecret();
		expect(redact(`token ${secret} again ${secret}`, [secret])).toBe(
			'token [redacted] again [redacted]',
		);
		const copy = redactDeep({ a: [`x${secret}`], b: { c: secret, d: 1 } }, [secret]);
		expect(JSON.stringify(copy)).not.toContain(secret);
		expect(copy).toEqual({ a: ['x[redacted]'], b: { c: '[redacted]', d: 1 } });
	});
});
