import type { IDataObject, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import { KnolyxClient, listAttendees, listCourses, listEvents } from '../transport';
import type { Id } from '../helpers/validation';

/** The complete lists a poll reads, each through the transport's paging (all pages, 100 a page). */

/** The transport's client for a poll or its event picker. */
export function pollClient(ctx: IPollFunctions | ILoadOptionsFunctions): KnolyxClient {
	return new KnolyxClient(ctx);
}

export async function readEvents(client: KnolyxClient, communityId: Id): Promise<IDataObject[]> {
	return await listEvents(client, communityId, { returnAll: true });
}

export async function readAttendees(
	client: KnolyxClient,
	communityId: Id,
	eventId: Id,
): Promise<IDataObject[]> {
	return await listAttendees(client, { communityId, eventId }, { returnAll: true });
}

export async function readCourses(client: KnolyxClient): Promise<IDataObject[]> {
	return await listCourses(client, { returnAll: true });
}
