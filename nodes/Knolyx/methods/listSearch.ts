import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { KnolyxClient } from '../transport';
import type { KnolyxPermission } from '../transport';

/** Lists for the Course and Workgroup pickers, filtered by the text typed. */
async function search(
	ctx: ILoadOptionsFunctions,
	path: string,
	label: string,
	permission: KnolyxPermission,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = new KnolyxClient(ctx);
	const entries = await client.getPaged<IDataObject>(path, { returnAll: true, subject: { permission } });
	const needle = (filter ?? '').trim().toLowerCase();
	const results = entries
		.map((entry) => ({ name: String(entry[label] ?? entry.name ?? entry.id), value: String(entry.id) }))
		.filter((entry) => needle === '' || entry.name.toLowerCase().includes(needle) || entry.value === needle)
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

export async function searchCourses(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, '/course', 'title', 'COURSE_LIST', filter);
}

export async function searchWorkgroups(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, '/workgroup', 'name', 'WORKGROUP_LIST', filter);
}
