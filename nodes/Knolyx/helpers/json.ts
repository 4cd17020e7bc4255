/**
 * JSON that keeps every integer exactly. The contract types ids as long (64 bits), but a
 * JavaScript number rounds integers above 2^53 (9007199254740993 becomes …992), so a rule list
 * read and saved back through JSON.parse/JSON.stringify would change ids the node never meant
 * to touch. Here an integer literal that a number cannot hold exactly is kept as a marked string
 * (`LONG_MARK` + its digits) and written back as the same digits.
 */

/** Prefix of a string that stands for an integer literal too long for a number. */
const LONG_MARK = '\u0000long:';

/** A string literal, or a number literal (JSON grammar), in JSON text. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** Parses JSON text; an integer literal that a number would change becomes a marked string. */
export function parseLossless(text: string): unknown {
	const marked = text.replace(TOKENS, (token) => {
		if (token.startsWith('"') || !/^-?\d+$/.test(token) || String(Number(token)) === token)
			return token;
		return JSON.stringify(`${LONG_MARK}${token}`);
	});
	return JSON.parse(marked);
}

/** Serialises a value that may hold marked strings, writing them as the integer literals they stand for. */
export function stringifyLossless(value: unknown): string {
	const markedLiteral = JSON.stringify(LONG_MARK).slice(1, -1);
	const text = JSON.stringify(value);
	if (!text.includes(markedLiteral)) return text;
	return text.replace(TOKENS, (token) =>
		token.startsWith(`"${markedLiteral}`) ? token.slice(markedLiteral.length + 1, -1) : token,
	);
}

/** An id's text, whatever it was read as: 7, "7" and a long literal all compare by their digits. */
export function idText(value: unknown): string {
	if (typeof value === 'string')
		return (value.startsWith(LONG_MARK) ? value.slice(LONG_MARK.length) : value).trim();
	return String(value);
}

/** A copy fit for an output item: long integers become their digits as a plain string. */
export function plainCopy<T>(value: T): T {
	if (typeof value === 'string')
		return (value.startsWith(LONG_MARK) ? value.slice(LONG_MARK.length) : value) as T;
	if (Array.isArray(value)) return value.map(plainCopy) as T;
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, plainCopy(entry)]),
		) as T;
	}
	return value;
}
