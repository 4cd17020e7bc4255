/**
 * The JSON reader's first pass (see json.ts): the nesting bound, and where the first integer
 * literal a number cannot hold exactly stands. Character codes and digit helpers the lossless
 * reader shares.
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

export const TAB = 0x09;
export const LINE_FEED = 0x0a;
export const CARRIAGE_RETURN = 0x0d;
export const SPACE = 0x20;
export const QUOTE = 0x22;
export const PLUS = 0x2b;
export const COMMA = 0x2c;
export const MINUS = 0x2d;
export const DOT = 0x2e;
export const ZERO = 0x30;
export const NINE = 0x39;
export const COLON = 0x3a;
export const UPPER_E = 0x45;
export const OPEN_BRACKET = 0x5b;
export const BACKSLASH = 0x5c;
export const CLOSE_BRACKET = 0x5d;
export const LOWER_E = 0x65;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;

/** 2^53 in digits: a 16-digit odd integer above it is no number. */
export const EXACT_LIMIT = '9007199254740992';

/**
 * Where the string literal opened at `open` ends (its closing quote), or the text's length when
 * it never ends. indexOf finds the first quote; when no backslash stands just before it (nearly
 * always) that is the end. Else the string is looked at again from its start, character by
 * character, a backslash passing over the one it escapes (two characters a step through a run
 * of escapes). Each character is looked at at most twice.
 */
export function stringEnd(text: string, open: number): number {
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
export function digitsEnd(text: string, at: number): number {
	let code = text.charCodeAt(at);
	while (code >= ZERO && code <= NINE) code = text.charCodeAt(++at);
	return at;
}

/** The integer the digits text[from, to) write (exact up to 15 digits). */
export function digitsValue(text: string, from: number, to: number): number {
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
 * The rest (D another integer, the literal ending in 0) is read as a number to see. hi and lo
 * come from the caller: the scan and the lossless reader sum them as they pass the digits.
 */
export function changes17(
	text: string,
	start: number,
	digits: number,
	hi: number,
	lo: number,
): boolean {
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
export function isLong(text: string, start: number, digits: number, end: number): boolean {
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
	if (count === 17) {
		const hi = digitsValue(text, digits, digits + 9);
		return changes17(text, start, digits, hi, digitsValue(text, digits + 9, digits + 17));
	}
	if (count > 21) return true;
	let significant = end;
	while (text.charCodeAt(significant - 1) === ZERO) significant--;
	if (significant - digits > 17) return true;
	const literal = text.slice(start, end);
	return String(Number(literal)) !== literal;
}

/** 2^53 - 1, the largest integer a number holds with every integer below it. */
const SAFE_LIMIT = '9007199254740991';

/**
 * Whether the integer literal of digits text[digits, end) is past 2^53 - 1 (whether a number
 * holds it or not): where an id's output form turns from a number to its digits (parseExact).
 * A leading zero is not JSON: never.
 */
export function beyondSafe(text: string, digits: number, end: number): boolean {
	const count = end - digits;
	if (count < 16 || text.charCodeAt(digits) === ZERO) return false;
	if (count > 16) return true;
	for (let i = 0; i < 16; i++) {
		const difference = text.charCodeAt(digits + i) - SAFE_LIMIT.charCodeAt(i);
		if (difference !== 0) return difference > 0;
	}
	return false;
}

/**
 * One pass over the text that refuses nesting deeper than `maxDepth` (JsonTooDeepError where
 * the level past it opens). With `findLongs` it stops at the first integer literal a number
 * cannot hold exactly and tells where that is (the lossless reader then bounds the nesting);
 * else, or when there is none, -1. With `unsafe` too, it stops at the first integer literal past
 * 2^53 - 1 instead (beyondSafe). Invalid text is left to the readers to refuse.
 */
export function scan(text: string, maxDepth: number, findLongs: boolean, unsafe = false): number {
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
			// Where exactly 17 digits may stand (a digit 17th, none 18th), they are summed as they
			// are passed (hi: 9, lo: 8), so that changes17 need not read them again (they were read
			// twice, a third of the scan's time on a list of them); other literals passed over.
			let end = digits;
			let hi = 0;
			let lo = 0;
			const seventeenth = text.charCodeAt(digits + 16);
			const eighteenth = text.charCodeAt(digits + 17);
			if (
				seventeenth >= ZERO &&
				seventeenth <= NINE &&
				!(eighteenth >= ZERO && eighteenth <= NINE)
			) {
				let digit = text.charCodeAt(end) - ZERO;
				for (const stop = digits + 9; end < stop && digit >= 0 && digit <= 9; ) {
					hi = (hi * 10 + digit) | 0;
					digit = text.charCodeAt(++end) - ZERO;
				}
				for (const stop = digits + 17; end < stop && digit >= 0 && digit <= 9; ) {
					lo = (lo * 10 + digit) | 0;
					digit = text.charCodeAt(++end) - ZERO;
				}
			}
			end = digitsEnd(text, end);
			const count = end - digits;
			const next = text.charCodeAt(end);
			if (
				count > 15 &&
				next !== DOT &&
				next !== LOWER_E &&
				next !== UPPER_E &&
				// 17 digits from the sums; with a leading 0 (not JSON) isLong says no, as for any.
				(unsafe
					? beyondSafe(text, digits, end)
					: count === 17 && text.charCodeAt(digits) !== ZERO
						? changes17(text, at, digits, hi, lo)
						: isLong(text, at, digits, end))
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

/** Where the long integer literal the last scan stopped at ends. */
export function lastLongEnd(): number {
	return firstLongEnd;
}
