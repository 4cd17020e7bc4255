import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { createHash } from 'node:crypto';

import type { Endpoint } from './catalogue';
import { pathOf } from './catalogue';
import type { KnolyxClient, PagedCallOptions } from './client';
import { pageItems } from './decode';

// The page shapes are read where every answer is decoded; the API files read them from here.
export { pageItems };

/** Paged lists: every page of a list endpoint, or up to a limit. */

/** The largest page the platform is known to serve; larger requests may be clamped. */
const MAX_PAGE_SIZE = 100;
/** Return All gives up after this many pages even when no page repeats. */
const MAX_PAGES = 10_000;

/**
 * Reads a paged list from an endpoint of the catalogue (`pagination.page` zero-based,
 * `pagination.size`).
 * Stops at an empty page, at a page shorter than the longest seen (a server
 * may clamp the size below what was asked), or when `limit` items are collected.
 * The guides do not say that every list pages (the workgroup list shows no paging parameters),
 * so a list that ignores paging is read as one list, at any size: a first page longer than
 * asked for is the whole list; a page equal to the one before ends the list (a page past the end
 * that repeats the last one, or a list served whole again). Only when a full first page comes
 * again is one more, smaller page asked for, to tell a list served whole (it ignores the size
 * too) from one that honours the size but not the page number: that one would never end, and is
 * an error rather than a list cut short. A page equal to an earlier one than the last is an error.
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
		return pageItems<T>(body) as { items: T[]; last: boolean };
	};
	const results: T[] = [];
	let longest = 0;
	const seen = new Map<string, number>();
	for (let page = 0; results.length < wanted; page++) {
		if (page >= MAX_PAGES)
			throw endlessList(
				client,
				path,
				`read ${MAX_PAGES} pages without reaching the end`,
				options.itemIndex,
			);
		const { items, last } = await pageOf(page, size);
		if (items.length === 0) break;
		if (page === 0 && items.length > size) {
			// More than asked for: the list ignores paging, and this is all of it.
			results.push(...items);
			break;
		}
		const signature = createHash('sha1').update(JSON.stringify(items)).digest('base64');
		const earlier = seen.get(signature);
		if (earlier !== undefined) {
			const wholeAgain =
				earlier === page - 1 &&
				// Asked for one entry, more come: the list ignores the size as well as the page
				// number, so the page read is the whole list.
				(page > 1 || items.length < size || (await pageOf(0, 1)).items.length > 1);
			if (wholeAgain) break;
			throw endlessList(client, path, `page ${page} repeats page ${earlier}`, options.itemIndex);
		}
		seen.set(signature, page);
		results.push(...items);
		longest = Math.max(longest, items.length);
		if (last || items.length < longest) break;
	}
	return results.slice(0, wanted);
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
				'The platform seems to ignore the page number, so reading every page would never stop. Use Limit instead of Return All, or report it to Knolyx.',
			itemIndex,
		},
	);
}
