import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { KnolyxClient, listCourses, listWorkgroups } from '../transport';

/** Lists for the Course and Workgroup pickers, filtered by the text typed. */
async function search(
	ctx: ILoadOptionsFunctions,
	read: (client: KnolyxClient) => Promise<IDataObject[]>,
	label: string,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = new KnolyxClient(ctx);
	const entries = await read(client);
	const needle = (filter ?? '').trim().toLowerCase();
	const results = entries
		.map((entry) => ({ name: String(entry[label] ?? entry.name ?? entry.id), value: String(entry.id) }))
		.filter((entry) => needle === '' || entry.name.toLowerCase().includes(needle) || entry.value === needle)
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

export async function searchCourses(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, async (client) => await listCourses(client, { returnAll: true }), 'title', filter);
}

export async function searchWorkgroups(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, async (client) => await listWorkgroups(client, { returnAll: true }), 'name', filter);
}
