import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { KnolyxClient } from '../transport';
import type { PollSettings } from './settings';
import { readSettings, watchKey } from './settings';
import type { ListMemory, PollState } from './state';
import { diffList, distinct, keyOf, MAX_REMEMBERED, presentCount, readState } from './state';
import { pollClient, readAttendees, readCourses, readEvents } from './sources';

/** One complete read of a watched list. */
interface ListRead {
	/** Memory key, e.g. 'attendees:401'. */
	list: string;
	entries: IDataObject[];
	/** Fields added to each emitted entry (which event an attendee registered for). */
	context: IDataObject;
	/** Whether its entries are emitted (the events list of "every event" only tracks events). */
	emitted: boolean;
	/** Whether all its entries are new when the list is not remembered yet (an event published after the baseline). */
	newWhenUnknown: boolean;
}

const EVENTS_LIST = 'events';
const attendeesList = (eventId: unknown) => `attendees:${String(eventId)}`;

/**
 * One list, read completely. At the first check (`twice`) it is read a second time right after,
 * and the baseline is what either reading listed: an entry deleted or moved while the pages are
 * read shifts the rest by one place, so one reading can miss an entry that existed all along; it
 * must not be taken for new at the next check.
 */
async function readList(
	read: () => Promise<IDataObject[]>,
	twice: boolean,
): Promise<IDataObject[]> {
	const first = await read();
	return distinct(twice ? [...first, ...(await read())] : first);
}

/** The platform answered 404 (the transport's error carries the status). */
const isNotFound = (error: unknown) =>
	(error as { httpCode?: unknown } | undefined)?.httpCode === '404';

/** Reads every list the settings watch, completely; throws (after the transport's retries) if any page fails. */
async function readAll(
	client: KnolyxClient,
	settings: PollSettings,
	baseline: boolean,
	twice: boolean,
): Promise<ListRead[]> {
	if (settings.event === 'newCourse') {
		return [
			{
				list: 'courses',
				entries: await readList(async () => await readCourses(client), twice),
				context: {},
				emitted: true,
				newWhenUnknown: false,
			},
		];
	}
	const { communityId } = settings;
	const events = async () => await readEvents(client, communityId);
	if (settings.event === 'newEvent') {
		return [
			{
				list: EVENTS_LIST,
				entries: await readList(events, twice),
				context: {},
				emitted: true,
				newWhenUnknown: false,
			},
		];
	}
	if (settings.scope === 'event') {
		const { eventId } = settings;
		return [
			{
				list: attendeesList(eventId),
				entries: await readList(
					async () => await readAttendees(client, communityId, eventId),
					twice,
				),
				context: { communityId, eventId },
				emitted: true,
				newWhenUnknown: false,
			},
		];
	}
	// Every event of the community. The transport's limiter bounds how many reads run at once.
	const attendeesOf = async (listed: IDataObject[]): Promise<ListRead[]> => {
		const notFound: Array<{ event: IDataObject; error: unknown }> = [];
		const reads = await Promise.all(
			listed.map(async (event): Promise<ListRead | undefined> => {
				const eventId = event.id as number | string;
				const entries = await readList(
					async () => await readAttendees(client, communityId, eventId),
					twice,
				).catch(async (error: unknown) => {
					if (!isNotFound(error)) return await Promise.reject(error);
					notFound.push({ event, error });
					return undefined;
				});
				if (entries === undefined) return undefined;
				return {
					list: attendeesList(eventId),
					entries,
					context: { communityId, eventId },
					emitted: true,
					newWhenUnknown: !baseline,
				};
			}),
		);
		if (notFound.length > 0) {
			// Deleted after the events were read, if the events list no longer holds it: then it counts as
			// not listed (see compare()). Still listed, the 404 is not a deletion and fails the poll, which
			// changes nothing (forgetting the event would make all its attendees new when it answers again).
			const still = new Set(distinct(await events()).map((event) => String(keyOf(event))));
			const listedStill = notFound.find(({ event }) => still.has(String(keyOf(event))));
			if (listedStill) return await Promise.reject(listedStill.error);
		}
		return reads.filter((read) => read !== undefined);
	};
	// An event listed twice (it moved to the next page while the pages were read) is read once.
	let listed = distinct(await events());
	const attendees = await attendeesOf(listed);
	if (twice) {
		// The events are read again after their attendees: an event the first reading missed is read now.
		const known = new Set(listed.map(keyOf).map(String));
		const missed = distinct(await events()).filter((event) => !known.has(String(keyOf(event))));
		attendees.push(...(await attendeesOf(missed)));
		listed = [...listed, ...missed];
	}
	const read = new Set(attendees.map((attendee) => attendee.list));
	const present = listed.filter((event) => read.has(attendeesList(event.id)));
	return [
		{ list: EVENTS_LIST, entries: present, context: {}, emitted: false, newWhenUnknown: false },
		...attendees,
	];
}

/**
 * Compares the reads with the state. Lists not read this time are kept only
 * while their event is remembered as missing once (see state.ts). `present`
 * counts the entries the reads listed, what the bound applies to.
 */
function compare(state: PollState | undefined, reads: ListRead[], settings: PollSettings) {
	const lists: Record<string, ListMemory> = {};
	const fresh: Array<{ entry: IDataObject; context: IDataObject }> = [];
	let present = 0;
	for (const read of reads) {
		const diff = diffList(state?.lists[read.list], read.entries, read.newWhenUnknown);
		lists[read.list] = diff.next;
		present += presentCount(diff.next);
		if (read.emitted) fresh.push(...diff.fresh.map((entry) => ({ entry, context: read.context })));
	}
	if (state && settings.event === 'newAttendee' && settings.scope === 'community') {
		for (const eventId of lists[EVENTS_LIST]?.missing ?? []) {
			const kept = state.lists[attendeesList(eventId)];
			if (kept) lists[attendeesList(eventId)] = kept;
		}
	}
	return { lists, fresh, present };
}

const ENTRY_NAMES: Record<PollSettings['event'], string> = {
	newAttendee: 'attendee',
	newEvent: 'event',
	newCourse: 'course',
};

function where(settings: PollSettings): string {
	if (settings.event === 'newCourse') return 'the course list';
	if (settings.event === 'newEvent' || settings.scope === 'community')
		return `community ${settings.communityId}`;
	return `event ${settings.eventId} of community ${settings.communityId}`;
}

const item = (
	entry: IDataObject,
	context: IDataObject,
	detectedAt: string,
): INodeExecutionData => ({
	json: { ...entry, ...context, detectedAt },
});

/** Manual runs and "Fetch Test Event": the entry Knolyx lists last, nothing remembered. */
async function newest(
	ctx: IPollFunctions,
	client: KnolyxClient,
	settings: PollSettings,
): Promise<INodeExecutionData[][]> {
	const reads = (await readAll(client, settings, true, false)).filter(
		(read) => read.emitted && read.entries.length > 0,
	);
	const last = reads.at(-1);
	if (!last) {
		throw new NodeOperationError(
			ctx.getNode(),
			`No ${ENTRY_NAMES[settings.event]} in ${where(settings)} yet, so there is no test entry to show`,
			{
				description: `Add one in Knolyx, then fetch again. The active workflow starts on every ${ENTRY_NAMES[settings.event]} added after it is published.`,
			},
		);
	}
	return [[item(last.entries[last.entries.length - 1], last.context, new Date().toISOString())]];
}

/** Polls of one node that are running in this process: a poll that overlaps another is skipped. */
const running = new Set<string>();

export async function poll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(ctx);
	const client = pollClient(ctx);
	if (ctx.getMode() === 'manual') return await newest(ctx, client, settings);

	const lock = `${ctx.getWorkflow().id ?? ''}\u0000${ctx.getNode().id}`;
	if (running.has(lock)) {
		ctx.logger.debug(
			'Knolyx Poll Trigger: the previous poll is still running, this one is skipped',
		);
		return null;
	}
	running.add(lock);
	try {
		const staticData = ctx.getWorkflowStaticData('node');
		const watch = watchKey(settings);
		const state = readState(staticData.state, watch);
		const reads = await readAll(client, settings, state === undefined, state === undefined);
		const { lists, fresh, present } = compare(state, reads, settings);

		if (present > MAX_REMEMBERED) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${where(settings)} holds ${present} entries, more than the ${MAX_REMEMBERED} the Knolyx Poll Trigger can remember`,
				{
					description:
						'Nothing was emitted and nothing was recorded. The first check after the list is back under the bound starts the workflow with what was added meanwhile. To watch more, watch one event instead of every event of the community, or use a workflow that lists the entries itself.',
				},
			);
		}
		const detectedAt = new Date().toISOString();
		// Assigned whole (not edited in place) so n8n sees that the static data changed and saves it.
		staticData.state = {
			v: 1,
			watch,
			lists,
			polledAt: detectedAt,
		} satisfies PollState as unknown as IDataObject;
		if (state === undefined || fresh.length === 0) return null;
		return [fresh.map(({ entry, context }) => item(entry, context, detectedAt))];
	} finally {
		running.delete(lock);
	}
}
