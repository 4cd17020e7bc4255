/** helpers/dates.ts: everything n8n users pass as a date, to the API's UTC `yyyy-MM-dd HH:mm:ss`. */
import fc from 'fast-check';
import { DateTime } from 'luxon';

import {
	formatApiDate,
	InvalidDateError,
	isBlank,
	toApiDate,
} from '../../nodes/Knolyx/helpers/dates';

/**
 * The instant toApiDate gives (to the second: the API's format has no fraction). The cases
 * below have whole-second inputs, so this is the instant the node computes.
 */
const instantOf = (value: unknown, timeZone?: string): number =>
	Date.parse(`${toApiDate(value, timeZone).replace(' ', 'T')}Z`);

describe('the API format', () => {
	it('is taken as UTC, whatever the workflow time zone', () => {
		expect(toApiDate('2026-03-04 05:06:07')).toBe('2026-03-04 05:06:07');
		expect(toApiDate('2026-03-04 05:06:07', 'Asia/Tokyo')).toBe('2026-03-04 05:06:07');
		expect(toApiDate('  2026-03-04 05:06:07 ')).toBe('2026-03-04 05:06:07');
	});

	it('is what formatApiDate produces, zero-padded', () => {
		expect(formatApiDate(Date.UTC(2026, 0, 2, 3, 4, 5, 999))).toBe('2026-01-02 03:04:05');
		expect(formatApiDate(new Date('0042-07-08T09:10:11Z').getTime())).toBe('0042-07-08 09:10:11');
	});
});

describe('ISO 8601 with Z or an offset is an exact instant', () => {
	it.each([
		['2026-03-04T05:06:07Z', '2026-03-04 05:06:07'],
		['2026-03-04T05:06:07z', '2026-03-04 05:06:07'],
		['2026-03-04T05:06:07.999Z', '2026-03-04 05:06:07'],
		['2026-03-04T05:06:07.123456789Z', '2026-03-04 05:06:07'],
		['2026-03-04T05:06Z', '2026-03-04 05:06:00'],
		['2026-03-04T05:06:07+02:00', '2026-03-04 03:06:07'],
		['2026-03-04T05:06:07-0530', '2026-03-04 10:36:07'],
		['2026-03-04T00:30:00+01:00', '2026-03-03 23:30:00'],
		['2026-12-31T23:30:00-01:00', '2027-01-01 00:30:00'],
		['2026-03-04T05:06:07+00:00', '2026-03-04 05:06:07'],
	])('%s → %s (in any workflow time zone)', (input, expected) => {
		expect(toApiDate(input)).toBe(expected);
		expect(toApiDate(input, 'Pacific/Kiritimati')).toBe(expected);
	});
});

describe('ISO 8601 without an offset (the n8n date picker) is read in the workflow time zone', () => {
	it.each([
		['2026-07-01T12:00:00', 'Europe/Paris', '2026-07-01 10:00:00'],
		['2026-01-01T12:00:00', 'Europe/Paris', '2026-01-01 11:00:00'],
		['2026-07-01T12:00', 'America/New_York', '2026-07-01 16:00:00'],
		['2026-07-01 12:00', 'Asia/Kolkata', '2026-07-01 06:30:00'],
		['2026-07-01', 'Europe/Paris', '2026-06-30 22:00:00'],
		['2026-07-01T12:00:00.500', 'UTC', '2026-07-01 12:00:00'],
		['2026-07-01T12:00:00', undefined, '2026-07-01 12:00:00'],
	])('%s in %s → %s', (input, zone, expected) => {
		expect(toApiDate(input, zone)).toBe(expected);
	});

	describe('DST gaps: a wall time that does not exist moves forward by the gap', () => {
		it.each([
			['2026-03-29T02:30:00', 'Europe/Paris', '2026-03-29 01:30:00'], // 03:30 CEST
			['2026-03-29T02:00:00', 'Europe/Paris', '2026-03-29 01:00:00'], // 03:00 CEST
			['2026-03-08T02:30:00', 'America/New_York', '2026-03-08 07:30:00'], // 03:30 EDT
			['2026-10-04T02:15:00', 'Australia/Lord_Howe', '2026-10-03 15:45:00'], // 30-minute shift: 02:45 +11
		])('%s in %s → %s', (input, zone, expected) => {
			expect(toApiDate(input, zone)).toBe(expected);
		});
	});

	describe('DST overlaps: a wall time that happens twice means the first one', () => {
		it.each([
			['2026-10-25T02:30:00', 'Europe/Paris', '2026-10-25 00:30:00'], // CEST, not 01:30 UTC (CET)
			['2026-11-01T01:30:00', 'America/New_York', '2026-11-01 05:30:00'], // EDT, not 06:30 UTC (EST)
			['2026-04-05T01:45:00', 'Australia/Lord_Howe', '2026-04-04 14:45:00'],
		])('%s in %s → %s', (input, zone, expected) => {
			expect(toApiDate(input, zone)).toBe(expected);
		});

		it('the wall times just around an overlap are unambiguous', () => {
			expect(toApiDate('2026-10-25T01:59:59', 'Europe/Paris')).toBe('2026-10-24 23:59:59');
			expect(toApiDate('2026-10-25T03:00:00', 'Europe/Paris')).toBe('2026-10-25 02:00:00');
		});
	});
});

describe('objects n8n expressions give', () => {
	it('a Luxon DateTime (e.g. {{ $now.plus({ days: 30 }) }}) is its instant', () => {
		expect(toApiDate(DateTime.fromISO('2026-07-01T12:00:00', { zone: 'Asia/Tokyo' }))).toBe(
			'2026-07-01 03:00:00',
		);
		expect(
			toApiDate(DateTime.fromISO('2026-07-01T12:00:00', { zone: 'Asia/Tokyo' }), 'Europe/Paris'),
		).toBe('2026-07-01 03:00:00');
		expect(toApiDate(DateTime.fromMillis(Date.UTC(2030, 5, 1, 8)).plus({ days: 30 }))).toBe(
			'2030-07-01 08:00:00',
		);
	});

	it('any object with toMillis() works (another Luxon copy, a wrapper)', () => {
		expect(toApiDate({ toMillis: () => Date.UTC(2026, 1, 3, 4, 5, 6) })).toBe(
			'2026-02-03 04:05:06',
		);
	});

	it('a Date and epoch milliseconds', () => {
		expect(toApiDate(new Date('2026-02-03T04:05:06.789Z'))).toBe('2026-02-03 04:05:06');
		expect(toApiDate(Date.UTC(2026, 1, 3, 4, 5, 6))).toBe('2026-02-03 04:05:06');
	});
});

describe('invalid dates are refused, never shifted to another day', () => {
	it.each([
		'2026-02-30',
		'2026-02-29',
		'2026-02-30 10:00:00',
		'2026-04-31T00:00:00Z',
		'2026-13-01T00:00:00Z',
		'2026-00-10',
		'2026-12-31 24:00:00',
		'2026-12-31T23:60:00Z',
		'2026-12-31T23:59:60Z',
		'2026-12-31T10:00:00+25:00',
		'2026-12-31T10:00:00+02:60',
		'2026-1-1',
		'2026-01-01T1:00',
		'31/12/2026',
		'12/31/2026',
		'tomorrow',
		'now',
		'',
		'2026-01-01T00:00:00 Europe/Paris',
		'2026-01-01T00:00:00Z trailing',
	])('%j', (input) => {
		expect(() => toApiDate(input, 'Europe/Paris')).toThrow(InvalidDateError);
	});

	it.each([
		['an invalid Date', new Date('nope')],
		['NaN', NaN],
		['Infinity', Infinity],
		['an invalid Luxon DateTime', DateTime.fromISO('2026-02-30')],
		['true', true],
		['a plain object', { a: 1 }],
		['an array', [2026, 1, 1]],
		['null', null],
		['a year past 9999', Date.UTC(10000, 0, 1)],
	])('%s', (_name, input) => {
		expect(() => toApiDate(input)).toThrow(InvalidDateError);
	});

	it('29 February exists in leap years only', () => {
		expect(toApiDate('2028-02-29')).toBe('2028-02-29 00:00:00');
		expect(toApiDate('2000-02-29 12:00:00')).toBe('2000-02-29 12:00:00');
		expect(() => toApiDate('1900-02-29')).toThrow(InvalidDateError);
	});

	it('an unknown time zone is an error, not UTC', () => {
		expect(() => toApiDate('2026-01-01T00:00:00', 'Mars/Olympus')).toThrow(
			'unknown time zone "Mars/Olympus"',
		);
		expect(() => toApiDate('2026-01-01T00:00:00', 'Mars/Olympus')).toThrow(InvalidDateError);
	});

	it('isBlank', () => {
		expect([undefined, null, '', '   '].every(isBlank)).toBe(true);
		expect([0, 'x', false, {}].some(isBlank)).toBe(false);
	});
});

// ---------------------------------------------------------------------------------------------
// Properties

const MIN = new Date('0001-01-01T00:00:00Z').getTime();
const MAX = new Date('9999-12-31T23:59:59Z').getTime();
const instant = fc.integer({ min: MIN, max: MAX });
const wholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * Wall-clock "yyyy-MM-ddTHH:mm:ss" of an instant in a time zone, as Luxon (n8n's date library)
 * gives it: an oracle of its own, not a copy of the node's zone arithmetic.
 */
function wallClock(ms: number, timeZone: string): string {
	return DateTime.fromMillis(ms, { zone: timeZone }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
}

/** UTC instants where the zone's offset changes during `year` (found 6 hours at a time, then to the second). */
function transitions(zone: string, year: number): number[] {
	const offset = (ms: number) => Date.parse(`${wallClock(ms, zone)}Z`) - ms;
	const found: number[] = [];
	const step = 6 * 3_600_000;
	for (let ms = Date.UTC(year, 0, 1); ms < Date.UTC(year + 1, 0, 1); ms += step) {
		if (offset(ms) === offset(ms + step)) continue;
		let [low, high] = [ms, ms + step];
		while (high - low > 1000) {
			const mid = wholeSecond((low + high) / 2);
			if (offset(mid) === offset(low)) low = mid;
			else high = mid;
		}
		found.push(high);
	}
	return found;
}

const ZONES = [
	'UTC',
	'Europe/Paris',
	'America/New_York',
	'America/Sao_Paulo',
	'Asia/Kolkata',
	'Asia/Kathmandu',
	'Australia/Lord_Howe',
	'Pacific/Chatham',
	'Pacific/Apia',
	'Africa/Casablanca',
];

describe('properties', () => {
	it('any instant formatted in the API format parses back to the same instant (to the second)', () => {
		fc.assert(
			fc.property(instant, (ms) => {
				const text = formatApiDate(ms);
				expect(text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
				expect(instantOf(text)).toBe(wholeSecond(ms));
				expect(toApiDate(text, 'Asia/Tokyo')).toBe(text);
			}),
			{ numRuns: 500 },
		);
	});

	it('any instant as ISO 8601 with Z or with an offset gives the same API date', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: Date.UTC(1970, 0, 1), max: MAX - 86_400_000 }),
				fc.integer({ min: -14 * 60, max: 14 * 60 }),
				(ms, offsetMinutes) => {
					expect(toApiDate(new Date(ms).toISOString())).toBe(formatApiDate(ms));
					const sign = offsetMinutes < 0 ? '-' : '+';
					const abs = Math.abs(offsetMinutes);
					const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
					const withOffset = `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
					expect(toApiDate(withOffset, 'Europe/Paris')).toBe(formatApiDate(ms));
				},
			),
			{ numRuns: 300 },
		);
	});

	it('the same holds for wall-clock times within 3 hours of any 2026 DST change', () => {
		const near = ZONES.flatMap((zone) => transitions(zone, 2026).map((at) => [zone, at] as const));
		expect(near.length).toBeGreaterThanOrEqual(8);
		fc.assert(
			fc.property(
				fc.constantFrom(...near),
				fc.integer({ min: -3 * 3600, max: 3 * 3600 }),
				([zone, at], seconds) => {
					const ms = at + seconds * 1000;
					const wall = wallClock(ms, zone);
					const parsed = instantOf(wall, zone);
					expect([wall, zone, wallClock(parsed, zone)]).toEqual([wall, zone, wall]);
					expect(parsed).toBeLessThanOrEqual(ms);
				},
			),
			{ numRuns: 1000 },
		);
	});

	it('a wall-clock time read in its time zone gives back an instant with that wall clock (the first, when it happens twice)', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2150, 0, 1) }),
				fc.constantFrom(...ZONES),
				(raw, zone) => {
					const ms = wholeSecond(raw);
					const wall = wallClock(ms, zone);
					const parsed = instantOf(wall, zone);
					expect([wall, zone, wallClock(parsed, zone)]).toEqual([wall, zone, wall]);
					expect(parsed).toBeLessThanOrEqual(ms);
				},
			),
			{ numRuns: 500 },
		);
	});
});
