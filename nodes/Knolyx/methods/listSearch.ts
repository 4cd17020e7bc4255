import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Id } from '../helpers/validation';
import { parseLongId } from '../helpers/validation';
import { KnolyxClient, listCourses, listEvents, listWorkgroups } from '../transport';
import type { Paging } from '../transport';

/**
 * The lists of the "From List" pickers (see ./locators), for both nodes: courses, workgroups and
 * the events of a community. Each reads the whole list (all pages) and keeps the entries whose
 * name contains the text typed, or whose ID is the text typed.
 */

interface Choice extends INodeListSearchItems {
	/** Sorts the list: newest first when given (events), otherwise by name. */
	start?: string;
}

function choose(choices: Choice[], filter?: string): INodeListSearchResult {
	const needle = (filter ?? '').trim().toLowerCase();
	const results = choices
		.filter(
			(choice) =>
				needle === '' || choice.name.toLowerCase().includes(needle) || choice.value === needle,
		)
		.sort((a, b) => (b.start ?? '').localeCompare(a.start ?? '') || a.name.localeCompare(b.name))
		.map(({ name, value }) => ({ name, value }));
	return { results };
}

async function named(
	ctx: ILoadOptionsFunctions,
	list: (client: KnolyxClient, paging: Paging) => Promise<IDataObject[]>,
	label: string,
): Promise<Choice[]> {
	const entries = await list(new KnolyxClient(ctx), { returnAll: true });
	return entries.map((entry) => ({
		name: String(entry[label] ?? entry.name ?? entry.id),
		value: String(entry.id),
	}));
}

export async function searchCourses(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return choose(await named(this, listCourses, 'title'), filter);
}

export async function searchWorkgroups(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return choose(await named(this, listWorkgroups, 'name'), filter);
}

/** The Community ID typed in the node (Knolyx has no list of communities): the event list needs it. */
function typedCommunityId(ctx: ILoadOptionsFunctions): Id {
	const value = ctx.getCurrentNodeParameter('communityId') as unknown;
	const id = parseLongId(value);
	if (id !== undefined) return id;
	if (typeof value === 'string' && value.startsWith('=')) {
		throw new NodeOperationError(
			ctx.getNode(),
			'Community ID: the event list needs a fixed community ID, not an expression',
			{
				description: 'Type the numeric ID of the community, or give the event By ID.',
			},
		);
	}
	throw new NodeOperationError(
		ctx.getNode(),
		'Community ID: enter the numeric ID of the community first',
		{
			description: 'The event list shows the events of that community.',
		},
	);
}

/** The Event picker: the events of the community typed in Community ID, newest start first. */
export async function searchCommunityEvents(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const communityId = typedCommunityId(this);
	const events = await listEvents(new KnolyxClient(this), communityId, { returnAll: true });
	const choices = events.map((event): Choice => {
		const title = String(event.title ?? event.name ?? `Event ${String(event.id)}`);
		const start = typeof event.startDateTime === 'string' ? event.startDateTime : '';
		return { name: start ? `${title} (${start})` : title, value: String(event.id), start };
	});
	return choose(choices, filter);
}
