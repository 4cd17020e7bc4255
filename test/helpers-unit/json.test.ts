/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * helpers/json.ts: the node's one JSON reader. Linear in its input whatever the input (timed in a
 * worker thread that is stopped at the bound, so a reader that backtracks fails the test instead
 * of holding it for hours), the same values as JSON.parse on random documents, integers above
 * 2^53 exact there and back, no deeper than MAX_JSON_DEPTH, and invalid text refused with
 * JSON.parse's own message.
 */
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';

import {
	idText,
	JsonTooDeepError,
	digitsOf,
	isLongInteger,
	longInteger,
	type LongInteger,
	MAX_JSON_DEPTH,
	nestingDepth,
	parseExact,
	parseJson,
	parseLossless,
	plainCopy,
	readJsonParameter,
	stringifyLossless,
} from '../../nodes/Knolyx/helpers/json';
import { JSON_PATTERNS } from '../../bench/json-patterns';

const MODULE = join(__dirname, '../../nodes/Knolyx/helpers/json.ts');
const MiB = 1024 * 1024;

/**
 * Reads every pattern at `size` in a worker thread (the module as the node has it, through
 * ts-node): each read's milliseconds, or `undefined` for the reads not finished when the worker
 * was stopped after `boundMs` in all.
 */
async function timeInWorker(size: number, boundMs: number): Promise<Record<string, number>> {
	const source = `
		const { parentPort, workerData } = require('node:worker_threads');
		require('ts-node').register({ transpileOnly: true, compilerOptions: { module: 'commonjs', moduleResolution: 'node' } });
		const { parseLossless, stringifyLossless } = require(workerData.module);
		const patterns = new Map(workerData.patterns);
		for (const [name, text] of patterns) {
			const started = performance.now();
			let value;
			try { value = parseLossless(text); } catch {}
			if (value !== undefined) stringifyLossless(value);
			parentPort.postMessage([name, performance.now() - started]);
		}
	`;
	const patterns = JSON_PATTERNS.map(({ name, make }) => [name, make(size)]);
	const times: Record<string, number> = {};
	const worker = new Worker(source, { eval: true, workerData: { module: MODULE, patterns } });
	await new Promise<void>((resolve, reject) => {
		const timer = setTimeout(() => void worker.terminate().then(() => resolve()), boundMs);
		worker.on('message', ([name, ms]: [string, number]) => {
			times[name] = ms;
			if (Object.keys(times).length === patterns.length) {
				clearTimeout(timer);
				void worker.terminate().then(() => resolve());
			}
		});
		worker.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
	});
	return times;
}

describe('time linear in the input', () => {
	// A guard against a reader that backtracks or is quadratic, not a speed target (those are in
	// bench/, row json): 4 MiB of each pattern read within 30 s on a loaded machine (about 5 s at
	// worst, nesting, where JSON.parse itself takes most), where "\ repeated 80 KB took 5 s and a
	// quadratic reader would take hours at 4 MiB.
	it('reads (and writes back) 4 MiB of each worst-case pattern within a generous bound', async () => {
		const times = await timeInWorker(4 * MiB, 150_000);
		const slow = JSON_PATTERNS.map(({ name }) => name).filter((name) => !(times[name] < 30_000));
		expect(
			slow.map(
				(name) =>
					`${name}: ${times[name] === undefined ? 'not finished' : `${Math.round(times[name])} ms`}`,
			),
		).toEqual([]);
	}, 200_000);
});

/** JSON.parse's message for `text`, or undefined when it reads it. */
function parseError(text: string): string | undefined {
	try {
		JSON.parse(text);
		return undefined;
	} catch (error) {
		return (error as Error).message;
	}
}

/** A JSON value whose integers may be long (bigint), for documents JSON.stringify cannot write. */
type Doc = null | boolean | number | string | bigint | Doc[] | { [key: string]: Doc };

const docArbitrary: fc.Arbitrary<Doc> = fc.letrec<{ doc: Doc }>((tie) => ({
	doc: fc.oneof(
		{ depthSize: 'small', maxDepth: 6 },
		fc.constant(null),
		fc.boolean(),
		fc.double({ noNaN: true, noDefaultInfinity: true }),
		fc.integer(),
		fc.string({ unit: 'binary' }),
		fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
		fc.constantFrom(9007199254740993n, 12345678901234567890n, -9223372036854775808n, 2n ** 54n),
		fc.array(tie('doc'), { maxLength: 5 }),
		fc.dictionary(fc.string({ unit: 'binary' }), tie('doc'), { maxKeys: 5 }),
	) as fc.Arbitrary<Doc>,
})).doc;

/** JSON text of a document, long integers written as their digits, with optional whitespace. */
function write(doc: Doc, space: string): string {
	if (typeof doc === 'bigint') return doc.toString();
	if (Array.isArray(doc)) return `[${space}${doc.map((d) => write(d, space)).join(`,${space}`)}]`;
	if (doc !== null && typeof doc === 'object') {
		const members = Object.entries(doc).map(
			([key, value]) => `${JSON.stringify(key)}${space}:${space}${write(value, space)}`,
		);
		return `{${space}${members.join(`,${space}`)}${space}}`;
	}
	return JSON.stringify(doc);
}

/** What parseLossless must give for a document, as plainCopy shows it (long integers as their digits). */
function expected(doc: Doc): unknown {
	if (typeof doc === 'bigint') {
		const digits = doc.toString();
		return String(Number(digits)) === digits ? Number(digits) : digits;
	}
	if (Array.isArray(doc)) return doc.map(expected);
	if (doc !== null && typeof doc === 'object') {
		return Object.fromEntries(Object.entries(doc).map(([key, value]) => [key, expected(value)]));
	}
	// JSON.stringify writes -0 as 0.
	return Object.is(doc, -0) ? 0 : doc;
}

describe('the same values as JSON.parse', () => {
	it('on random valid documents (fast-check fc.json)', () => {
		fc.assert(
			fc.property(fc.json({ maxDepth: 8 }), (text) => {
				expect(parseJson(text)).toEqual(JSON.parse(text));
				expect(parseLossless(text)).toEqual(JSON.parse(text));
			}),
			{ numRuns: 500 },
		);
	});

	it('on random documents with long integers: exact digits, there and back', () => {
		fc.assert(
			fc.property(docArbitrary, fc.constantFrom('', ' ', '\n\t'), (doc, space) => {
				const text = write(doc, space);
				const read = parseLossless(text);
				expect(plainCopy(read)).toEqual(expected(doc));
				// Written back: the same document, long integers with the same digits.
				expect(stringifyLossless(read)).toBe(write(doc, ''));
			}),
			{ numRuns: 500 },
		);
	});

	it('refuses random invalid text with JSON.parse message (cut, or a character dropped)', () => {
		fc.assert(
			fc.property(docArbitrary, fc.nat(), fc.boolean(), (doc, at, cut) => {
				const whole = write(doc, '');
				const index = at % (whole.length + 1);
				const text = cut ? whole.slice(0, index) : whole.slice(0, index) + whole.slice(index + 1);
				const message = parseError(text);
				fc.pre(message !== undefined);
				expect(() => parseLossless(text)).toThrow(message);
				expect(() => parseJson(text)).toThrow(message);
			}),
			{ numRuns: 500 },
		);
	});
});

describe('the reader of text with long integers (not JSON.parse) agrees with JSON.parse', () => {
	const LONG = '12345678901234567890';
	const alphabet = fc.constantFrom(
		...' \t\n\r"\\/{}[]:,-+.0123456789eEtrufalsn\u0000\u001fxé'.split(''),
	);

	it('on random documents and on each with one character replaced: the same value or error', () => {
		fc.assert(
			fc.property(
				fc.json({ maxDepth: 6 }),
				fc.nat(),
				alphabet,
				fc.boolean(),
				(json, at, character, replace) => {
					const whole = `[${LONG}, ${json}]`;
					const index = LONG.length + 3 + (at % (json.length + 1));
					const text = replace ? whole.slice(0, index) + character + whole.slice(index + 1) : whole;
					const message = parseError(text);
					if (message !== undefined) {
						expect(() => parseLossless(text)).toThrow(message);
						return;
					}
					const read = parseLossless(text);
					// Values are compared where the rest holds no other integer of 16 digits or
					// more (a change may make one): JSON.parse would round it.
					if (/\d{16}/.test(text.slice(LONG.length + 2))) return;
					const expectedValue = JSON.parse(text) as unknown[];
					if (text.startsWith(`[${LONG},`)) expectedValue[0] = LONG;
					expect(plainCopy(read)).toEqual(expectedValue);
				},
			),
			{ numRuns: 1500 },
		);
	});

	it('every integer literal of 1 to 30 digits, either sign: a number where the number writes its digits, else a LongInteger of its digits', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 9 }),
				fc
					.integer({ min: 0, max: 29 })
					.chain((length) =>
						fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }),
					),
				fc.boolean(),
				(first, rest, negative) => {
					const literal = `${negative ? '-' : ''}${first}${rest.join('')}`;
					const [, read] = parseLossless(`[${LONG}, ${literal}]`) as unknown[];
					if (String(Number(literal)) === literal) expect(read).toBe(Number(literal));
					else {
						expect(isLongInteger(read)).toBe(true);
						expect(digitsOf(read as LongInteger)).toBe(literal);
						expect(read).toEqual(longInteger(literal));
					}
				},
			),
			{ numRuns: 3000 },
		);
	});

	it('a list of more values than the reader builds in one part (8192): every value, in order', () => {
		const count = 3 * 8192 + 5;
		const values = Array.from({ length: count }, (_, i) =>
			i % 3 === 0 ? `${9007199254740993n + BigInt(2 * i)}` : i % 3 === 1 ? `${i}` : `[${i}]`,
		);
		const read = parseLossless(`[${values.join(',')}]`) as unknown[];
		expect(read).toHaveLength(count);
		expect(plainCopy(read)).toEqual(
			values.map((v, i) => (i % 3 === 0 ? v : i % 3 === 1 ? i : [i])),
		);
	});

	it('too deep is refused where the level past the bound opens, before or after invalid text', () => {
		const deep = `${'['.repeat(33)}${']'.repeat(33)}`;
		for (const text of [`[${LONG},${deep}]`, `[${LONG},x,${deep}]`, `[${LONG},${deep},x]`]) {
			expect(() => parseLossless(text)).toThrow(JsonTooDeepError);
			expect(() => parseLossless(text)).toThrow(`(at position ${text.indexOf(deep) + 31})`);
		}
	});

	it('keys, __proto__ and repeated keys as JSON.parse makes them', () => {
		const text = `{"__proto__":{"a":1},"b":${LONG},"b":2,"1":3,"c":{"d":${LONG},"d":${LONG}1}}`;
		const read = parseLossless(text) as Record<string, unknown>;
		expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
		expect(Object.keys(read)).toEqual(Object.keys(JSON.parse(text) as object));
		expect(plainCopy(read)).toEqual({
			['__proto__']: { a: 1 },
			b: 2,
			1: 3,
			c: { d: `${LONG}1` },
		});
		expect(Object.hasOwn(read, '__proto__')).toBe(true);
	});
});

describe('long integers', () => {
	it.each([
		['9007199254740993', '9007199254740993'],
		['-9223372036854775808', '-9223372036854775808'],
		['12345678901234567890123456789', '12345678901234567890123456789'],
	])('%s is kept exactly, and written back as the same digits', (literal, digits) => {
		const text = `{"id":${literal},"ids":[1, ${literal} ,2],"n":{"deep":${literal}}}`;
		const read = parseLossless(text) as { id: unknown; ids: unknown[]; n: { deep: unknown } };
		expect(idText(read.id)).toBe(digits);
		expect(plainCopy(read)).toEqual({ id: digits, ids: [1, digits, 2], n: { deep: digits } });
		expect(stringifyLossless(read)).toBe(text.replace(/ /g, ''));
	});

	it.each([
		[
			'a number a double holds exactly (2^53, 2^54, 1e16)',
			'[9007199254740992,18014398509481984,10000000000000000]',
		],
		[
			'fractions and exponents',
			'[1.12345678901234567890,1e12345678901234567890,-0.5e-300,12345678901234567890e2]',
		],
		['a long literal inside a string', '["12345678901234567890","a\\"12345678901234567890"]'],
		['-0', '[-0]'],
	])('%s: as JSON.parse reads it', (_what, text) => {
		expect(parseLossless(text)).toEqual(JSON.parse(text));
	});

	it('16 to 21 digits: a number exactly when a number writes the same digits, else a LongInteger', () => {
		/** The definition: the literal read as a number and written back. */
		const changed = (literal: string) => String(Number(literal)) !== literal;
		const check = (digits: bigint) => {
			for (const literal of [digits.toString(), (-digits).toString()]) {
				const [read] = parseLossless(`[${literal}]`) as unknown[];
				if (changed(literal)) expect(read).toEqual(longInteger(literal));
				else expect(read).toBe(Number(literal));
			}
		};
		// Around every power of two where numbers stop holding every integer, and 10^16.
		for (let power = 53n; power <= 70n; power++)
			for (let offset = -40n; offset <= 40n; offset++) check(2n ** power + offset);
		for (let offset = -40n; offset <= 40n; offset++) check(10n ** 16n + offset);
		fc.assert(
			fc.property(
				fc.bigInt({ min: 10n ** 15n, max: 10n ** 21n - 1n }),
				fc.nat({ max: 17 }),
				fc.integer({ min: -9, max: 9 }),
				(digits, zeros, offset) => {
					check(digits);
					// Trailing zeros, and the integers next to them.
					const round = (digits / 10n ** BigInt(zeros)) * 10n ** BigInt(zeros);
					if (round >= 10n ** 15n) check(round + BigInt(offset));
				},
			),
			{ numRuns: 3000 },
		);
	});

	it.each([
		['a leading zero', '[012345678901234567890]'],
		['a leading zero, 17 digits', '[01234567890123456]'],
		['a leading zero, 17 digits with a sign', '[-09007199254740993]'],
		['a long literal as a key', '{12345678901234567890:1}'],
		['a long literal after a key', '{"a" 12345678901234567890}'],
		['a long literal followed by a letter', '[12345678901234567890x]'],
	])('%s is refused, as JSON.parse refuses it', (_what, text) => {
		expect(() => JSON.parse(text)).toThrow(SyntaxError);
		expect(() => parseLossless(text)).toThrow(SyntaxError);
	});

	it('in text with characters beyond ASCII (two bytes a character while marking)', () => {
		const text = '{"name":"Zoë ✓ 𝄞","id":12345678901234567891,"t":"ß"}';
		const read = parseLossless(text) as { name: string; id: unknown; t: string };
		expect(read.name).toBe('Zoë ✓ 𝄞');
		expect(idText(read.id)).toBe('12345678901234567891');
		expect(stringifyLossless(read)).toBe(text);
	});

	it('a long integer written by JSON.stringify is its digits as a string; by stringifyLossless, the literal', () => {
		const read = parseLossless('{"id":12345678901234567890}') as { id: unknown };
		expect(isLongInteger(read.id)).toBe(true);
		expect(JSON.stringify(read)).toBe('{"id":"12345678901234567890"}');
		expect(stringifyLossless(read)).toBe('{"id":12345678901234567890}');
		expect(stringifyLossless(read.id)).toBe('12345678901234567890');
	});
});

describe('parseExact: integers past 2^53 - 1 as their digits (issue 55, docs/api.md "Ids")', () => {
	it('every integer past 2^53 - 1 is its digits, whether a number would round it or not; the rest as JSON.parse', () => {
		expect(
			parseExact(
				'{"ids":[9007199254740991,9007199254740992,9007199254740993,-9007199254740993,9007199254740996,12345678901234567890,99999999999999999999999999999],"n":1.5e300,"s":"9007199254740993","x":[1e400,10000000000000002.5]}',
			),
		).toEqual({
			ids: [
				9007199254740991,
				'9007199254740992',
				'9007199254740993',
				'-9007199254740993',
				'9007199254740996',
				'12345678901234567890',
				'99999999999999999999999999999',
			],
			n: 1.5e300,
			s: '9007199254740993',
			x: [Infinity, Number('10000000000000002.5')],
		});
	});

	it("JSON.parse's values on random documents, but each integer past 2^53 - 1 written as digits is those digits", () => {
		// JSON.stringify writes an integer below 10^21 as its digits (String), above with an exponent.
		const digits = (_key: string, value: unknown) =>
			typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)
				? Math.abs(value) < 1e21
					? String(value)
					: value
				: value;
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				const text = JSON.stringify(value);
				expect(parseExact(text)).toEqual(JSON.parse(text, digits));
			}),
			{ numRuns: 300 },
		);
	});

	it('a long integer first, then another far on, both as digits; text that is not JSON refused as JSON.parse refuses it', () => {
		const text = `[9007199254740993,${'"a",'.repeat(1000)}18014398509481985]`;
		const read = parseExact(text) as unknown[];
		expect([read[0], read[1001]]).toEqual(['9007199254740993', '18014398509481985']);
		expect(() => parseExact('[9007199254740993,')).toThrow(SyntaxError);
		expect(() => parseExact(`${'['.repeat(MAX_JSON_DEPTH + 1)}9007199254740993`)).toThrow(
			JsonTooDeepError,
		);
	});
});

describe('what a long integer holds', () => {
	/** V8's collector, for measuring what stays reachable. */
	const collect = (() => {
		setFlagsFromString('--expose-gc');
		return runInNewContext('gc') as () => void;
	})();
	const heapUsed = () => {
		collect();
		return process.memoryUsage().heapUsed;
	};

	it('a long integer kept from a large text keeps nothing of the text alive', () => {
		// The reader made a long integer's digits a slice of the text, which V8 keeps as a view
		// of the whole text: one kept id held all 8 MiB of its answer.
		const readFirst = () =>
			(parseLossless(`[12345678901234567890,"${'x'.repeat(8 * MiB)}"]`) as unknown[])[0];
		const before = heapUsed();
		const kept = readFirst();
		const after = heapUsed();
		expect(idText(kept)).toBe('12345678901234567890');
		expect(after - before).toBeLessThan(MiB);
	});

	it.each([
		'9007199254740993',
		'-9007199254740993',
		'12345678901234567890',
		'-12345678901234567890',
		'100000000000000000000',
		'-100000000000000000',
		'123456789012345678901234567',
		'1234567890123456789012345678',
		'000000000000000012',
		'1e400',
	])('%s: its digits as written, equal to another exactly when the digits are', (literal) => {
		const long = longInteger(literal);
		expect(digitsOf(long)).toBe(literal);
		expect(String(long)).toBe(literal);
		expect(stringifyLossless([long])).toBe(`[${literal}]`);
		expect(longInteger(` ${literal} `, 1, literal.length + 1)).toEqual(long);
		const other = literal.startsWith('-') ? literal.slice(1) : `-${literal}`;
		expect(longInteger(other)).not.toEqual(long);
		expect(longInteger(`${literal.slice(0, -1)}${(Number(literal.at(-1)) + 1) % 10}`)).not.toEqual(
			long,
		);
	});
});

describe('no mark data can forge', () => {
	const forged = ['\u0000long:5', '\u0000long:007', '\u0000long:-9007199254740993', '\u0000long:'];

	it.each(forged)('a string %j is a string: read, copied and written back as it is', (name) => {
		const text = `{"name":${JSON.stringify(name)},"ids":[${JSON.stringify(name)},9007199254740993]}`;
		const read = parseLossless(text) as { name: string; ids: unknown[] };
		expect(read.name).toBe(name);
		expect(read.ids[0]).toBe(name);
		expect(isLongInteger(read.ids[1])).toBe(true);
		expect(plainCopy(read)).toEqual({ name, ids: [name, '9007199254740993'] });
		expect(idText(name)).toBe(name.trim());
		expect(stringifyLossless(read)).toBe(text);
	});

	it('an object of the data with the fields of a long integer is an object: never read, copied or written as one', () => {
		const text =
			'[{"high":12,"middle":345678901,"low":234567890,"toJSON":1,"toString":"x"},9007199254740993]';
		const read = parseLossless(text) as unknown[];
		expect(isLongInteger(read[0])).toBe(false);
		expect(isLongInteger(read[1])).toBe(true);
		expect(read[0]).not.toEqual(longInteger('12345678901234567890'));
		expect(plainCopy(read)).toEqual([JSON.parse(text)[0], '9007199254740993']);
		expect(stringifyLossless(read)).toBe(text);
		// What JSON.parse gives (a parameter an expression set) is no long integer either.
		expect(isLongInteger(JSON.parse(text)[0])).toBe(false);
	});

	it('a string holding the mark chosen for a write makes the write choose another', () => {
		// The first mark drawn is U+0000 "ii" (Math.random 0.5, twice); the data holds it.
		const random = jest.spyOn(Math, 'random').mockReturnValueOnce(0.5).mockReturnValueOnce(0.5);
		try {
			const value = ['\u0000ii5', parseLossless('[9007199254740993]'), '"\u0000ii7'];
			expect(stringifyLossless(value)).toBe('["\\u0000ii5",[9007199254740993],"\\"\\u0000ii7"]');
			expect(random).toHaveBeenCalledTimes(4);
		} finally {
			random.mockRestore();
		}
	});

	it('any JSON text whose strings open with U+0000 "long:" goes back byte-equal through read and write', () => {
		const lookalike = fc
			.tuple(
				fc.constantFrom('\u0000long:', '\u0000long:-', '\u0000', '\u0000long'),
				fc.oneof(
					fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
					fc.string({ unit: 'binary' }),
				),
				fc.constantFrom('', '"', '\\', 'x'),
			)
			.map((parts) => parts.join(''));
		const text = fc.letrec<{ doc: Doc }>((tie) => ({
			doc: fc.oneof(
				{ depthSize: 'small', maxDepth: 5 },
				lookalike,
				fc.string({ unit: 'binary' }),
				fc.integer(),
				fc.double({ noNaN: true, noDefaultInfinity: true }),
				fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
				fc.array(tie('doc'), { maxLength: 5 }),
				fc.dictionary(fc.oneof(lookalike, fc.string()), tie('doc'), { maxKeys: 4 }),
			) as fc.Arbitrary<Doc>,
		})).doc;
		fc.assert(
			fc.property(text, (doc) => {
				const written = write(doc, '');
				const read = parseLossless(written);
				expect(stringifyLossless(read)).toBe(written);
				expect(plainCopy(read)).toEqual(expected(doc));
			}),
			{ numRuns: 1000 },
		);
	});
});

describe(`no deeper than ${MAX_JSON_DEPTH} levels`, () => {
	const list = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

	it('32 levels are read; 33 are refused where the 33rd opens, nothing built', () => {
		expect(nestingDepth(parseLossless(list(32)))).toBe(32);
		expect(nestingDepth(parseJson(list(32)))).toBe(32);
		for (const parse of [parseLossless, parseJson]) {
			let error: unknown;
			try {
				parse(`{"a":${list(32)}}`);
			} catch (caught) {
				error = caught;
			}
			expect(error).toBeInstanceOf(JsonTooDeepError);
			expect((error as Error).message).toBe(
				'it is nested more than 32 levels deep (at position 36)',
			);
		}
	});

	it('brackets inside strings do not count', () => {
		const text = `["${'['.repeat(100)}", "\\"${'{'.repeat(100)}"]`;
		expect(parseLossless(text)).toEqual(JSON.parse(text));
	});

	it('a JSON parameter: text parsed losslessly, a value checked as given', () => {
		expect(readJsonParameter('[{"id":9007199254740993}]')).toEqual({
			ok: true,
			value: [{ id: longInteger('9007199254740993') }],
		});
		const read = readJsonParameter('[{"id":9007199254740993}]') as {
			value: Array<{ id: unknown }>;
		};
		expect(isLongInteger(read.value[0].id)).toBe(true);
		expect(readJsonParameter(list(33))).toEqual({
			ok: false,
			problem: 'is nested more than 32 levels deep (at position 32)',
		});
		expect(readJsonParameter(JSON.parse(list(33)))).toEqual({
			ok: false,
			problem: 'is nested more than 32 levels deep',
		});
		expect(readJsonParameter('[1,]')).toEqual({
			ok: false,
			problem: `is not valid JSON: ${parseError('[1,]')}`,
		});
	});
});
