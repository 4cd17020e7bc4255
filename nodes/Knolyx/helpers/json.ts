/**
 * The node's one reader of JSON text, for answers, JSON parameters and trigger bodies: time
 * linear in the text whatever it holds, no deeper than MAX_JSON_DEPTH, and (where asked)
 * lossless. The contract types ids as long (64 bits), but a JavaScript number rounds integers
 * above 2^53 (9007199254740993 becomes …992), so a rule list read and saved back through
 * JSON.parse/JSON.stringify would change ids the node never meant to touch. A lossless read keeps
 * an integer literal that a number cannot hold exactly as a marked string (`LONG_MARK` + its
 * digits), and stringifyLossless writes it back as the same digits.
 *
 * How: one pass over the text (every character looked at once or twice) counts the nesting and
 * finds the long integer literals; JSON.parse then reads the text, with those literals turned
 * into marked strings. No regular expression runs over the text.
 */

/** Prefix of a string that stands for an integer literal too long for a number. */
const LONG_MARK = '\u0000long:';
/** How LONG_MARK opens a string literal in JSON text. */
const MARKED_OPEN = JSON.stringify(LONG_MARK).slice(0, -1);

/**
 * The deepest JSON the node reads, anywhere JSON enters (answers, JSON parameters, trigger
 * bodies), counting `{}` and `[]` as 1. The deepest real Knolyx JSON is 4 levels (a rule list →
 * a rule → its associations → a list of ids; a delivery is 3), so 32 leaves room for richer
 * answers while keeping every item one n8n can copy and store: a body 10 000 levels deep fits in
 * 20 KB, and n8n's copy or save of such an item fails with "Maximum call stack size exceeded".
 */
export const MAX_JSON_DEPTH = 32;

/** JSON text nested deeper than the bound: nothing of it was built. */
export class JsonTooDeepError extends Error {
	constructor(
		readonly limit: number,
		readonly position: number,
	) {
		super(`it is nested more than ${limit} levels deep (at position ${position})`);
		this.name = 'JsonTooDeepError';
	}
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isDigit = (code: number) => code >= ZERO && code <= NINE;
const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * Where the string literal opened at `open` ends (its closing quote), or the text's length when
 * it never ends: one look at each character, a backslash passing over the one it escapes.
 */
function stringEnd(text: string, open: number): number {
	const length = text.length;
	for (let at = open + 1; at < length; at++) {
		const code = text.charCodeAt(at);
		if (code === QUOTE) return at;
		if (code === BACKSLASH) at++;
	}
	return length;
}

/** Whether the character at `end` may follow a number literal (else the literal is not one). */
function endsLiteral(text: string, end: number): boolean {
	if (end >= text.length) return true;
	const code = text.charCodeAt(end);
	return isSpace(code) || code === COMMA || code === CLOSE_BRACKET || code === CLOSE_BRACE;
}

/**
 * Whether the integer literal text[start, end) stands where a value is due (first in the text,
 * after `[` or `:`, or after `,` in a list), so that a string in its place is just as valid: a
 * key, a fraction's or an exponent's digits are never marked.
 */
function atValue(text: string, start: number, inList: boolean): boolean {
	let before = start - 1;
	while (before >= 0 && isSpace(text.charCodeAt(before))) before--;
	if (before < 0) return true;
	const code = text.charCodeAt(before);
	return code === OPEN_BRACKET || code === COLON || (code === COMMA && inList);
}

/**
 * Whether the integer literal text[start, end) (digits from `digits`, 16 or more of them) would
 * read as a number written with other digits. A number's shortest form has at most 17 significant
 * digits, so a literal with more (trailing zeros aside) is never kept; past 21 digits a number is
 * written with an exponent. Only the rest is read as a number to see.
 */
function changedByNumber(text: string, start: number, digits: number, end: number): boolean {
	const count = end - digits;
	if (count > 21) return true;
	if (count > 17) {
		let significant = end;
		while (text.charCodeAt(significant - 1) === ZERO) significant--;
		if (significant - digits > 17) return true;
	}
	const literal = text.slice(start, end);
	return String(Number(literal)) !== literal;
}

/**
 * One pass over the text: refuses nesting deeper than `maxDepth`; with `findLongs`, gives the
 * spans [start, end, start, end, …] of the integer literals a number cannot hold exactly.
 * Invalid text is left for JSON.parse to refuse (with its position).
 */
function scan(text: string, maxDepth: number, findLongs: boolean): number[] {
	const longs: number[] = [];
	/** inList[d]: whether the container at depth d is a list. */
	const inList: boolean[] = [false];
	let depth = 0;
	const length = text.length;
	for (let at = 0; at < length; at++) {
		const code = text.charCodeAt(at);
		if (code === QUOTE) {
			at = stringEnd(text, at);
		} else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
			if (++depth > maxDepth) throw new JsonTooDeepError(maxDepth, at);
			inList[depth] = code === OPEN_BRACKET;
		} else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
			if (depth > 0) depth--;
		} else if (findLongs && (code === MINUS || isDigit(code))) {
			const digits = code === MINUS ? at + 1 : at;
			let end = digits;
			while (end < length && isDigit(text.charCodeAt(end))) end++;
			// 15 digits always fit; 16 or more may not. A leading 0 is not JSON: left to JSON.parse.
			if (
				end - digits > 15 &&
				text.charCodeAt(digits) !== ZERO &&
				endsLiteral(text, end) &&
				atValue(text, at, inList[depth])
			) {
				if (changedByNumber(text, at, digits, end)) longs.push(at, end);
			}
			at = end - 1;
		}
	}
	return longs;
}

/**
 * The text with each span of `longs` made a marked string literal. Built by copying bytes (one
 * byte a character for ASCII text, else UTF-16): a string built piece by piece costs several
 * times as much when every value of a large answer is a long id.
 */
function withMarks(text: string, longs: number[]): string {
	const encoding = Buffer.byteLength(text, 'utf8') === text.length ? 'latin1' : 'utf16le';
	const unit = encoding === 'latin1' ? 1 : 2;
	const source = Buffer.from(text, encoding);
	const open = Buffer.from(MARKED_OPEN, encoding);
	const close = Buffer.from('"', encoding);
	const out = Buffer.allocUnsafe(source.length + (longs.length / 2) * (open.length + close.length));
	let written = 0;
	let last = 0;
	for (let i = 0; i < longs.length; i += 2) {
		written += source.copy(out, written, last * unit, longs[i] * unit);
		written += open.copy(out, written);
		written += source.copy(out, written, longs[i] * unit, longs[i + 1] * unit);
		written += close.copy(out, written);
		last = longs[i + 1];
	}
	written += source.copy(out, written, last * unit);
	return out.toString(encoding, 0, written);
}

/**
 * Reads JSON text no deeper than `maxDepth` (JsonTooDeepError beyond it: nothing deep is built).
 * Invalid JSON throws JSON.parse's SyntaxError, which names the position.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
	scan(text, maxDepth, false);
	return JSON.parse(text) as unknown;
}

/** As parseJson; an integer literal that a number would change becomes a marked string. */
export function parseLossless(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
	const longs = scan(text, maxDepth, true);
	if (longs.length === 0) return JSON.parse(text) as unknown;
	const marked = withMarks(text, longs);
	try {
		return JSON.parse(marked) as unknown;
	} catch {
		// The error as the text itself has it (positions of the text, not of the marked copy):
		// marking a literal never makes valid text invalid, so this parse throws too.
		return JSON.parse(text) as unknown;
	}
}

/**
 * How deep `value` is nested (a scalar is 0, `{}` and `[]` are 1), counted without recursion
 * and stopping once past `limit`: the answer is then `limit + 1`. For JSON that arrives already
 * parsed (a trigger body n8n read, a JSON parameter set by an expression).
 */
export function nestingDepth(value: unknown, limit = MAX_JSON_DEPTH): number {
	let deepest = 0;
	const pending: Array<[unknown, number]> = [[value, 1]];
	while (pending.length > 0) {
		const [current, depth] = pending.pop()!;
		if (typeof current !== 'object' || current === null) continue;
		if (depth > limit) return limit + 1;
		if (depth > deepest) deepest = depth;
		for (const child of Object.values(current)) {
			if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
		}
	}
	return deepest;
}

/**
 * A JSON parameter's value, as the node reads it: text parsed losslessly, a value an expression
 * gave as it is; either no deeper than MAX_JSON_DEPTH. Else what is wrong, to follow the
 * parameter's name in a message ("Rules (JSON): is not valid JSON: …").
 */
export function readJsonParameter(
	value: unknown,
): { ok: true; value: unknown } | { ok: false; problem: string } {
	if (typeof value !== 'string') {
		return nestingDepth(value) > MAX_JSON_DEPTH
			? { ok: false, problem: `is nested more than ${MAX_JSON_DEPTH} levels deep` }
			: { ok: true, value };
	}
	try {
		return { ok: true, value: parseLossless(value) };
	} catch (error) {
		const problem =
			error instanceof JsonTooDeepError
				? error.message.replace(/^it /, '')
				: `is not valid JSON: ${(error as Error).message}`;
		return { ok: false, problem };
	}
}

/**
 * Serialises a value that may hold marked strings, writing them as the integer literals they
 * stand for. One pass: each `"\u0000long:` found is an opening quote unless backslashes escape
 * it, and is written back as its digits when the string holds only them and is not a key.
 */
export function stringifyLossless(value: unknown): string {
	const text = JSON.stringify(value);
	let found = text.indexOf(MARKED_OPEN);
	if (found < 0) return text;
	const parts: string[] = [];
	let last = 0;
	while (found >= 0) {
		let before = found - 1;
		while (before >= last && text.charCodeAt(before) === BACKSLASH) before--;
		const digits = found + MARKED_OPEN.length;
		let end = text.charCodeAt(digits) === MINUS ? digits + 1 : digits;
		const first = end;
		while (end < text.length && isDigit(text.charCodeAt(end))) end++;
		const literal =
			(found - 1 - before) % 2 === 0 &&
			end > first &&
			text.charCodeAt(end) === QUOTE &&
			text.charCodeAt(end + 1) !== COLON;
		if (literal) {
			parts.push(text.slice(last, found), text.slice(digits, end));
			last = end + 1;
		}
		found = text.indexOf(MARKED_OPEN, literal ? last : found + 1);
	}
	parts.push(text.slice(last));
	return parts.join('');
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
