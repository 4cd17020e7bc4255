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

/**
 * An integer literal of a lossless read that a number cannot hold exactly (more than 2^53, or
 * digits a number would write otherwise): its digits as they were written, with their sign. Only
 * the lossless reader makes one. It is an object of its own class, which JSON text cannot
 * produce, so a string of the data that looks like a number is never taken for one. An output
 * item never holds one (plainCopy); JSON.stringify writes its digits as a string, and
 * stringifyLossless as the number literal it was.
 *
 * A literal of 16 to 27 digits (every 64-bit id) is held in three small integers inside the
 * object, nine digits each from the right (`low`, `middle`, `high`: 0 for 18 digits or fewer),
 * the leading part carrying the sign: one object of 48 bytes a literal and no string, where the
 * string of its digits was a second object (a slice that also kept the whole text alive). A large
 * read makes hundreds of thousands of them, and V8 copies each out of the young generation twice.
 * `digits` writes the literal again from them. Any other literal (longer, or not written as JSON
 * writes an integer) is kept whole in `high`, `middle` and `low` 0. Equal literals give equal
 * fields, so two LongIntegers are deep-equal exactly when their digits are.
 */
export class LongInteger {
	readonly high: number | string;
	readonly middle: number;
	readonly low: number;

	/**
	 * The literal `literal`, or the part [start, end) of a text (nothing of it is copied). The
	 * lossless reader, which has just summed the digits of a literal of 16 to 27 digits (the first
	 * not 0), passes its three parts too (`parts`: 1), so that they are not read again.
	 */
	constructor(
		literal: string,
		start = 0,
		end = literal.length,
		parts = 0,
		high = 0,
		middle = 0,
		low = 0,
	) {
		const negative = literal.charCodeAt(start) === 0x2d;
		const digits = negative ? start + 1 : start;
		const count = end - digits;
		const sign = negative ? -1 : 1;
		if (parts === 0 && count >= 16 && count <= 27 && literal.charCodeAt(digits) !== 0x30) {
			high = partOf(literal, digits, end - 18);
			middle = partOf(literal, Math.max(digits, end - 18), end - 9);
			low = partOf(literal, end - 9, end);
			parts = high >= 0 && middle >= 0 && low >= 0 ? 1 : 0;
		}
		if (parts === 1) {
			this.high = high === 0 ? 0 : high * sign;
			this.middle = high === 0 ? middle * sign : middle;
			this.low = low;
			return;
		}
		this.high = literal.slice(start, end);
		this.middle = 0;
		this.low = 0;
	}

	/** The literal as it was written: its sign and digits. */
	get digits(): string {
		const { high, middle, low } = this;
		if (typeof high === 'string') return high;
		return high === 0 ? `${middle}${nine(low)}` : `${high}${nine(middle)}${nine(low)}`;
	}

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
