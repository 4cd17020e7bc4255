import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Id } from '../../helpers/validation';
import { requireLongId } from '../../helpers/validation';
import { idField, resourceLocator } from '../common';

/** Fields of community events: attendance (EVENT_MANAGE) and reads (EVENT_READ). */

// The Knolyx API has no list of communities, so Community ID stays a typed ID (as in the Poll Trigger).
export const communityField = idField(
	'communityId',
	'Community ID',
	'Numeric ID of the community (see its address in Knolyx). The Knolyx API has no list of communities to pick from.',
);
/**
 * The Event picker, the Poll Trigger's: the events of the community typed in Community ID, or an ID.
 * Workflows saved before it was a picker hold a plain ID string here; `requireLongId` reads both shapes.
 */
export const eventField = resourceLocator(
	'event',
	'The event. Pick it from the events of the community given in Community ID (searchable by title), or give its numeric ID.',
);

export interface EventRef {
	communityId: Id;
	eventId: Id;
}

export function readEventRef(ctx: IExecuteFunctions, itemIndex: number): EventRef {
	return {
		communityId: requireLongId(ctx, itemIndex, 'communityId', 'Community ID'),
		eventId: requireLongId(ctx, itemIndex, 'eventId', 'Event'),
	};
}

export interface AttendanceParams extends EventRef {
	userId: Id;
}

/** Community, event and user: the fields of Attend and Cancel Attendance. */
export const attendanceFields: INodeProperties[] = [
	communityField,
	eventField,
	idField(
		'userId',
		'User ID',
		'Numeric Knolyx ID of the user, e.g. the "id" returned by User → Provision',
	),
];

export function readAttendance(ctx: IExecuteFunctions, itemIndex: number): AttendanceParams {
	return {
		...readEventRef(ctx, itemIndex),
		userId: requireLongId(ctx, itemIndex, 'userId', 'User ID'),
	};
}
