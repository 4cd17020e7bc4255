/**
 * Long integers of a lossless read (see json.ts): the value, how it is written back, compared
 * and put in an output item.
 */
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
