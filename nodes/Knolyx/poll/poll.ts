import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { KnolyxClient } from '../transport';
import type { PollSettings } from './settings';
import { readSettings, watchKey } from './settings';
import type { ListMemory, PollState } from './state';
import { diffList, MAX_REMEMBERED, readState, rememberedCount } from './state';
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

/** Reads every list the settings watch, completely; throws (after the transport's retries) if any page fails. */
async function readAll(client: KnolyxClient, settings: PollSettings, baseline: boolean): Promise<ListRead[]> {
	if (settings.event === 'newCourse') {
		return [{ list: 'courses', entries: await readCourses(client), context: {}, emitted: true, newWhenUnknown: false }];
	}
	const { communityId } = settings;
	if (settings.event === 'newEvent') {
		return [{ list: EVENTS_LIST, entries: await readEvents(client, communityId), context: {}, emitted: true, newWhenUnknown: false }];
	}
	if (settings.scope === 'event') {
		const { eventId } = settings;
		return [
			{
				list: attendeesList(eventId),
				entries: await readAttendees(client, communityId, eventId),
				context: { communityId, eventId },
				emitted: true,
				newWhenUnknown: false,
			},
		];
	}
	const events = await readEvents(client, communityId);
	// The transport's limiter bounds how many of these run at once.
	const attendees = await Promise.all(
		events.map(async (event) => {
			const eventId = event.id as number | string;
			return {
				list: attendeesList(eventId),
				entries: await readAttendees(client, communityId, eventId),
				context: { communityId, eventId },
				emitted: true,
				newWhenUnknown: !baseline,
			};
		}),
	);
	return [{ list: EVENTS_LIST, entries: events, context: {}, emitted: false, newWhenUnknown: false }, ...attendees];
}

/**
 * Compares the reads with the state. Lists not read this time are kept only
 * while their event is remembered as missing once (see state.ts).
 */
function compare(state: PollState | undefined, reads: ListRead[], settings: PollSettings) {
	const lists: Record<string, ListMemory> = {};
	const fresh: Array<{ entry: IDataObject; context: IDataObject }> = [];
	for (const read of reads) {
		const diff = diffList(state?.lists[read.list], read.entries, read.newWhenUnknown);
		lists[read.list] = diff.next;
		if (read.emitted) fresh.push(...diff.fresh.map((entry) => ({ entry, context: read.context })));
	}
	if (state && settings.event === 'newAttendee' && settings.scope === 'community') {
		for (const eventId of lists[EVENTS_LIST]?.missing ?? []) {
			const kept = state.lists[attendeesList(eventId)];
			if (kept) lists[attendeesList(eventId)] = kept;
		}
	}
	return { lists, fresh };
}

const ENTRY_NAMES: Record<PollSettings['event'], string> = {
	newAttendee: 'attendee',
	newEvent: 'event',
	newCourse: 'course',
};

function where(settings: PollSettings): string {
	if (settings.event === 'newCourse') return 'the course list';
	if (settings.event === 'newEvent' || settings.scope === 'community') return `community ${settings.communityId}`;
	return `event ${settings.eventId} of community ${settings.communityId}`;
}

const item = (entry: IDataObject, context: IDataObject, detectedAt: string): INodeExecutionData => ({
	json: { ...entry, ...context, detectedAt },
});

/** Manual runs and "Fetch Test Event": the entry Knolyx lists last, nothing remembered. */
async function newest(ctx: IPollFunctions, client: KnolyxClient, settings: PollSettings): Promise<INodeExecutionData[][]> {
	const reads = (await readAll(client, settings, true)).filter((read) => read.emitted && read.entries.length > 0);
	const last = reads.at(-1);
	if (!last) {
		throw new NodeOperationError(ctx.getNode(), `No ${ENTRY_NAMES[settings.event]} in ${where(settings)} yet, so there is no test entry to show`, {
			description: `Add one in Knolyx, then fetch again. The active workflow starts on every ${ENTRY_NAMES[settings.event]} added after it is published.`,
		});
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
		ctx.logger.debug('Knolyx Poll Trigger: the previous poll is still running, this one is skipped');
		return null;
	}
	running.add(lock);
	try {
		const staticData = ctx.getWorkflowStaticData('node');
		const watch = watchKey(settings);
		const state = readState(staticData.state, watch);
		const reads = await readAll(client, settings, state === undefined);
		const { lists, fresh } = compare(state, reads, settings);

		const remembered = rememberedCount(lists);
		if (remembered > MAX_REMEMBERED) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${where(settings)} holds ${remembered} entries, more than the ${MAX_REMEMBERED} the Knolyx Poll Trigger can remember`,
				{
					description:
						'Nothing was emitted and nothing was recorded. Watch one event instead of every event of the community, or use a workflow that lists the entries itself.',
				},
			);
		}
		const detectedAt = new Date().toISOString();
		// Assigned whole (not edited in place) so n8n sees that the static data changed and saves it.
		staticData.state = { v: 1, watch, lists, polledAt: detectedAt } satisfies PollState as unknown as IDataObject;
		if (state === undefined || fresh.length === 0) return null;
		return [fresh.map(({ entry, context }) => item(entry, context, detectedAt))];
	} finally {
		running.delete(lock);
	}
}
