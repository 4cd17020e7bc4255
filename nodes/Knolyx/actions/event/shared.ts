import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireId } from '../../helpers/validation';
import { idField } from '../common';

/** Fields of community events: attendance (EVENT_MANAGE) and reads (EVENT_READ). */

export const communityField = idField('communityId', 'Community ID', 'Numeric ID of the community (see its address in Knolyx)');
export const eventField = idField('eventId', 'Event ID', 'Numeric ID of the event, e.g. from Event → Get Many');

export interface EventRef {
	communityId: number;
	eventId: number;
}

export function readEventRef(ctx: IExecuteFunctions, itemIndex: number): EventRef {
	return {
		communityId: requireId(ctx, itemIndex, 'communityId', 'Community ID'),
		eventId: requireId(ctx, itemIndex, 'eventId', 'Event ID'),
	};
}

export interface AttendanceParams extends EventRef {
	userId: number;
}

/** Community, event and user: the fields of Attend and Cancel Attendance. */
export const attendanceFields: INodeProperties[] = [
	communityField,
	eventField,
	idField('userId', 'User ID', 'Numeric Knolyx ID of the user, e.g. the "id" returned by User → Provision'),
];

export function readAttendance(ctx: IExecuteFunctions, itemIndex: number): AttendanceParams {
	return { ...readEventRef(ctx, itemIndex), userId: requireId(ctx, itemIndex, 'userId', 'User ID') };
}
