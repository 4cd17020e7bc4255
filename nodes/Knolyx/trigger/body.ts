/**
 * What a delivery's body may be, beyond being an envelope: text in the charset its
 * Content-Type declares, and no deeper than a real delivery could be.
 */

import type { IDataObject } from 'n8n-workflow';

import { MAX_JSON_DEPTH, parseExact } from '../helpers/json';
import { isRecord } from '../helpers/objects';

/**
 * Why a body nested deeper than MAX_JSON_DEPTH (helpers/json.ts, the bound of all JSON the node
 * reads; the envelope counts as 1) is refused: a real delivery is 3 deep (envelope → data → user
 * or course → fields).
 */
export const TOO_DEEP = `the body is nested more than ${MAX_JSON_DEPTH} levels deep; a Knolyx event is 3`;

/** The charset a Content-Type header declares (lower case), or undefined when it declares none. */
export function charsetOf(contentType: unknown): string | undefined {
	if (typeof contentType !== 'string') return undefined;
	const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
	const charset = (match?.[1] ?? match?.[2])?.trim().toLowerCase();
	return charset === '' ? undefined : charset;
}

export type Decoded =
	| { ok: true; text: string }
	| { ok: false; status: 400 | 415; message: string };

/**
 * The text of a body the node reads itself, decoded with the charset its Content-Type
 * declares (UTF-8, JSON's own, when it declares none). A charset this runtime cannot decode
 * is refused (415) and bytes that are not valid in it are refused (400): a body is never
 * read with mangled names.
 */
export function decodeBody(bytes: Uint8Array, contentType: unknown): Decoded {
	const declared = charsetOf(contentType);
	const charset = declared ?? 'utf-8';
	let decoder: InstanceType<typeof TextDecoder>;
	try {
		decoder = new TextDecoder(charset, { fatal: true });
	} catch {
		return {
			ok: false,
			status: 415,
			message: `The body's charset "${charset}" is not supported; send UTF-8`,
		};
	}
	try {
		return { ok: true, text: decoder.decode(bytes) };
	} catch {
		return {
			ok: false,
			status: 400,
			message: `The body is not valid ${declared === undefined ? 'UTF-8 (no charset declared)' : charset}`,
		};
	}
}

/**
 * The JSON object the bytes of a body n8n parsed hold, read exactly (ids past 2^53 - 1 as their
 * digits, helpers/json.ts parseExact); undefined when they are no JSON object in their charset
 * (a form, XML, too deep), which n8n's own reading then stands for.
 */
export function exactRecord(bytes: Uint8Array, contentType: unknown): IDataObject | undefined {
	const decoded = decodeBody(bytes, contentType);
	if (!decoded.ok) return undefined;
	try {
		const value = parseExact(decoded.text);
		return isRecord(value) ? (value as IDataObject) : undefined;
	} catch {
		return undefined;
	}
}
