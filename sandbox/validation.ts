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
	if (typeof value !== 'string' || value.trim() === '') throw badRequest(`${field} is required and must be a non-empty string`);
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
	if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) throw badRequest(`${field} must be a positive integer`);
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
		return isObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v;
	});
}
