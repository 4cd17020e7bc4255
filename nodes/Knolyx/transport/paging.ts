import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Endpoint } from './catalogue';
import { pathOf } from './catalogue';
import type { KnolyxClient, PagedCallOptions } from './client';
import type { ListPage } from './decode';
import { pageItems } from './decode';
import { keyOf } from '../helpers/entries';

// The page shapes are read where every answer is decoded; the API files read them from here.
export { pageItems };

/** Paged lists: every page of a list endpoint, or up to a limit. */

/** The largest page the node asks for (the sandbox's largest; a platform may serve more or fewer). */
const MAX_PAGE_SIZE = 100;
/** Return All gives up after this many pages even when every page brings new entries. */
const MAX_PAGES = 10_000;

/**
 * Reads a paged list from an endpoint of the catalogue (`pagination.page` zero-based,
 * `pagination.size`), each entry once (by its key: `keyOf`), all of it or up to `limit` entries.
 *
 * The list ends only where the platform says so:
 * - an empty page;
 * - a page shorter than the platform's own page size, the longest page it has served (it may
 *   clamp the size below what was asked, or serve more than asked: a size of its own);
 * - a page object's `last: true`, or as many entries as its `totalElements` (or `total`);
 * - a page that brings no entry not read before (the same entries again, in any order: a page
 *   past the end repeating the last one, pages that wrap, a list served whole again).
 * A page longer than asked is read on, on every list: the platform chose its own size, and an
 * array says nothing of what follows it. A list served whole (it ignores the page and the size)
 * costs one request more, whose page repeats it.
 * When the second page repeats a first page of exactly the size asked, one page of one entry
 * tells a list served whole (it answers more than one) from one that honours the size but
 * ignores the page number, which would never end: that one fails. So does a page object whose
 * `last` or total contradicts what came (an empty or repeated page while it says there is
 * more, `last: true` short of its total).
 */
export async function readPages<T = IDataObject>(
	client: KnolyxClient,
	endpoint: Endpoint,
	options: PagedCallOptions,
): Promise<T[]> {
	const path = pathOf(endpoint, options.params);
	const wanted = options.returnAll ? Infinity : Math.max(0, options.limit ?? 50);
	const size = Math.min(
		MAX_PAGE_SIZE,
		Number.isFinite(wanted) ? Math.max(1, wanted) : MAX_PAGE_SIZE,
	);
	const pageOf = async (page: number, pageSize: number) => {
		const { body } = await client.call<unknown>(endpoint, {
			params: options.params,
			qs: { ...options.qs, 'pagination.page': page, 'pagination.size': pageSize },
			subject: options.subject,
			itemIndex: options.itemIndex,
		});
		// The client has checked the answer's shape: every paged endpoint's catalogue shape is 'page'.
		return pageItems<T>(body) as ListPage<T>;
	};
	const fail = (what: string) => endlessList(client, path, what, options.itemIndex);
	const results: T[] = [];
	const keys = new Set<string>();
	let longest = 0;
	for (let page = 0; results.length < wanted; page++) {
		if (page >= MAX_PAGES) throw fail(`read ${MAX_PAGES} pages without reaching the end`);
		const read = await pageOf(page, size);
		const { items } = read;
		const fresh = items.filter((item) => {
			const key = String(keyOf(item as IDataObject));
			if (keys.has(key)) return false;
			keys.add(key);
			return true;
		});
		if (fresh.length === 0) {
			// The end of the list: no page, or the same entries again.
			const what =
				items.length === 0 ? `page ${page} is empty` : `page ${page} repeats entries already read`;
			if (
				items.length === size &&
				page === 1 &&
				// Asked for one entry, more come: the list ignores the size as well as the page
				// number, so the page read is the whole list.
				(await pageOf(0, 1)).items.length <= 1
			)
				throw fail(`page 1 repeats page 0`);
			const contradiction = saysMore(read, results.length);
			if (contradiction !== undefined) throw fail(`${what}, but ${contradiction}`);
			break;
		}
		results.push(...fresh);
		longest = Math.max(longest, items.length);
		if (read.last === true) {
			if (read.total !== undefined && results.length < read.total)
				throw fail(
					`page ${page} says it is the last, with totalElements ${read.total}, after ${results.length} entries`,
				);
			break;
		}
		if (read.total !== undefined && results.length >= read.total) break;
		if (read.last === undefined && read.total === undefined && items.length < longest) break;
	}
	return results.slice(0, wanted);
}

/** What a page object says that contradicts the list ending here, after `read` entries. */
function saysMore(page: ListPage<unknown>, read: number): string | undefined {
	if (page.total !== undefined && read < page.total)
		return `it says totalElements ${page.total}, and ${read} entries came`;
	if (page.last === false) return 'it says last: false';
	return undefined;
}

function endlessList(
	client: KnolyxClient,
	path: string,
	what: string,
	itemIndex?: number,
): NodeApiError {
	return new NodeApiError(
		client.node,
		{ message: what },
		{
			message: `Knolyx: the list ${path} does not end: ${what} [200]`,
			description:
				'The platform seems to ignore the page number, or its page object says more than it serves, so the whole list cannot be read. Use Limit instead of Return All, or report it to Knolyx.',
			itemIndex,
		},
	);
}
