/**
 * The node's one reader of JSON text, for answers, JSON parameters and trigger bodies: time
 * linear in the text whatever it holds, no deeper than MAX_JSON_DEPTH, and (where asked)
 * lossless. The contract types ids as long (64 bits), but a JavaScript number rounds integers
 * above 2^53 (9007199254740993 becomes …992), so a rule list read and saved back through
 * JSON.parse/JSON.stringify would change ids the node never meant to touch. A lossless read keeps
 * an integer literal that a number cannot hold exactly as a LongInteger (its digits), an object
 * JSON cannot produce: no string of the data, whatever it holds, is ever taken for a number.
 * stringifyLossless writes a LongInteger back as the same digits; plainCopy makes it its digits
 * as a plain string for an output item.
 *
 * How: one pass over the text (each character looked at once; a string skipped with indexOf)
 * counts the nesting and sees whether any long integer literal is there. Without one (nearly
 * every text) JSON.parse reads it; with one, the node's own reader reads it in a second pass, as
 * strictly as JSON.parse (any text it refuses is handed to JSON.parse for JSON.parse's error).
 * No regular expression runs over the text.
 */

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

/**
 * An integer literal of a lossless read that a number cannot hold exactly (more than 2^53, or
 * digits a number would write otherwise): its digits as they were written, with their sign. Only
 * the lossless reader makes one. It is an object of its own class, which JSON text cannot
 * produce, so a string of the data that looks like a number is never taken for one. An output
 * item never holds one (plainCopy); JSON.stringify writes its digits as a string, and
 * stringifyLossless as the number literal it was.
 */
export class LongInteger {
	constructor(readonly digits: string) {}

	toJSON(): string {
		if (writing === undefined) return this.digits;
		writing.count++;
		return writing.mark + this.digits;
	}

	toString(): string {
		return this.digits;
	}
}

/** Inside stringifyLossless: the mark of this write, and how many LongIntegers wrote it. */
let writing: { mark: string; count: number } | undefined;

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const UPPER_E = 0x45;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const LOWER_E = 0x65;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** 2^53: every integer below it is a number exactly. */
const EXACT_BELOW = 9007199254740992;

/**
 * Where the string literal opened at `open` ends (its closing quote), or the text's length when
 * it never ends: the first quote after it that an even number of backslashes precedes. Each
 * character is looked at at most twice (indexOf, and the backslashes counted back from a quote).
 */
function stringEnd(text: string, open: number): number {
	let quote = text.indexOf('"', open + 1);
	while (quote >= 0) {
		let before = quote - 1;
		while (text.charCodeAt(before) === BACKSLASH) before--;
		if ((quote - 1 - before) % 2 === 0) return quote;
		quote = text.indexOf('"', quote + 1);
	}
	return text.length;
}

/**
 * Whether the integer literal text[start, end) (a sign or not, then `count` digits from
 * `digits`, more than 15 of them; `value` the digits read as a number) would read as a number
 * written with other digits. 15 digits always fit. 16 digits are below 10^16 < 2^54, where
 * every even integer is a number: they fit below 2^53 or when even (the sum that built `value`
 * was then exact, or rounded once, as reading the literal rounds it). A number's shortest form
 * has at most 17 significant digits, so a literal with more (trailing zeros aside) is never
 * kept; past 21 digits a number is written with an exponent. Only the rest is read as a number
 * to see. A leading zero is not JSON: never a long integer (JSON.parse refuses it).
 */
function isLong(text: string, start: number, digits: number, end: number, value: number): boolean {
	const count = end - digits;
	if (text.charCodeAt(digits) === ZERO) return false;
	if (count === 16) return value >= EXACT_BELOW && (text.charCodeAt(end - 1) - ZERO) % 2 === 1;
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
 * One pass over the text: refuses nesting deeper than `maxDepth` (JsonTooDeepError where the
 * level past it opens); with `findLongs`, tells whether an integer literal a number cannot hold
 * exactly is there. Invalid text is left to the readers to refuse.
 */
function scan(text: string, maxDepth: number, findLongs: boolean): boolean {
	let depth = 0;
	let long = false;
	const length = text.length;
	for (let at = 0; at < length; at++) {
		const code = text.charCodeAt(at);
		if (code === QUOTE) {
			at = stringEnd(text, at);
		} else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
			if (++depth > maxDepth) throw new JsonTooDeepError(maxDepth, at);
		} else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
			if (depth > 0) depth--;
		} else if (findLongs && !long && (code === MINUS || (code >= ZERO && code <= NINE))) {
			// A number literal: its integer digits (read as a number on the way), then a fraction
			// or an exponent, which make it no integer.
			const digits = code === MINUS ? at + 1 : at;
			let end = digits;
			let value = 0;
			let next = end < length ? text.charCodeAt(end) : -1;
			while (next >= ZERO && next <= NINE) {
				value = value * 10 + (next - ZERO);
				next = ++end < length ? text.charCodeAt(end) : -1;
			}
			if (end - digits > 15 && next !== DOT && next !== LOWER_E && next !== UPPER_E)
				long = isLong(text, at, digits, end, value);
			at = end - 1;
		}
	}
	return long;
}

/** Thrown inside the lossless reader at the first thing that is not JSON. */
const NOT_JSON = new Error('not JSON');

/** The text the lossless reader reads, and where it is. */
let source = '';
let at = 0;

function skipSpace(): void {
	let code = source.charCodeAt(at);
	while (code === SPACE || code === LINE_FEED || code === CARRIAGE_RETURN || code === TAB)
		code = source.charCodeAt(++at);
}

/** The string literal at `at` (its opening quote); `at` then follows it. */
function readString(): string {
	const open = at;
	const length = source.length;
	let escaped = false;
	for (let end = open + 1; end < length; end++) {
		const code = source.charCodeAt(end);
		if (code === QUOTE) {
			at = end + 1;
			// With escapes JSON.parse decodes (and checks) them; without, the text is the string.
			return escaped
				? (JSON.parse(source.slice(open, end + 1)) as string)
				: source.slice(open + 1, end);
		}
		if (code === BACKSLASH) {
			escaped = true;
			end++;
		} else if (code < SPACE) {
			throw NOT_JSON;
		}
	}
	throw NOT_JSON;
}

/** Moves `at` past the digits there; how many there were. */
function skipDigits(): number {
	const first = at;
	let code = source.charCodeAt(at);
	while (code >= ZERO && code <= NINE) code = source.charCodeAt(++at);
	return at - first;
}

/** The number literal at `at`: a number, or a LongInteger where a number would change it. */
function readNumber(): number | LongInteger {
	const start = at;
	const negative = source.charCodeAt(at) === MINUS;
	if (negative) at++;
	const digits = at;
	let value = 0;
	let code = source.charCodeAt(at);
	if (code === ZERO) {
		code = source.charCodeAt(++at);
	} else {
		while (code >= ZERO && code <= NINE) {
			value = value * 10 + (code - ZERO);
			code = source.charCodeAt(++at);
		}
	}
	const count = at - digits;
	if (count === 0) throw NOT_JSON;
	if (code !== DOT && code !== LOWER_E && code !== UPPER_E) {
		// An integer: up to 15 digits `value` is exact; 16 that fit were rounded once, as
		// reading the literal rounds them.
		if (count > 15) {
			if (isLong(source, start, digits, at, value)) return new LongInteger(source.slice(start, at));
			if (count > 16) return Number(source.slice(start, at));
		}
		return negative ? -value : value;
	}
	if (code === DOT) {
		at++;
		if (skipDigits() === 0) throw NOT_JSON;
		code = source.charCodeAt(at);
	}
	if (code === LOWER_E || code === UPPER_E) {
		code = source.charCodeAt(++at);
		if (code === PLUS || code === MINUS) at++;
		if (skipDigits() === 0) throw NOT_JSON;
	}
	return Number(source.slice(start, at));
}

/** The word `word` at `at`, as `value`. */
function readWord<T>(word: string, value: T): T {
	if (!source.startsWith(word, at)) throw NOT_JSON;
	at += word.length;
	return value;
}

/** The value at `at` (no space before it); `at` then follows it. Nesting was bounded by scan. */
function readValue(): unknown {
	const code = source.charCodeAt(at);
	if (code === QUOTE) return readString();
	if (code === OPEN_BRACE) return readObject();
	if (code === OPEN_BRACKET) return readList();
	if (code === MINUS || (code >= ZERO && code <= NINE)) return readNumber();
	if (code === 0x74) return readWord('true', true);
	if (code === 0x66) return readWord('false', false);
	if (code === 0x6e) return readWord('null', null);
	throw NOT_JSON;
}

function readList(): unknown[] {
	const list: unknown[] = [];
	at++;
	skipSpace();
	if (source.charCodeAt(at) === CLOSE_BRACKET) {
		at++;
		return list;
	}
	for (;;) {
		list.push(readValue());
		skipSpace();
		const code = source.charCodeAt(at++);
		if (code === CLOSE_BRACKET) return list;
		if (code !== COMMA) throw NOT_JSON;
		skipSpace();
	}
}

function readObject(): Record<string, unknown> {
	const object: Record<string, unknown> = {};
	at++;
	skipSpace();
	if (source.charCodeAt(at) === CLOSE_BRACE) {
		at++;
		return object;
	}
	for (;;) {
		if (source.charCodeAt(at) !== QUOTE) throw NOT_JSON;
		const key = readString();
		skipSpace();
		if (source.charCodeAt(at++) !== COLON) throw NOT_JSON;
		skipSpace();
		const value = readValue();
		// A member of the object, as JSON.parse makes it (an assignment would set the prototype).
		if (key === '__proto__')
			Object.defineProperty(object, key, {
				value,
				writable: true,
				enumerable: true,
				configurable: true,
			});
		else object[key] = value;
		skipSpace();
		const code = source.charCodeAt(at++);
		if (code === CLOSE_BRACE) return object;
		if (code !== COMMA) throw NOT_JSON;
		skipSpace();
	}
}

/**
 * The lossless reader, for text that holds a long integer (its nesting already bounded): the
 * value JSON.parse would give, but for LongIntegers. Text it refuses is refused by JSON.parse,
 * with JSON.parse's message.
 */
function readLossless(text: string): unknown {
	source = text;
	at = 0;
	try {
		skipSpace();
		const value = readValue();
		skipSpace();
		if (at !== text.length) throw NOT_JSON;
		return value;
	} catch {
		// Not JSON (NOT_JSON, or JSON.parse refusing a string's escapes): JSON.parse says why.
	} finally {
		source = '';
	}
	JSON.parse(text);
	// JSON.parse read what this reader refused: a fault of this reader, never a value built
	// without its long integers.
	throw new SyntaxError('The JSON text could not be read exactly');
}

/**
 * Reads JSON text no deeper than `maxDepth` (JsonTooDeepError beyond it: nothing deep is built).
 * Invalid JSON throws JSON.parse's SyntaxError, which names the position.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
	scan(text, maxDepth, false);
	return JSON.parse(text) as unknown;
}

/** As parseJson; an integer literal that a number would change becomes a LongInteger. */
export function parseLossless(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
	return scan(text, maxDepth, true) ? readLossless(text) : (JSON.parse(text) as unknown);
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
 * Serialises a value that may hold LongIntegers, writing each as the integer literal it was read
 * as. JSON.stringify writes each as a string that opens with a mark chosen for this write; the
 * write counts them, and the marks are replaced only when the text holds exactly as many (the
 * data holds the mark nowhere), else another mark is chosen.
 */
export function stringifyLossless(value: unknown): string {
	for (let attempt = 0; attempt < 8; attempt++) {
		const mark = `\u0000${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
		const state = { mark, count: 0 };
		writing = state;
		let text: string;
		try {
			text = JSON.stringify(value);
		} finally {
			writing = undefined;
		}
		if (state.count === 0) return text;
		const parts = text.split(`"${JSON.stringify(mark).slice(1, -1)}`);
		if (parts.length - 1 !== state.count) continue;
		// Each part after the first opens with a LongInteger's digits and its closing quote.
		for (let i = 1; i < parts.length; i++) {
			const quote = parts[i].indexOf('"');
			parts[i] = parts[i].slice(0, quote) + parts[i].slice(quote + 1);
		}
		return parts.join('');
	}
	throw new Error('The JSON text could not be written exactly');
}

/** An id's text, whatever it was read as: 7, "7" and a long integer all compare by their digits. */
export function idText(value: unknown): string {
	if (typeof value === 'string') return value.trim();
	if (value instanceof LongInteger) return value.digits;
	return String(value);
}

/** A copy fit for an output item: long integers become their digits as a plain string. */
export function plainCopy<T>(value: T): T {
	if (value instanceof LongInteger) return value.digits as T;
	if (Array.isArray(value)) return value.map(plainCopy) as T;
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, plainCopy(entry)]),
		) as T;
	}
	return value;
}
