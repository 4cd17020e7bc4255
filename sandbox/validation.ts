/** Small pure validators shared by the routes. All throw ApiError(400) naming the field. */
import { badRequest } from './errors';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Parses "yyyy-MM-dd HH:mm:ss" as UTC; undefined when the text is not a real date-time. */
export function parseDateTime(text: string): Date | undefined {
	const m = DATE_TIME.exec(text);
	if (!m) return undefined;
	const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
	const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
	const roundTrips =
		date.getUTCFullYear() === y &&
		date.getUTCMonth() === mo - 1 &&
		date.getUTCDate() === d &&
		date.getUTCHours() === h &&
		date.getUTCMinutes() === mi &&
		date.getUTCSeconds() === s;
	return roundTrips ? date : undefined;
}

/** Formats a Date as "yyyy-MM-dd HH:mm:ss" UTC. */
export function formatDateTime(date: Date): string {
	return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function requireDateTime(value: unknown, field: string): Date {
	const date = typeof value === 'string' ? parseDateTime(value) : undefined;
	if (!date) throw badRequest(`${field} must be a date-time in format yyyy-MM-dd HH:mm:ss (UTC)`);
	return date;
}

export function requireNonEmptyString(value: unknown, field: string): string {
	if (typeof value !== 'string' || value.trim() === '')
		throw badRequest(`${field} is required and must be a non-empty string`);
	return value.trim();
}

export function isEmail(value: string): boolean {
	return EMAIL.test(value);
}

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, field: string): Record<string, unknown> {
	if (!isObject(value)) throw badRequest(`${field} must be a JSON object`);
	return value;
}

/** Path ids are positive integers; anything else is a 400 naming the parameter. */
export function parseId(value: unknown, field: string): number {
	if (typeof value !== 'string' || !/^\d{1,15}$/.test(value))
		throw badRequest(`${field} must be a positive integer`);
	return Number(value);
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface Page {
	page: number;
	size: number;
}

/**
 * Reads pagination.page (zero-based, default 0) and pagination.size (default 20).
 * A size above 100 is clamped to 100; negative or non-integer values are a 400.
 */
export function parsePage(query: Record<string, unknown>): Page {
	const read = (name: string, fallback: number, min: number): number => {
		const raw = query[name];
		if (raw === undefined || raw === '') return fallback;
		if (typeof raw !== 'string' || !/^-?\d+$/.test(raw) || Number(raw) < min) {
			throw badRequest(`${name} must be an integer >= ${min}`);
		}
		return Number(raw);
	};
	const page = read('pagination.page', 0, 0);
	const size = Math.min(read('pagination.size', DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
	return { page, size };
}

export function slice<T>(items: T[], { page, size }: Page): T[] {
	return items.slice(page * size, page * size + size);
}

/** Canonical JSON (sorted keys) for equality checks of stored payloads. */
export function canonical(value: unknown): string {
	return JSON.stringify(value, (_key, v: unknown) => {
		if (typeof v === 'bigint') return `${v}n`;
		return isObject(v)
			? Object.fromEntries(
					Object.keys(v)
						.sort()
						.map((k) => [k, v[k]]),
				)
			: v;
	});
}

/**
 * What a control endpoint accepts: its settings by name, each with the check of its value.
 * A check throws a 400 naming the field (`field` is the name as the caller wrote it, with its
 * path, e.g. `faults.errorRate`).
 */
export type FieldCheck = (value: unknown, field: string) => void;
export type Schema = Readonly<Record<string, FieldCheck>>;

/** Whether `name` is one of the schema's own settings (never an inherited name such as `constructor` or `__proto__`). */
function hasSetting(schema: Schema, name: string): boolean {
	return Object.prototype.hasOwnProperty.call(schema, name);
}

/** A name counts as given when it is there and not `false` (a switch that is off is not given). */
function given(value: Record<string, unknown>, name: string): boolean {
	return (
		Object.prototype.hasOwnProperty.call(value, name) &&
		value[name] !== undefined &&
		value[name] !== false
	);
}

/** What `checkObject` asks beyond each value's own check. */
export interface CheckOptions {
	/** Names that must be there (a missing one gets its check's message). */
	required?: readonly string[];
	/** What the settings are called in messages ("fault setting"); default "setting". */
	noun?: string;
	/** Names of which at most one may be given; `required`: exactly one. */
	oneOf?: readonly { names: readonly string[]; required?: boolean }[];
	/**
	 * Names taken only when another is given (`field`), or has one of the values `is`;
	 * `required`: then it must be there too.
	 */
	when?: Readonly<Record<string, { field: string; is?: readonly unknown[]; required?: boolean }>>;
}

/**
 * Checks an object against a schema: only the schema's own setting names, each value of its
 * type, then `options` (required names, exclusive names, names that depend on another). `where`
 * names the object in messages (`faults`, or `body` for a request's body, whose fields are named
 * bare). Returns the object unchanged.
 */
export function checkObject(
	value: unknown,
	schema: Schema,
	where: string,
	{ required = [], noun = 'setting', oneOf = [], when = {} }: CheckOptions = {},
): Record<string, unknown> {
	if (!isObject(value))
		throw badRequest(`${where === 'body' ? 'Body' : where} must be a JSON object`);
	const prefix = where === 'body' ? '' : `${where}.`;
	const named = (names: readonly string[]) => names.map((k) => `${prefix}${k}`);
	for (const [name, fieldValue] of Object.entries(value)) {
		if (!hasSetting(schema, name)) {
			const known = named(Object.keys(schema));
			throw badRequest(
				`${prefix}${name} is not a ${noun} here; ${known.length === 0 ? 'none is taken' : `use ${known.join(', ')}`}`,
			);
		}
		schema[name](fieldValue, `${prefix}${name}`);
	}
	for (const name of required) {
		if (!Object.prototype.hasOwnProperty.call(value, name))
			schema[name](undefined, `${prefix}${name}`);
	}
	for (const group of oneOf) {
		const there = group.names.filter((name) => given(value, name));
		if (there.length > 1)
			throw badRequest(
				`${prefix}${there[1]} cannot be given with ${prefix}${there[0]}: give ${group.required ? 'exactly' : 'at most'} one of ${named(group.names).join(', ')}`,
			);
		if (there.length === 0 && group.required)
			throw badRequest(`exactly one of ${named(group.names).join(', ')} is required`);
	}
	for (const [name, rule] of Object.entries(when)) {
		const holds =
			rule.is === undefined ? given(value, rule.field) : rule.is.includes(value[rule.field]);
		const condition = `${prefix}${rule.field}${rule.is === undefined ? ' is given' : ` is ${rule.is.join(' or ')}`}`;
		if (!holds && given(value, name))
			throw badRequest(`${prefix}${name} is only taken when ${condition}`);
		if (holds && rule.required && !given(value, name))
			throw badRequest(`${prefix}${name} is required when ${condition}`);
	}
	return value;
}

/**
 * The JSON body of a control request, checked against its schema; `{}` when none was sent. A
 * body that is not JSON (text, a form) is refused rather than read as "no settings".
 */
export function checkBody(
	req: { body?: unknown; headers: Record<string, unknown> },
	schema: Schema,
	options: CheckOptions = {},
): Record<string, unknown> {
	if (req.body === undefined) {
		const length = req.headers['content-length'];
		const sent =
			req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
		if (sent) throw badRequest('Body must be JSON (Content-Type: application/json)');
		return checkObject({}, schema, 'body', options);
	}
	return checkObject(req.body, schema, 'body', options);
}

/** The query string of a control request, checked like a body (every value arrives as text). */
export function checkQuery(query: unknown, schema: Schema): Record<string, unknown> {
	return checkObject(query ?? {}, schema, 'query', { noun: 'query parameter' });
}

/** The checks a schema is made of. */
export const is = {
	boolean: ((value, field) => {
		if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false`);
	}) as FieldCheck,
	/** A number from 0 to 1. */
	rate: ((value, field) => {
		if (typeof value !== 'number' || !(value >= 0 && value <= 1))
			throw badRequest(`${field} must be a number from 0 to 1`);
	}) as FieldCheck,
	integer(min: number, max = Number.MAX_SAFE_INTEGER): FieldCheck {
		return (value, field) => {
			if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
				throw badRequest(
					max === Number.MAX_SAFE_INTEGER
						? `${field} must be an integer >= ${min}`
						: `${field} must be an integer from ${min} to ${max}`,
				);
			}
		};
	},
	/**
	 * Text; `nullable` also takes null; `pattern` (with what it means) restricts it, `maxLength`
	 * bounds it.
	 */
	text({
		nullable = false,
		pattern,
		meaning,
		maxLength,
	}: {
		nullable?: boolean;
		pattern?: RegExp;
		meaning?: string;
		maxLength?: number;
	} = {}): FieldCheck {
		return (value, field) => {
			if (value === null && nullable) return;
			const bound = maxLength === undefined ? '' : ` of at most ${maxLength} characters`;
			const what = `${meaning ?? 'a text'}${bound}${nullable ? ' or null' : ''}`;
			if (
				typeof value !== 'string' ||
				(pattern !== undefined && !pattern.test(value)) ||
				(maxLength !== undefined && value.length > maxLength)
			)
				throw badRequest(`${field} must be ${what}`);
		};
	},
	/** An e-mail address (white space around it is taken; callers trim it). */
	email: ((value, field) => {
		if (typeof value !== 'string' || !isEmail(value.trim()))
			throw badRequest(`${field} must be an e-mail address`);
	}) as FieldCheck,
	/** A date-time "yyyy-MM-dd HH:mm:ss" (UTC). */
	dateTime: ((value, field) => {
		requireDateTime(value, field);
	}) as FieldCheck,
	oneOf(values: readonly unknown[]): FieldCheck {
		return (value, field) => {
			if (!values.includes(value))
				throw badRequest(
					`${field} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`,
				);
		};
	},
	array: ((value, field) => {
		if (!Array.isArray(value)) throw badRequest(`${field} must be an array`);
	}) as FieldCheck,
	object: ((value, field) => {
		if (!isObject(value)) throw badRequest(`${field} must be a JSON object`);
	}) as FieldCheck,
	/** An array whose every entry passes `entry` (named `field[i]`). */
	listOf(entry: FieldCheck): FieldCheck {
		return (value, field) => {
			if (!Array.isArray(value)) throw badRequest(`${field} must be an array`);
			value.forEach((item, i) => entry(item, `${field}[${i}]`));
		};
	},
	/** An object checked against its own schema (for nested settings): `required` names, or all of `checkObject`'s options. */
	shape(schema: Schema, options: readonly string[] | CheckOptions = {}): FieldCheck {
		const checks = isCheckOptions(options) ? options : { required: options };
		return (value, field) => {
			checkObject(value, schema, field, checks);
		};
	},
};

function isCheckOptions(options: readonly string[] | CheckOptions): options is CheckOptions {
	return !Array.isArray(options);
}
