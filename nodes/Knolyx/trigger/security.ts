/**
 * The shared secret of a registration: how it is made, checked and kept out of
 * anything a user or a log can see.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN_HEADER = 'x-webhook-security-token';

/** Bytes of randomness per registration (hex-encoded: 64 characters). */
const SECRET_BYTES = 32;

export function generateSecret(): string {
	return randomBytes(SECRET_BYTES).toString('hex');
}

/** The token of a request: the header's single value, undefined when missing, empty or repeated. */
export function tokenFromHeaders(headers: Record<string, unknown>): string | undefined {
	const value = headers[TOKEN_HEADER];
	if (typeof value !== 'string' || value === '') return undefined;
	return value;
}

/**
 * Constant-time comparison of a received token with a stored secret: lengths
 * first (timingSafeEqual needs equal lengths, and a length leaks nothing about
 * a random secret), then the bytes.
 */
export function tokensMatch(received: string | undefined, secret: string | undefined): boolean {
	if (!received || !secret) return false;
	const a = Buffer.from(received, 'utf8');
	const b = Buffer.from(secret, 'utf8');
	if (a.length !== b.length) return false;
	return timingSafeEqual(a, b);
}

/** Whether the token matches one of the secrets; every secret is compared (no early exit). */
export function matchesAny(received: string | undefined, secrets: readonly string[]): boolean {
	let matched = false;
	for (const secret of secrets) {
		if (tokensMatch(received, secret)) matched = true;
	}
	return matched;
}

export { redact, redactDeep } from '../helpers/redact';
