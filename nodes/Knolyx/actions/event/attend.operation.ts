import { updateDisplayOptions } from 'n8n-workflow';

import { attendEvent } from '../../transport';
import type { KnolyxOperation } from '../types';
import type { AttendanceParams } from './shared';
import { attendanceFields, readAttendance } from './shared';

const displayOptions = { show: { resource: ['event'], operation: ['attend'] } };

export const attend: KnolyxOperation<AttendanceParams> = {
	option: {
		name: 'Attend',
		description:
			'Mark a user as attending. The user needs community access through a workgroup. Already attending counts as success. Needs EVENT_MANAGE.',
		action: 'Mark a user as attending an event',
	},
	agent: { effects: ['changePerson'] },
	readme: {
		does: "Mark a user as attending the picked event (already attending counts as success: `alreadyAttending: true`); an answer in words (a text, `null`, `false`) counts only when the event's attendee list shows the user (that read needs EVENT_READ), else the item fails as *not confirmed*",
	},
	description: updateDisplayOptions(displayOptions, attendanceFields),
	prepare(itemIndex) {
		return readAttendance(this, itemIndex);
	},
	async execute({ communityId, eventId, userId }, runtime) {
		return await attendEvent(runtime.client, { communityId, eventId, userId }, runtime.itemIndex);
	},
};
