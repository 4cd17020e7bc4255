import { updateDisplayOptions } from 'n8n-workflow';

import { requireId } from '../../helpers/validation';
import { attendEvent } from '../../transport';
import { provisionAndAddMemberWithUserId } from '../enrol';
import type { Enrolment } from '../enrol';
import { readRemovalDate, removalDateField, resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';
import { readUser, userFields, userOptions } from '../user/shared';
import type { EventRef } from './shared';
import { communityField, eventField, readEventRef } from './shared';

const displayOptions = { show: { resource: ['event'], operation: ['register'] } };

/** Event registration in one node: provision, add to the community's workgroup, mark attendance. */
export const register: KnolyxOperation<EventRef & Enrolment> = {
	option: {
		name: 'Register',
		description:
			'Event registration in one step: provision the user, add them to the community workgroup, mark attendance. Needs USER_PROVISION, WORKGROUP_ADD_MEMBER and EVENT_MANAGE.',
		action: 'Register a user for an event',
	},
	agent: { effects: ['changePerson'] },
	readme: {
		does: 'Flow A in one node: provision, add to the community workgroup, mark attendance at the picked event (Options → Send Welcome Email as in Provision)',
	},
	description: updateDisplayOptions(displayOptions, [
		...userFields,
		resourceLocator('workgroup', 'The workgroup that gives access to the community of the event'),
		communityField,
		eventField,
		removalDateField,
		userOptions,
	]),
	prepare(itemIndex) {
		return {
			user: readUser(this, itemIndex),
			workgroupId: requireId(this, itemIndex, 'workgroupId', 'Workgroup'),
			...readEventRef(this, itemIndex),
			removalDate: readRemovalDate(this, itemIndex),
		};
	},
	async execute(params, runtime) {
		const { provisioned, userId, membership } = await provisionAndAddMemberWithUserId(
			runtime,
			params,
		);
		const attendanceResult = await attendEvent(
			runtime.client,
			{ communityId: params.communityId, eventId: params.eventId, userId },
			runtime.itemIndex,
		);
		return {
			email: params.user.email,
			userId,
			created: provisioned.created,
			user: provisioned.user,
			workgroupId: params.workgroupId,
			membership,
			communityId: params.communityId,
			eventId: params.eventId,
			attending: true,
			alreadyAttending: attendanceResult.alreadyAttending,
		};
	},
};
