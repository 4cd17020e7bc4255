import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { currentCommunityId } from './settings';
import { pollClient, readEvents } from './sources';

/** The Event picker: the events of the community typed above, newest start first, filtered by the text typed. */
export async function searchCommunityEvents(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const communityId = currentCommunityId(this);
	const events = await readEvents(pollClient(this), communityId);
	const needle = (filter ?? '').trim().toLowerCase();
	const results = events
		.map((event) => {
			const title = String(event.title ?? event.name ?? `Event ${String(event.id)}`);
			const start = typeof event.startDateTime === 'string' ? event.startDateTime : '';
			return { name: start ? `${title} (${start})` : title, value: String(event.id), start };
		})
		.filter((event) => needle === '' || event.name.toLowerCase().includes(needle) || event.value === needle)
		.sort((a, b) => b.start.localeCompare(a.start) || a.name.localeCompare(b.name))
		.map(({ name, value }) => ({ name, value }));
	return { results };
}
