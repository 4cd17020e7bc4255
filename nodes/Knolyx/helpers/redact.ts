/** Keeping secrets (the API key, webhook secrets) out of messages built from platform answers. */

/** Replaces every occurrence of the secrets in a text (for messages built from platform answers). */
export function redact(text: string, secrets: readonly string[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret) result = result.split(secret).join('[redacted]');
	}
	return result;
}

/** Deep copy of a JSON-like value with every occurrence of the secrets redacted. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
	if (typeof value === 'string') return redact(value, secrets) as unknown as T;
	if (Array.isArray(value))
		return value.map((entry: unknown) => redactDeep(entry, secrets)) as unknown as T;
	if (value && typeof value === 'object') {
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
			copy[key] = redactDeep(entry, secrets);
		}
		return copy as T;
	}
	return value;
}
