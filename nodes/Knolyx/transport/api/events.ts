import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';
import type { WriteAnswer } from '../confirm';
import { notConfirmed, writeAnswerOf } from '../confirm';
import { asNodeError } from '../errors';
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

/** Whether an attendee entry is the user (its id as a number or as digits). */
function isUser(entry: IDataObject, userId: Id): boolean {
	const id = entry.id ?? entry.userId;
	return (typeof id === 'number' || typeof id === 'string') && String(id).trim() === String(userId);
}

/**
 * A write on attendance whose answer said something (a text, `null`, `false`): the event's
 * attendee list decides. `wanted`: whether the user must be listed (attend) or not (cancel).
 * Anything else than the list showing it fails as not confirmed, naming the answer.
 */
async function checkAttendance(
	client: KnolyxClient,
	attendance: Attendance,
	answer: WriteAnswer,
	status: number,
	wanted: boolean,
	itemIndex?: number,
): Promise<void> {
	const { communityId, eventId, userId } = attendance;
	const what = `${wanted ? 'Attendance' : 'Cancelled attendance'} of user ${userId} at event ${eventId} of community ${communityId}`;
	let listed: boolean;
	try {
		const attendees = await listAttendees(
			client,
			{ communityId, eventId },
			{ returnAll: true, itemIndex },
		);
		listed = attendees.some((entry) => isUser(entry, userId));
	} catch (error) {
		const failure = asNodeError(client.node, error, itemIndex);
		throw notConfirmed(client.node, {
			what,
			answer,
			status,
			checked: `the event's attendee list that would show it could not be read (${failure.message})`,
			itemIndex,
		});
	}
	if (listed === wanted) return;
	throw notConfirmed(client.node, {
		what,
		answer,
		status,
		checked: `the event's attendee list ${wanted ? 'does not show' : 'still shows'} the user`,
		itemIndex,
	});
}

/**
 * `eventAttend`: confirmed by a 2xx with nothing in it or a JSON object (the docs show no answer),
 * or by 409 (the guides: already registered; the call is idempotent). An answer that says
 * something else (a text, `null`, `false`) is checked in the event's attendee list.
 */
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
	const answer = writeAnswerOf(body);
	if (statusCode !== 409 && answer.kind === 'said')
		await checkAttendance(client, attendance, answer, statusCode, true, itemIndex);
	return {
		...(statusCode !== 409 && isRecord(body) ? body : {}),
		communityId,
		eventId,
		userId,
		attending: true,
		alreadyAttending: statusCode === 409,
	};
}

/** `eventCancelAttendance`: confirmed as attend is, an answer that says something by the attendee list. */
export async function cancelAttendance(
	client: KnolyxClient,
	attendance: Attendance,
	itemIndex?: number,
): Promise<KnolyxResponse> {
	const response = await client.call(ENDPOINTS.eventCancelAttendance, {
		params: { ...attendance },
		itemIndex,
	});
	const answer = writeAnswerOf(response.body);
	if (!response.alreadyDone && answer.kind === 'said')
		await checkAttendance(client, attendance, answer, response.statusCode, false, itemIndex);
	return response;
}
