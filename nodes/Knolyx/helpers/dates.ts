/**
 * Date conversion for the API's `yyyy-MM-dd HH:mm:ss` UTC format, without
 * runtime dependencies. Accepted inputs, as n8n users pass them:
 * - the API's own format `yyyy-MM-dd HH:mm:ss` (taken as UTC, as the API defines it);
 * - ISO 8601 with `Z` or an offset (an exact instant);
 * - ISO 8601 without an offset, or a date alone, as the n8n date picker gives it:
 *   read in the workflow's time zone;
 * - a JavaScript Date, a Luxon DateTime (an expression such as `{{ $now.plus({days: 30}) }}`),
 *   or epoch milliseconds.
 */

const API_FORMAT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;
const ISO_ZONED =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/i;

export class InvalidDateError extends Error {}

interface Fields {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	ms: number;
}

function fieldsOf(match: RegExpMatchArray): Fields {
	const fraction = match[7] ?? '';
	return {
		year: Number(match[1]),
		month: Number(match[2]),
		day: Number(match[3]),
		hour: Number(match[4] ?? 0),
		minute: Number(match[5] ?? 0),
		second: Number(match[6] ?? 0),
		ms: fraction === '' ? 0 : Math.floor(Number(`0.${fraction}`) * 1000),
	};
}

/** Like Date.UTC, but years 0-99 stay years 0-99 (Date.UTC maps them to 1900-1999). */
function utc(
	year: number,
	month: number,
	day: number,
	hour = 0,
	minute = 0,
	second = 0,
	ms = 0,
): number {
	const date = new Date(0);
	date.setUTCFullYear(year, month, day);
	date.setUTCHours(hour, minute, second, ms);
	return date.getTime();
}

/** Milliseconds of the fields read as UTC; throws when a field is out of range (Feb 30, 24:00, ...). */
function utcMillis(f: Fields): number {
	const millis = utc(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.ms);
	const check = new Date(millis);
	if (
		Number.isNaN(millis) ||
		check.getUTCFullYear() !== f.year ||
		check.getUTCMonth() !== f.month - 1 ||
		check.getUTCDate() !== f.day ||
		check.getUTCHours() !== f.hour ||
		check.getUTCMinutes() !== f.minute ||
		check.getUTCSeconds() !== f.second
	) {
		throw new InvalidDateError('not a real calendar date or time');
	}
	return millis;
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

/** Offset of `timeZone` from UTC at the instant `millis`, in milliseconds. */
function zoneOffset(timeZone: string, millis: number): number {
	let formatter = zoneFormatters.get(timeZone);
	if (!formatter) {
		let created: Intl.DateTimeFormat | undefined;
		try {
			created = new Intl.DateTimeFormat('en-US', {
				timeZone,
				hourCycle: 'h23',
				year: 'numeric',
				month: '2-digit',
				day: '2-digit',
				hour: '2-digit',
				minute: '2-digit',
				second: '2-digit',
			});
		} catch {
			created = undefined;
		}
		if (!created) throw new InvalidDateError(`unknown time zone "${timeZone}"`);
		formatter = created;
		zoneFormatters.set(timeZone, formatter);
	}
	const parts: Record<string, number> = {};
	for (const part of formatter.formatToParts(new Date(millis))) {
		if (part.type !== 'literal') parts[part.type] = Number(part.value);
	}
	const asUtc = utc(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
	return asUtc - (millis - (((millis % 1000) + 1000) % 1000));
}

/**
 * The instant of local wall-clock fields in `timeZone`. In a DST gap the
 * later offset wins (02:30 on a spring-forward night becomes 03:30); in an
 * overlap the first occurrence wins.
 */
function zonedMillis(f: Fields, timeZone: string): number {
	const wall = utcMillis(f);
	// Every offset the zone has around that wall time (a transition at most on each side).
	const offsets = new Set<number>();
	for (const hours of [-18, -9, 0, 9, 18])
		offsets.add(zoneOffset(timeZone, wall + hours * 3_600_000));
	const readings = [...offsets].map((offset) => wall - offset);
	const valid = readings.filter((millis) => millis + zoneOffset(timeZone, millis) === wall);
	// Overlap: the wall time happens twice, take the first. Gap: it never happens, take the later reading.
	return valid.length > 0 ? Math.min(...valid) : Math.max(...readings);
}

function pad(value: number, width = 2): string {
	return String(value).padStart(width, '0');
}

/** Formats an instant as the API wants it: `yyyy-MM-dd HH:mm:ss` in UTC. */
export function formatApiDate(millis: number): string {
	const d = new Date(millis);
	if (Number.isNaN(d.getTime())) throw new InvalidDateError('not a valid date');
	const year = d.getUTCFullYear();
	if (year < 1 || year > 9999) throw new InvalidDateError('year out of range');
	return `${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(
		d.getUTCMinutes(),
	)}:${pad(d.getUTCSeconds())}`;
}

function isLuxonLike(value: object): value is { toMillis: () => number } {
	return typeof (value as { toMillis?: unknown }).toMillis === 'function';
}

/**
 * Converts what a user passed to the instant it means (epoch ms).
 * @throws InvalidDateError with a short reason
 */
function toInstant(value: unknown, timeZone = 'UTC'): number {
	if (value instanceof Date) {
		if (Number.isNaN(value.getTime())) throw new InvalidDateError('not a valid date');
		return value.getTime();
	}
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) throw new InvalidDateError('not a valid timestamp');
		return value;
	}
	if (value && typeof value === 'object' && isLuxonLike(value)) {
		const millis = value.toMillis();
		if (!Number.isFinite(millis)) throw new InvalidDateError('not a valid date');
		return millis;
	}
	if (typeof value !== 'string') throw new InvalidDateError('expected a date');
	const text = value.trim();
	let match = API_FORMAT.exec(text);
	if (match) return utcMillis(fieldsOf(match));
	match = ISO_ZONED.exec(text);
	if (match) {
		const millis = utcMillis(fieldsOf(match));
		const zone = match[8].toUpperCase();
		if (zone === 'Z') return millis;
		const sign = zone.startsWith('-') ? -1 : 1;
		const digits = zone.slice(1).replace(':', '');
		const hours = Number(digits.slice(0, 2));
		const minutes = Number(digits.slice(2));
		if (hours > 23 || minutes > 59) throw new InvalidDateError('invalid UTC offset');
		return millis - sign * (hours * 60 + minutes) * 60_000;
	}
	match = ISO_LOCAL.exec(text);
	if (match) return zonedMillis(fieldsOf(match), timeZone);
	throw new InvalidDateError('use yyyy-MM-dd HH:mm:ss (UTC) or an ISO 8601 date');
}

/** Converts any accepted input to the API's UTC `yyyy-MM-dd HH:mm:ss`. */
export function toApiDate(value: unknown, timeZone = 'UTC'): string {
	return formatApiDate(toInstant(value, timeZone));
}

/** True for an empty value: null, undefined, '' or only spaces. */
export function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}
