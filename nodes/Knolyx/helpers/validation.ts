import type { IDataObject, IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { InvalidDateError, isBlank, toApiDate } from './dates';

/**
 * Reading and checking parameters before any request is sent. Every failure
 * is a NodeOperationError that names the field and the item.
 */

const GENDERS = ['NON-BINARY', 'MALE', 'FEMALE'] as const;
export type Gender = (typeof GENDERS)[number];
/**
 * Other spellings taken as input, sent as the published one: the platform's drafts write
 * NON_BINARY where its guides write NON-BINARY.
 */
const GENDER_SPELLINGS: Record<string, Gender> = { NON_BINARY: 'NON-BINARY' };

// A practical e-mail check: one @, no spaces, a dot in the domain and no empty domain label
// (a@b..com); no control characters, bidi overrides or other invisible format characters
// (Unicode Cc and Cf), which make an address look like another. The pattern has one reading of
// any text (the dot is checked apart: a pattern that finds it may try every split of the domain).
const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:/?#]+$/u;
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;
const codePoint = (char: string) =>
	`U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

export function invalid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	problem: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${field}: ${problem} (item ${itemIndex})`, {
		itemIndex,
		description,
	});
}

export function describeValue(value: unknown): string {
	if (value === undefined || value === null) return 'empty';
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}"`;
}

/** A required, non-empty string. */
export function requireString(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
	options: { maxLength?: number } = {},
): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (value === undefined || value === null)
		throw invalid(ctx, itemIndex, field, 'is required and was empty');
	if (typeof value !== 'string' && typeof value !== 'number') {
		throw invalid(ctx, itemIndex, field, `expected text, got ${describeValue(value)}`);
	}
	const text = String(value).trim();
	if (text === '') throw invalid(ctx, itemIndex, field, 'is required and was empty');
	if (options.maxLength && text.length > options.maxLength) {
		throw invalid(ctx, itemIndex, field, `is longer than ${options.maxLength} characters`);
	}
	return text;
}

/** A required e-mail address. */
export function requireEmail(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name = 'email',
	field = 'Email',
): string {
	const text = requireString(ctx, itemIndex, name, field);
	const invisible = text.match(INVISIBLE);
	if (invisible) {
		// Shown escaped: a bidi override would otherwise reorder the message itself.
		const shown = text.replace(INVISIBLE, (char) => `<${codePoint(char)}>`);
		throw invalid(
			ctx,
			itemIndex,
			field,
			`${describeValue(shown)} contains an invisible control or formatting character (${codePoint(invisible[0])})`,
		);
	}
	const domain = text.slice(text.lastIndexOf('@') + 1);
	// A dot in the domain with a character before it and two after it.
	const dot = domain.indexOf('.', 1);
	if (
		text.length > 254 ||
		!EMAIL.test(text) ||
		dot === -1 ||
		dot > domain.length - 3 ||
		domain.split('.').includes('')
	) {
		throw invalid(ctx, itemIndex, field, `${describeValue(text)} is not a valid e-mail address`);
	}
	return text;
}

/** Checks a positive integer id given as a number or digits. */
export function parseId(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
	if (typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value)) {
		const id = Number(value.trim());
		if (id > 0) return id;
	}
	return undefined;
}

/**
 * An id of the platform (the contract's `integer, long`) in the one form the node outputs and
 * reads: a number up to 2^53 - 1, its digits (a string) above, which a number would round
 * (docs/api.md, "Ids").
 */
export type Id = number | string;

/** 2^63 - 1, the largest long. */
const MAX_LONG = '9223372036854775807';

/**
 * A positive long id given as a number or digits, in its one form (`Id`): digits beyond what a
 * number holds come as their digits, exactly; a number that is no safe integer (it may have been
 * rounded already) is refused, as is anything past 2^63 - 1.
 */
export function parseLongId(value: unknown): Id | undefined {
	if (typeof value === 'number') return parseId(value);
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (!/^\d{1,40}$/.test(text)) return undefined;
	let first = 0;
	while (first < text.length - 1 && text[first] === '0') first++;
	const digits = text.slice(first);
	if (digits === '0') return undefined;
	const number = Number(digits);
	if (Number.isSafeInteger(number)) return number;
	if (digits.length > MAX_LONG.length || (digits.length === MAX_LONG.length && digits > MAX_LONG))
		return undefined;
	return digits;
}

/** A required id read by `parse`, from a plain parameter or a resource locator. */
function requireParsedId<T>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
	parse: (value: unknown) => T | undefined,
	description: (value: unknown) => string,
): T {
	let value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (value && typeof value === 'object' && '__rl' in (value as IDataObject)) {
		value = (value as INodeParameterResourceLocator).value;
	}
	if (isBlank(value)) throw invalid(ctx, itemIndex, field, 'is required and was empty');
	const id = parse(value);
	if (id === undefined)
		throw invalid(
			ctx,
			itemIndex,
			field,
			`${describeValue(value)} is not a numeric ID`,
			description(value),
		);
	return id;
}

/**
 * A required long id (`Id`), from a plain parameter or a resource locator: what a list, a picker
 * or an event gave, mapped by expression, reaches the platform exactly.
 */
export function requireLongId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
): Id {
	return requireParsedId(ctx, itemIndex, name, field, parseLongId, (value) =>
		typeof value === 'number' && Number.isInteger(value) && value > 0
			? 'This number is past 2^53 - 1, where a number is no longer exact: give the ID as its digits (a string), as the Knolyx nodes output it.'
			: 'IDs are positive whole numbers (at most 2^63 - 1), e.g. 42.',
	);
}

/** A required numeric id (at most 15 digits), from a plain parameter or a resource locator. */
export function requireId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
): number {
	return requireParsedId(
		ctx,
		itemIndex,
		name,
		field,
		parseId,
		() => 'IDs are positive whole numbers, e.g. 42.',
	);
}

/** The Gender option that sends no gender: an existing user keeps theirs, a new one gets the platform's default. */
export const GENDER_UNCHANGED = 'unchanged';

/** The gender to send, or undefined when the user left it unchanged (or an expression gave nothing). */
export function optionalGender(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name = 'gender',
): Gender | undefined {
	const value = ctx.getNodeParameter(name, itemIndex, GENDER_UNCHANGED) as unknown;
	if (isBlank(value)) return undefined;
	const given = String(value).trim().toUpperCase();
	if (given === GENDER_UNCHANGED.toUpperCase()) return undefined;
	const text = GENDER_SPELLINGS[given] ?? given;
	if (!(GENDERS as readonly string[]).includes(text)) {
		throw invalid(
			ctx,
			itemIndex,
			'Gender',
			`${describeValue(value)} is not one of ${GENDERS.join(', ')} (NON_BINARY is read as NON-BINARY), or empty to leave it unchanged`,
		);
	}
	return text as Gender;
}

/** An optional date, converted to the API's UTC format; null when empty. */
export function optionalApiDate(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): string | null {
	if (isBlank(value)) return null;
	let problem: string;
	try {
		return toApiDate(value, ctx.getTimezone());
	} catch (error) {
		problem = error instanceof InvalidDateError ? error.message : String(error);
	}
	throw invalid(
		ctx,
		itemIndex,
		field,
		`${describeValue(value)} is not a valid date: ${problem}`,
		'Use yyyy-MM-dd HH:mm:ss (UTC), an ISO 8601 date such as 2026-12-31T23:59:00Z, or pick a date.',
	);
}

/** A list of numeric ids from a comma-separated string, an array or a number. */
export function parseIdList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): number[] {
	if (isBlank(value)) return [];
	const parts = Array.isArray(value)
		? value
		: typeof value === 'string'
			? value.split(',')
			: [value];
	return parts.map((part) => {
		const id = parseId(typeof part === 'string' ? part.trim() : part);
		if (id === undefined)
			throw invalid(ctx, itemIndex, field, `${describeValue(part)} is not a numeric ID`);
		return id;
	});
}
