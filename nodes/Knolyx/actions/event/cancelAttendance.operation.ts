import { updateDisplayOptions } from 'n8n-workflow';

import { cancelAttendance as cancelAttendanceCall } from '../../transport';
import { asObject } from '../common';
import type { KnolyxOperation } from '../types';
import type { AttendanceParams } from './shared';
import { attendanceFields, readAttendance } from './shared';

const displayOptions = { show: { resource: ['event'], operation: ['cancelAttendance'] } };

export const cancelAttendance: KnolyxOperation<AttendanceParams> = {
	option: {
		name: 'Cancel Attendance',
		description: "Cancel a user's attendance. Needs EVENT_MANAGE.",
		action: 'Cancel attendance of a user',
	},
	agent: { effects: ['changePerson'] },
	readme: { does: "Cancel a user's attendance at the picked event" },
	description: updateDisplayOptions(displayOptions, attendanceFields),
	prepare(itemIndex) {
		return readAttendance(this, itemIndex);
	},
	async execute({ communityId, eventId, userId }, runtime) {
		const { body } = await cancelAttendanceCall(
			runtime.client,
			{ communityId, eventId, userId },
			runtime.itemIndex,
		);
		return { ...asObject(body), communityId, eventId, userId, attending: false };
	},
};
