/**
 * What a delivery's body may be, beyond being an envelope: text in the charset its
 * Content-Type declares, and no deeper than a real delivery could be.
 */

/**
 * The deepest body accepted, counting the envelope itself as 1. A real delivery is 3 deep
 * (envelope → data → user or course → fields); the bound leaves room for richer events while
 * keeping every item one n8n can copy and store (a body 10 000 levels deep fits in 20 KB, and
 * n8n's copy of such an item fails with "Maximum call stack size exceeded").
 */
export const MAX_BODY_DEPTH = 32;

/**
 * How deep `value` is nested (a scalar is 0, `{}` and `[]` are 1), counted without recursion
 * and stopping once past `limit`: the answer is then `limit + 1`.
 */
export function nestingDepth(value: unknown, limit = MAX_BODY_DEPTH): number {
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
