/**
 * The node's one reader of JSON text, for answers, JSON parameters and trigger bodies: time
 * linear in the text whatever it holds, no deeper than MAX_JSON_DEPTH, and (where asked)
 * lossless. The contract types ids as long (64 bits), but a JavaScript number rounds integers
 * above 2^53 (9007199254740993 becomes …992), so a rule list read and saved back through
 * JSON.parse/JSON.stringify would change ids the node never meant to touch. A lossless read keeps
 * an integer literal that a number cannot hold exactly as a LongInteger (its digits), an object
 * JSON cannot produce (it is branded with a symbol): no string of the data, whatever it holds, is
 * ever taken for a number. stringifyLossless writes a LongInteger back as the same digits; plainCopy makes it its digits
 * as a plain string for an output item.
 *
 * How: one pass over the text (each character looked at a bounded number of times; a string
 * passed over with indexOf) counts the nesting and stops at the first long integer literal.
 * Without one (nearly every text) JSON.parse reads the text; with one, the node's own reader
 * reads it in a second pass that bounds the nesting itself, as strictly as JSON.parse (a text it
 * refuses is handed to parseJson, for the same error any text gets). No regular expression runs
 * over the text.
 */
import { NOT_READ, readLossless } from './json-lossless';
import { JsonTooDeepError, MAX_JSON_DEPTH, scan } from './json-scan';

export {
	digitsOf,
	idText,
	isLongInteger,
	longInteger,
	plainCopy,
	stringifyLossless,
	type LongInteger,
} from './json-long';
export { JsonTooDeepError, MAX_JSON_DEPTH } from './json-scan';

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
	if (firstLong < 0) return JSON.parse(text) as unknown;
	const value = readLossless(text, maxDepth, firstLong);
	if (value !== NOT_READ) return value;
	parseJson(text, maxDepth);
	// JSON.parse read what the lossless reader refused: a fault of that reader, never a value
	// built without its long integers.
	throw new SyntaxError('The JSON text could not be read exactly');
}

/**
 * As parseLossless, but an integer literal past 2^53 - 1 comes as its digits, a string (its sign
 * and digits as written), whether a number would round it or not: the form of a long id in an
 * output item (docs/api.md, "Ids"), for answers and bodies that are read and output, never
 * written back. An id is a number up to 2^53 - 1 and its digits above, whatever its value.
 */
export function parseExact(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
	const firstLong = scan(text, maxDepth, true, true);
	if (firstLong < 0) return JSON.parse(text) as unknown;
	const value = readLossless(text, maxDepth, firstLong, true);
	if (value !== NOT_READ) return value;
	parseJson(text, maxDepth);
	throw new SyntaxError('The JSON text could not be read exactly');
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
