import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';
import { readPages } from '../paging';
import type { Paging } from './types';
import { isRecord } from '../../helpers/objects';
import type { Id } from '../../helpers/validation';

/** Events of a community, and their attendance. */

export interface EventRef {
	communityId: Id;
	eventId: Id;
}

export interface Attendance {
	communityId: Id;
	eventId: Id;
	userId: Id;
}

/** `eventList`: the events of a community. */
export async function listEvents(
	client: KnolyxClient,
	communityId: Id,
	paging: Paging,
): Promise<IDataObject[]> {
	return await readPages<IDataObject>(client, ENDPOINTS.eventList, {
		params: { communityId },
		...paging,
	});
}

/** `eventGet`. */
export async function getEvent(
	client: KnolyxClient,
	event: EventRef,
	itemIndex?: number,
): Promise<KnolyxResponse<IDataObject>> {
	return await client.call<IDataObject>(ENDPOINTS.eventGet, { params: { ...event }, itemIndex });
}

/** `eventAttendees`: the attendees of an event. */
export async function listAttendees(
	client: KnolyxClient,
	event: EventRef,
	paging: Paging,
): Promise<IDataObject[]> {
	return await readPages<IDataObject>(client, ENDPOINTS.eventAttendees, {
		params: { ...event },
		...paging,
	});
}

/** `eventAttend`: 200 on success; 409 (already registered) is success too, the call is idempotent. */
export async function attendEvent(
	client: KnolyxClient,
	attendance: Attendance,
	itemIndex?: number,
): Promise<IDataObject> {
	const { communityId, eventId, userId } = attendance;
	const { statusCode, body } = await client.call(ENDPOINTS.eventAttend, {
		params: { communityId, eventId, userId },
		subject: {
			forbidden: `Knolyx refuses attendance when user ${userId} has no access to community ${communityId}: add the user to a workgroup that gives access to it first`,
		},
		itemIndex,
		acceptStatuses: [409],
	});
	return {
		...(statusCode !== 409 && isRecord(body) ? body : {}),
		communityId,
		eventId,
		userId,
		attending: true,
		alreadyAttending: statusCode === 409,
	};
}

/** `eventCancelAttendance`. */
export async function cancelAttendance(
	client: KnolyxClient,
	attendance: Attendance,
	itemIndex?: number,
): Promise<KnolyxResponse> {
	return await client.call(ENDPOINTS.eventCancelAttendance, {
		params: { ...attendance },
		itemIndex,
	});
}
