/** What a list call takes: every page, or up to `limit` items (see transport/paging.ts). */
export interface Paging {
	returnAll: boolean;
	limit?: number;
	itemIndex?: number;
}
