/**
 * The JSON reader's second pass (see json.ts), for text that holds a long integer literal: the
 * value JSON.parse would give, but with a LongInteger for each integer a number cannot hold.
 */
import { longFromParts, longInteger, type LongInteger } from './json-long';
import {
	BACKSLASH,
	CARRIAGE_RETURN,
	CLOSE_BRACE,
	CLOSE_BRACKET,
	COLON,
	COMMA,
	DOT,
	JsonTooDeepError,
	LINE_FEED,
	LOWER_E,
	MAX_JSON_DEPTH,
	MINUS,
	NINE,
	OPEN_BRACE,
	OPEN_BRACKET,
	PLUS,
	QUOTE,
	SPACE,
	TAB,
	UPPER_E,
	ZERO,
	beyondSafe,
	changes17,
	digitsEnd,
	isLong,
	lastLongEnd,
} from './json-scan';

/** What readLossless gives for text it refuses: parseJson then says why. */
export const NOT_READ: unique symbol = Symbol('not read');

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
/**
 * Whether an integer literal past 2^53 - 1 is read as its digits (a string) rather than a number
 * or a LongInteger (parseExact).
 */
let longAsDigits = false;

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

/**
 * The LongInteger of the literal text[start, end) of `count` digits (16 to 27, the first not 0),
 * from the sums of its digits in parts of nine from the left (a: the first nine, b: the next
 * nine or fewer, c: the rest): its parts of nine from the right, as LongInteger holds them.
 */
function longOf(
	text: string,
	start: number,
	end: number,
	count: number,
	a: number,
	b: number,
	c: number,
): LongInteger {
	if (count <= 18) {
		// b holds the last count - 9 digits; the first 18 - count of a's nine are the middle part.
		const shift = POWERS[count - 9];
		const split = POWERS[18 - count];
		return longFromParts(text, start, 0, Math.floor(a / split), (a % split) * shift + b);
	}
	// c holds the last count - 18 digits.
	const shift = POWERS[count - 18];
	const split = POWERS[27 - count];
	return longFromParts(
		text,
		start,
		Math.floor(a / split),
		(a % split) * shift + Math.floor(b / split),
		(b % split) * shift + c,
	);
}

/** 10^k for k = 0 … 9. */
const POWERS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/**
 * A number literal: a number, or where a number would change its digits a LongInteger (or, when
 * longAsDigits, the literal's text: an integer literal of JSON is its sign and digits).
 */
function readNumber(start: number): number | LongInteger | string {
	const text = source;
	if (start === knownLongStart) {
		knownLongStart = -1;
		at = lastLongEnd();
		return longAsDigits ? text.slice(start, at) : longInteger(text, start, at);
	}
	const digits = text.charCodeAt(start) === MINUS ? start + 1 : start;
	// The digits are read once, summed as they pass in parts of nine from the left (a, b, c):
	// each number's value and each long integer's parts come from the sums. A leading zero stands
	// alone (a digit after it is refused after the literal).
	let end = digits;
	let code = text.charCodeAt(end);
	let a = 0;
	let b = 0;
	let c = 0;
	if (code === ZERO) {
		code = text.charCodeAt(++end);
	} else {
		for (const stop = digits + 9; end < stop && code >= ZERO && code <= NINE; ) {
			a = a * 10 + (code - ZERO);
			code = text.charCodeAt(++end);
		}
		for (const stop = digits + 18; end < stop && code >= ZERO && code <= NINE; ) {
			b = b * 10 + (code - ZERO);
			code = text.charCodeAt(++end);
		}
		for (const stop = digits + 27; end < stop && code >= ZERO && code <= NINE; ) {
			c = c * 10 + (code - ZERO);
			code = text.charCodeAt(++end);
		}
		if (code >= ZERO && code <= NINE) {
			end = digitsEnd(text, end);
			code = text.charCodeAt(end);
		}
	}
	if (end === digits) throw NOT_JSON;
	let position = end;
	if (code !== DOT && code !== LOWER_E && code !== UPPER_E) {
		at = end;
		const count = end - digits;
		if (longAsDigits) {
			if (count > 15 && beyondSafe(text, digits, end)) return text.slice(start, end);
		} else if (
			count > 15 &&
			(count === 17 ? changes17(text, start, digits, a, b) : isLong(text, start, digits, end))
		) {
			return count <= 27 ? longOf(text, start, end, count, a, b, c) : longInteger(text, start, end);
		}
		// Exact up to 15 digits; 16 digits rounded once at the last step, 17 as a·10^8 + b (see
		// changes17), as reading the literal rounds them.
		const value =
			count <= 9 ? a : count <= 17 ? a * POWERS[count - 9] + b : Number(text.slice(digits, end));
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

/**
 * A list is built in parts of this many values, joined when it closes: a list of hundreds of
 * thousands of values grown one push at a time is copied each time its store grows, the large
 * stores then filling the old generation; parts are copied once, into a store of the list's size.
 */
const LIST_PART = 8192;

/** The list opened at `open`, at nesting level `depth`. */
function readList(open: number, depth: number): unknown[] {
	if (depth > depthLimit) throw new JsonTooDeepError(depthLimit, open);
	const text = source;
	let list: unknown[] = [];
	let parts: unknown[][] | undefined;
	let position = spaceEnd(open + 1);
	if (text.charCodeAt(position) === CLOSE_BRACKET) {
		at = position + 1;
		return list;
	}
	for (;;) {
		list.push(readValue(position, depth));
		if (list.length === LIST_PART) {
			(parts ??= []).push(list);
			list = [];
		}
		position = spaceEnd(at);
		const code = text.charCodeAt(position);
		if (code === CLOSE_BRACKET) {
			at = position + 1;
			if (parts === undefined) return list;
			parts.push(list);
			return ([] as unknown[]).concat(...parts);
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
export function readLossless(
	text: string,
	maxDepth: number,
	firstLong: number,
	digits = false,
): unknown {
	source = text;
	knownLongStart = firstLong;
	longAsDigits = digits;
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
		longAsDigits = false;
	}
	return NOT_READ;
}
