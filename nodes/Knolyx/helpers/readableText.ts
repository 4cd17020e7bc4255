/**
 * Text from an answer fit for a message, in bounded work whatever the answer holds: only its
 * start is read (MAX_TEXT_READ), in one pass, without a regular expression (docs/reliability.md,
 * "Regular expressions: the rule").
 */

/** The most of the platform's own text an error message carries. */
const MAX_MESSAGE_LENGTH = 300;

/**
 * The most of an answer's text an error reads (UTF-16 units): the text is cut to this before it
 * is looked at, so a web page or a message of megabytes costs no more than this.
 */
export const MAX_TEXT_READ = 8192;

/** Entities an error page uses for what it shows; any other is left as written. */
const ENTITIES: ReadonlyArray<[string, string]> = [
	['&nbsp;', ' '],
	['&amp;', '&'],
	['&lt;', '‹'],
	['&gt;', '›'],
	['&quot;', '"'],
	['&#39;', "'"],
];

/** Elements whose content is no text: skipped up to their closing tag. */
const HIDDEN_ELEMENTS = ['script', 'style'];

/** Whether a character (its UTF-16 unit) separates words: white space, a control, an invisible format mark. */
function isBlank(code: number): boolean {
	return (
		code <= 0x20 ||
		(code >= 0x7f && code <= 0xa0) ||
		code === 0x1680 ||
		(code >= 0x2000 && code <= 0x200f) ||
		(code >= 0x2028 && code <= 0x202f) ||
		code === 0x205f ||
		(code >= 0x2066 && code <= 0x2069) ||
		code === 0x3000 ||
		code === 0xfeff
	);
}

const isAsciiLetter = (code: number) =>
	(code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);

/** `text` cut to at most `length` UTF-16 units, never inside a surrogate pair. */
export function cutOnCodePoint(text: string, length: number): string {
	if (text.length <= length) return text;
	const last = text.charCodeAt(length - 1);
	return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/**
 * Platform text fit for a message: markup, comments, scripts and styles out, a few entities read,
 * controls and invisible formatting marks as spaces, spaces folded, capped at MAX_MESSAGE_LENGTH.
 * Bounded work whatever the text: it is cut to MAX_TEXT_READ first, then read in one pass (each
 * search for a closing `>`, `-->` or `</script` starts where the last one ended, so no character
 * is looked at more than a few times), without a regular expression; reading stops once the
 * message is full.
 */
export function readableText(text: string): string {
	const head = cutOnCodePoint(text, MAX_TEXT_READ);
	// Tag names are compared in ASCII lower case; the copy has the same length and positions.
	const lower = head.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
	const out: string[] = [];
	let length = 0;
	let pendingSpace = false;
	/** Where the next `>` is (searched again only once passed); -1: none after `nextCloseFrom`. */
	let nextClose = -2;
	const closeAfter = (from: number): number => {
		if (nextClose === -1 || (nextClose >= from && nextClose !== -2)) return nextClose;
		nextClose = head.indexOf('>', from);
		return nextClose;
	};
	const emit = (piece: string) => {
		if (pendingSpace && length > 0) {
			out.push(' ');
			length += 1;
		}
		pendingSpace = false;
		out.push(piece);
		length += piece.length;
	};
	let at = 0;
	while (at < head.length && length <= MAX_MESSAGE_LENGTH) {
		const code = head.charCodeAt(at);
		if (code === 0x3c /* < */) {
			if (head.startsWith('<!--', at)) {
				const end = head.indexOf('-->', at + 4);
				// A comment never closed hides the rest.
				at = end === -1 ? head.length : end + 3;
				pendingSpace = true;
				continue;
			}
			const next = head.charCodeAt(at + 1);
			const isTag =
				isAsciiLetter(next) ||
				next === 0x21 /* ! */ ||
				(next === 0x2f /* / */ && isAsciiLetter(head.charCodeAt(at + 2)));
			const end = isTag ? closeAfter(at) : -1;
			if (end !== -1) {
				const hidden = HIDDEN_ELEMENTS.find(
					(name) =>
						lower.startsWith(name, at + 1) && !isAsciiLetter(head.charCodeAt(at + 1 + name.length)),
				);
				at = end + 1;
				if (hidden) {
					// Skipped up to its closing tag (and that tag), or to the end when it has none.
					const closing = lower.indexOf(`</${hidden}`, at);
					const closingEnd = closing === -1 ? -1 : closeAfter(closing);
					at = closingEnd === -1 ? head.length : closingEnd + 1;
				}
				pendingSpace = true;
				continue;
			}
		} else if (code === 0x26 /* & */) {
			const entity = ENTITIES.find(([name]) => head.startsWith(name, at));
			if (entity) {
				if (entity[1] === ' ') pendingSpace = true;
				else emit(entity[1]);
				at += entity[0].length;
				continue;
			}
		} else if (isBlank(code)) {
			pendingSpace = true;
			at += 1;
			continue;
		}
		// A run of ordinary characters, as one piece.
		let end = at + 1;
		while (end < head.length) {
			const following = head.charCodeAt(end);
			if (following === 0x3c || following === 0x26 || isBlank(following)) break;
			end += 1;
		}
		emit(head.slice(at, end));
		at = end;
	}
	const plain = out.join('');
	return plain.length > MAX_MESSAGE_LENGTH
		? `${cutOnCodePoint(plain, MAX_MESSAGE_LENGTH)}…`
		: plain;
}

/**
 * The start of a value written as JSON, about `room` characters of it: only as much of the value
 * is visited as that start shows (a list of a million entries costs no more than its first few).
 */
export function jsonStart(value: unknown, room: number): string {
	const parts: string[] = [];
	let left = room;
	const put = (text: string) => {
		parts.push(text);
		left -= text.length;
	};
	const write = (current: unknown): void => {
		if (left <= 0) return;
		if (typeof current === 'string') {
			put(JSON.stringify(cutOnCodePoint(current, left)));
		} else if (Array.isArray(current)) {
			put('[');
			for (let index = 0; index < current.length && left > 0; index++) {
				if (index > 0) put(',');
				write(current[index]);
			}
			put(']');
		} else if (current !== null && typeof current === 'object') {
			put('{');
			let first = true;
			for (const key in current) {
				if (left <= 0) break;
				if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
				if (!first) put(',');
				first = false;
				put(`${JSON.stringify(cutOnCodePoint(key, left))}:`);
				write((current as Record<string, unknown>)[key]);
			}
			put('}');
		} else {
			put(JSON.stringify(current) ?? String(current));
		}
	};
	write(value);
	return parts.join('');
}
