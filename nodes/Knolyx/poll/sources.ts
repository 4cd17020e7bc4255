import type { IDataObject, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import { apiPath, KnolyxClient } from '../transport';

/** The complete lists a poll reads, each through the transport's paging (all pages, 100 a page). */

const permission = 'EVENT_READ' as const;

/** The transport's client for a poll or its event picker. */
export function pollClient(ctx: IPollFunctions | ILoadOptionsFunctions): KnolyxClient {
	return new KnolyxClient(ctx);
}

export async function readEvents(client: KnolyxClient, communityId: number): Promise<IDataObject[]> {
	return await client.getPaged<IDataObject>(apiPath`/community/${communityId}/event/paged`, {
		returnAll: true,
		subject: { notFound: `community ${communityId}`, permission },
	});
}

export async function readAttendees(client: KnolyxClient, communityId: number, eventId: number | string): Promise<IDataObject[]> {
	return await client.getPaged<IDataObject>(apiPath`/community/${communityId}/event/${eventId}/attendees/paged`, {
		returnAll: true,
		subject: { notFound: `event ${eventId} of community ${communityId}`, permission },
	});
}

export async function readCourses(client: KnolyxClient): Promise<IDataObject[]> {
	return await client.getPaged<IDataObject>('/course', { returnAll: true, subject: { permission: 'COURSE_LIST' } });
}
