/**
 * The platform types ids as long (64-bit). JSON.parse rounds integers above 2^53, so the rule
 * endpoints read and write their bodies here: such integers become BigInt on the way in and are
 * written back as the same digits.
 */

/** Every string literal and number literal of a JSON text. */
const LITERALS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const BIG = '\u0001bigint:';

export function parseBig(text: string): unknown {
	const wrapped = text.replace(LITERALS, (literal) =>
		/^-?\d+$/.test(literal) && String(Number(literal)) !== literal
			? JSON.stringify(`${BIG}${literal}`)
			: literal,
	);
	return JSON.parse(wrapped, (_key, value: unknown) =>
		typeof value === 'string' && value.startsWith(BIG) ? BigInt(value.slice(BIG.length)) : value,
	);
}

export function stringifyBig(value: unknown): string {
	// The holder's own value: a BigInt.prototype.toJSON (n8n defines one) would hand the replacer a string.
	const text = JSON.stringify(
		value,
		function (this: Record<string, unknown>, key: string, entry: unknown) {
			const original = this[key];
			return typeof original === 'bigint' ? `${BIG}${original}` : entry;
		},
	);
	const prefix = JSON.stringify(BIG).slice(0, -1);
	return text.replace(LITERALS, (literal) =>
		literal.startsWith(prefix) ? literal.slice(prefix.length, -1) : literal,
	);
}
