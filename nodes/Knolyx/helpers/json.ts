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
 * How: one pass over the text (each character looked at a bounded number of times; a string
 * passed over with indexOf) counts the nesting and stops at the first long integer literal.
 * Without one (nearly every text) JSON.parse reads the text; with one, the node's own reader
 * reads it in a second pass that bounds the nesting itself, as strictly as JSON.parse (a text it
 * refuses is handed to parseJson, for the same error any text gets). No regular expression runs
 * over the text.
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

/** 2^53 in digits: a 16-digit odd integer above it is no number. */
const EXACT_LIMIT = '9007199254740992';

/**
 * Where the string literal opened at `open` ends (its closing quote), or the text's length when
 * it never ends. indexOf finds the first quote; when no backslash stands just before it (nearly
 * always) that is the end. Else the string is looked at again from its start, character by
 * character, a backslash passing over the one it escapes (two characters a step through a run
 * of escapes). Each character is looked at at most twice.
 */
function stringEnd(text: string, open: number): number {
	const length = text.length;
	const quote = text.indexOf('"', open + 1);
	if (quote < 0) return length;
	if (text.charCodeAt(quote - 1) !== BACKSLASH) return quote;
	for (let at = open + 1; at < length; at++) {
		const code = text.charCodeAt(at);
		if (code === QUOTE) return at;
		if (code === BACKSLASH) at++;
	}
	return length;
}

/** Where the digits from `at` end. */
function digitsEnd(text: string, at: number): number {
	let code = text.charCodeAt(at);
	while (code >= ZERO && code <= NINE) code = text.charCodeAt(++at);
	return at;
}

/** The integer the digits text[from, to) write (exact up to 15 digits). */
function digitsValue(text: string, from: number, to: number): number {
	let value = 0;
	for (let at = from; at < to; at++) value = value * 10 + (text.charCodeAt(at) - ZERO);
	return value;
}

/**
 * Whether the 17-digit integer literal text[start, start + 17 + sign) (digits from `digits`, the
 * first not 0) would read as a number written with other digits, mostly without building a
 * string. The digits are hi·10^8 + lo, hi and lo exact, and the sum is rounded once, as reading
 * the literal rounds it (hi·10^8 is exact too): the number D. A number is written with the
 * fewest significant digits that read as it, the closest to it among those. When D is another
 * integer and the literal ends in a digit other than 0, D's own digits are closer: changed. When
 * D is the literal, it is changed when one of the two nearest integers with fewer significant
 * digits than it (multiples of 10^(t+1), t its trailing zeros) reads as D too; one of 9
 * significant digits or fewer never is (those are 10^8 or more away, D's neighbours at most 16).
 * The rest (D another integer, the literal ending in 0) is read as a number to see.
 */
function changes17(text: string, start: number, digits: number): boolean {
	const hi = digitsValue(text, digits, digits + 9);
	const lo = digitsValue(text, digits + 9, digits + 17);
	const high = hi * 1e8;
	const read = high + lo;
	if (read - high !== lo) {
		if (lo % 10 !== 0) return true;
		const literal = text.slice(start, digits + 17);
		return String(Number(literal)) !== literal;
	}
	if (lo === 0) return false;
	let step = 10;
	while (lo % step === 0) step *= 10;
	const below = lo - (lo % step);
	const above = below + step;
	return high + below === read || (above === 1e8 ? (hi + 1) * 1e8 : high + above) === read;
}

/**
 * Whether the integer literal text[start, end) (a sign or not, then digits from `digits`) would
 * read as a number written with other digits. 15 digits always fit. 16 digits are below
 * 10^16 < 2^54, where every even integer is a number: they fit when even or not above 2^53 (told
 * by comparing the digits, nothing built). 17 digits: changes17. A number's shortest form has
 * at most 17 significant digits, so a literal with more (trailing zeros aside) is never kept;
 * past 21 digits a number is written with an exponent. Only the rest (18 to 21 digits, most of
 * them zeros) is read as a number to see. A leading zero is not JSON: never a long integer
 * (JSON.parse refuses it).
 */
function isLong(text: string, start: number, digits: number, end: number): boolean {
	const count = end - digits;
	if (count <= 15 || text.charCodeAt(digits) === ZERO) return false;
	if (count === 16) {
		if ((text.charCodeAt(end - 1) - ZERO) % 2 === 0) return false;
		for (let i = 0; i < 16; i++) {
			const difference = text.charCodeAt(digits + i) - EXACT_LIMIT.charCodeAt(i);
			if (difference !== 0) return difference > 0;
		}
		return false;
	}
	if (count === 17) return changes17(text, start, digits);
	if (count > 21) return true;
	let significant = end;
	while (text.charCodeAt(significant - 1) === ZERO) significant--;
	if (significant - digits > 17) return true;
	const literal = text.slice(start, end);
	return String(Number(literal)) !== literal;
}

/**
 * One pass over the text that refuses nesting deeper than `maxDepth` (JsonTooDeepError where
 * the level past it opens). With `findLongs` it stops at the first integer literal a number
 * cannot hold exactly and tells where that is (the lossless reader then bounds the nesting);
 * else, or when there is none, -1. Invalid text is left to the readers to refuse.
 */
function scan(text: string, maxDepth: number, findLongs: boolean): number {
	let depth = 0;
	const length = text.length;
	for (let at = 0; at < length; at++) {
		const code = text.charCodeAt(at);
		// Whitespace and commas first, in one comparison (with the quote, 0x22, below 0x2c).
		if (code <= COMMA && code !== QUOTE) continue;
		if (code === QUOTE) {
			at = stringEnd(text, at);
		} else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
			if (++depth > maxDepth) throw new JsonTooDeepError(maxDepth, at);
		} else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
			if (depth > 0) depth--;
		} else if (findLongs && (code === MINUS || (code >= ZERO && code <= NINE))) {
			// A number literal with 16 digits or more (the 16th is a digit: else it is shorter,
			// and its other digits are each passed over here): an integer unless a fraction or an
			// exponent follows its digits.
			const digits = code === MINUS ? at + 1 : at;
			const sixteenth = text.charCodeAt(digits + 15);
			if (sixteenth < ZERO || sixteenth > NINE) continue;
			const end = digitsEnd(text, digits);
			const next = text.charCodeAt(end);
			if (
				end - digits > 15 &&
				next !== DOT &&
				next !== LOWER_E &&
				next !== UPPER_E &&
				isLong(text, at, digits, end)
			) {
				firstLongEnd = end;
				return at;
			}
			at = end - 1;
		}
	}
	return -1;
}

/** Where the long integer literal scan stopped at ends (its digits are not looked at again). */
let firstLongEnd = -1;

/** Thrown inside the lossless reader at the first thing that is not JSON. */
const NOT_JSON = new Error('not JSON');

/**
 * The lossless reader's text, its bound on nesting, and where it is: each read… function reads
 * what starts at the position it is given and leaves `at` just after it.
 */
let source = '';
let depthLimit = MAX_JSON_DEPTH;
let at = 0;
/** The long integer literal scan found: it is one, and where it ends (-1 once read). */
let knownLongStart = -1;

/** Where the whitespace from `from` ends (nearly always no whitespace: one comparison). */
function spaceEnd(from: number): number {
	const text = source;
	let position = from;
	let code = text.charCodeAt(position);
	if (code > SPACE) return position;
	while (code === SPACE || code === LINE_FEED || code === CARRIAGE_RETURN || code === TAB)
		code = text.charCodeAt(++position);
	return position;
}

function readString(open: number): string {
	const text = source;
	const length = text.length;
	let escaped = false;
	for (let end = open + 1; end < length; end++) {
		const code = text.charCodeAt(end);
		if (code === QUOTE) {
			at = end + 1;
			// With escapes JSON.parse decodes (and checks) them; without, the text is the string.
			return escaped
				? (JSON.parse(text.slice(open, end + 1)) as string)
				: text.slice(open + 1, end);
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

/** A number literal: a number, or a LongInteger where a number would change its digits. */
function readNumber(start: number): number | LongInteger {
	const text = source;
	if (start === knownLongStart) {
		knownLongStart = -1;
		at = firstLongEnd;
		return new LongInteger(text.slice(start, at));
	}
	const digits = text.charCodeAt(start) === MINUS ? start + 1 : start;
	// A leading zero stands alone (a digit after it is refused after the literal).
	const end = text.charCodeAt(digits) === ZERO ? digits + 1 : digitsEnd(text, digits);
	if (end === digits) throw NOT_JSON;
	let position = end;
	let code = text.charCodeAt(position);
	if (code !== DOT && code !== LOWER_E && code !== UPPER_E) {
		at = end;
		const count = end - digits;
		if (count > 15 && isLong(text, start, digits, end))
			return new LongInteger(text.slice(start, end));
		// Summed without building a string: exact up to 15 digits; 16 digits rounded once at the
		// last step, 17 as hi·10^8 + lo (see changes17), as reading the literal rounds them.
		const value =
			count <= 16
				? digitsValue(text, digits, end)
				: count === 17
					? digitsValue(text, digits, digits + 9) * 1e8 + digitsValue(text, digits + 9, end)
					: Number(text.slice(digits, end));
		return digits === start ? value : -value;
	}
	if (code === DOT) {
		const fraction = position + 1;
		position = digitsEnd(text, fraction);
		if (position === fraction) throw NOT_JSON;
		code = text.charCodeAt(position);
	}
	if (code === LOWER_E || code === UPPER_E) {
		code = text.charCodeAt(++position);
		if (code === PLUS || code === MINUS) position++;
		const exponent = position;
		position = digitsEnd(text, exponent);
		if (position === exponent) throw NOT_JSON;
	}
	at = position;
	return Number(text.slice(start, position));
}

/** The word `word` at `start`, as `value`. */
function readWord<T>(start: number, word: string, value: T): T {
	if (!source.startsWith(word, start)) throw NOT_JSON;
	at = start + word.length;
	return value;
}

/** The value at `start` (no space before it), inside `depth` levels. */
function readValue(start: number, depth: number): unknown {
	const code = source.charCodeAt(start);
	if (code === QUOTE) return readString(start);
	if (code === OPEN_BRACE) return readObject(start, depth + 1);
	if (code === OPEN_BRACKET) return readList(start, depth + 1);
	if (code === MINUS || (code >= ZERO && code <= NINE)) return readNumber(start);
	if (code === 0x74) return readWord(start, 'true', true);
	if (code === 0x66) return readWord(start, 'false', false);
	if (code === 0x6e) return readWord(start, 'null', null);
	throw NOT_JSON;
}

/** The list opened at `open`, at nesting level `depth`. */
function readList(open: number, depth: number): unknown[] {
	if (depth > depthLimit) throw new JsonTooDeepError(depthLimit, open);
	const text = source;
	const list: unknown[] = [];
	let position = spaceEnd(open + 1);
	if (text.charCodeAt(position) === CLOSE_BRACKET) {
		at = position + 1;
		return list;
	}
	for (;;) {
		list.push(readValue(position, depth));
		position = spaceEnd(at);
		const code = text.charCodeAt(position);
		if (code === CLOSE_BRACKET) {
			at = position + 1;
			return list;
		}
		if (code !== COMMA) throw NOT_JSON;
		position = spaceEnd(position + 1);
	}
}

/** The object opened at `open`, at nesting level `depth`. */
function readObject(open: number, depth: number): Record<string, unknown> {
	if (depth > depthLimit) throw new JsonTooDeepError(depthLimit, open);
	const text = source;
	const object: Record<string, unknown> = {};
	let position = spaceEnd(open + 1);
	if (text.charCodeAt(position) === CLOSE_BRACE) {
		at = position + 1;
		return object;
	}
	for (;;) {
		if (text.charCodeAt(position) !== QUOTE) throw NOT_JSON;
		const key = readString(position);
		position = spaceEnd(at);
		if (text.charCodeAt(position) !== COLON) throw NOT_JSON;
		const value = readValue(spaceEnd(position + 1), depth);
		// A member of the object, as JSON.parse makes it (an assignment would set the prototype).
		if (key === '__proto__')
			Object.defineProperty(object, key, {
				value,
				writable: true,
				enumerable: true,
				configurable: true,
			});
		else object[key] = value;
		position = spaceEnd(at);
		const code = text.charCodeAt(position);
		if (code === CLOSE_BRACE) {
			at = position + 1;
			return object;
		}
		if (code !== COMMA) throw NOT_JSON;
		position = spaceEnd(position + 1);
	}
}

/**
 * The lossless reader, for text that holds a long integer: the value JSON.parse would give, but
 * for LongIntegers; nothing past `maxDepth` levels is built. Text it refuses is refused as
 * parseJson refuses it: too deep anywhere, else with JSON.parse's message.
 */
function readLossless(text: string, maxDepth: number, firstLong: number): unknown {
	source = text;
	knownLongStart = firstLong;
	depthLimit = maxDepth;
	try {
		const value = readValue(spaceEnd(0), 0);
		if (spaceEnd(at) === text.length) return value;
	} catch {
		// Too deep, or not JSON (NOT_JSON, JSON.parse refusing a string's escapes): parseJson
		// says which, as it says it for any text (its scan finds the same level past the bound).
	} finally {
		source = '';
		knownLongStart = -1;
	}
	parseJson(text, maxDepth);
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
	const firstLong = scan(text, maxDepth, true);
	return firstLong < 0 ? (JSON.parse(text) as unknown) : readLossless(text, maxDepth, firstLong);
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
