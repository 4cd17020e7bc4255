/**
 * Long integers of a lossless read (see json.ts): the value, how it is written back, compared
 * and put in an output item.
 */
/** The integer the digits text[from, to) write, or -1 where one is not a digit (to - from ≤ 9). */
function partOf(text: string, from: number, to: number): number {
	let value = 0;
	for (let at = from; at < to; at++) {
		const digit = text.charCodeAt(at) - 0x30;
		if (digit < 0 || digit > 9) return -1;
		value = value * 10 + digit;
	}
	return value;
}

/** A part after the leading one, written with its nine digits. */
const nine = (part: number) => String(part).padStart(9, '0');

/** The brand of a LongInteger: a symbol of this module's, held by no JSON text and no other code. */
const LONG: unique symbol = Symbol('n8n-nodes-knolyx long integer');

/**
 * An integer literal of a lossless read that a number cannot hold exactly (more than 2^53, or
 * digits a number would write otherwise): its digits as they were written, with their sign. Only
 * the lossless reader makes one (longInteger, longFromParts). It carries a property keyed by a
 * symbol of this module's (isLongInteger checks it): JSON text has no symbol keys, so no object
 * of the data, whatever it holds, is taken for one, nor is a string that looks like a number.
 * An output item never holds one (plainCopy); JSON.stringify writes its digits as a string, and
 * stringifyLossless as the number literal it was.
 *
 * A literal of 16 to 27 digits (every 64-bit id) is held in three small integers, nine digits
 * each from the right (`low`, `middle`, `high`: 0 for 18 digits or fewer), the leading part
 * carrying the sign: one object a literal and no string, where the string of its digits was a
 * second object (a slice that also kept the whole text alive). Any other literal (longer, or not
 * written as JSON writes an integer) is kept whole in `high`, `middle` and `low` 0. Equal
 * literals give equal fields, so two LongIntegers are deep-equal exactly when their digits are.
 *
 * A plain object made at one object literal (make) rather than an instance of a class: a large
 * read makes hundreds of thousands of them, and V8 places what one literal makes straight in the
 * old generation once it sees that they live on (allocation-site pretenuring), where it copies
 * each instance of a class out of the young generation twice. On 800 000 long integers (16 MiB),
 * the reader took 1.6-1.8x JSON.parse's CPU time this way against 2.3-2.9x with a class
 * (2026-11-29, an idle machine, medians of 5).
 */
export interface LongInteger {
	readonly high: number | string;
	readonly middle: number;
	readonly low: number;
	/** JSON.stringify writes its digits, as a string (stringifyLossless: as the literal). */
	toJSON(): string;
	/** Its digits. */
	toString(): string;
	readonly [LONG]: true;
}

/** Whether `value` is a LongInteger the lossless reader made. */
export function isLongInteger(value: unknown): value is LongInteger {
	return (
		typeof value === 'object' && value !== null && (value as { [LONG]?: unknown })[LONG] === true
	);
}

/** The literal as it was written: its sign and digits. */
export function digitsOf(long: LongInteger): string {
	const { high, middle, low } = long;
	if (typeof high === 'string') return high;
	return high === 0 ? `${middle}${nine(low)}` : `${high}${nine(middle)}${nine(low)}`;
}

function longToJSON(this: LongInteger): string {
	if (writing === undefined) return digitsOf(this);
	writing.count++;
	return writing.mark + digitsOf(this);
}

function longToString(this: LongInteger): string {
	return digitsOf(this);
}

/** Every LongInteger is made here: one object literal, one shape. */
function make(high: number | string, middle: number, low: number): LongInteger {
	return { high, middle, low, toJSON: longToJSON, toString: longToString, [LONG]: true };
}

/**
 * The LongInteger of the literal text[start, end) of 16 to 27 digits (the first not 0, a sign
 * before them or not), from its parts of nine digits from the right, which the lossless reader
 * has just summed: they are not read again.
 */
export function longFromParts(
	text: string,
	start: number,
	high: number,
	middle: number,
	low: number,
): LongInteger {
	if (text.charCodeAt(start) !== 0x2d) return make(high, middle, low);
	return high === 0 ? make(0, -middle, low) : make(-high, middle, low);
}

/** The LongInteger of the literal `literal`, or of the part [start, end) of a text. */
export function longInteger(literal: string, start = 0, end = literal.length): LongInteger {
	const digits = literal.charCodeAt(start) === 0x2d ? start + 1 : start;
	const count = end - digits;
	if (count >= 16 && count <= 27 && literal.charCodeAt(digits) !== 0x30) {
		const high = partOf(literal, digits, end - 18);
		const middle = partOf(literal, Math.max(digits, end - 18), end - 9);
		const low = partOf(literal, end - 9, end);
		if (high >= 0 && middle >= 0 && low >= 0)
			return longFromParts(literal, start, high, middle, low);
	}
	return make(literal.slice(start, end), 0, 0);
}

/** Inside stringifyLossless: the mark of this write, and how many LongIntegers wrote it. */
let writing: { mark: string; count: number } | undefined;

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
	if (isLongInteger(value)) return digitsOf(value);
	return String(value);
}

/** A copy fit for an output item: long integers become their digits as a plain string. */
export function plainCopy<T>(value: T): T {
	if (isLongInteger(value)) return digitsOf(value) as T;
	if (Array.isArray(value)) return value.map(plainCopy) as T;
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, plainCopy(entry)]),
		) as T;
	}
	return value;
}
