import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../transport';
import { optionalApiDate, requireId } from '../../helpers/validation';
import { attendEvent, provisionAndAddMember } from '../calls';
import type { Enrolment } from '../calls';
import type { PagedParams } from '../common';
import { asObject, idField, readPaged, returnAllAndLimit, removalDateField, shownFor, workgroupLocator } from '../common';
import type { KnolyxOperation } from '../types';
import { readUser, userFields } from '../user/provision.operation';

/**
 * Community events: attendance (endpoints 14, 15; EVENT_MANAGE), reads (EVENT_READ), and Flow A
 * in one node.
 */

const communityHelp = 'Numeric ID of the community (see its address in Knolyx)';
const eventHelp = 'Numeric ID of the event, e.g. from Event → Get Many';

function communityField(operations: string[]): INodeProperties {
	return idField('communityId', 'Community ID', shownFor('event', operations), communityHelp);
}
function eventField(operations: string[]): INodeProperties {
	return idField('eventId', 'Event ID', shownFor('event', operations), eventHelp);
}

interface EventRef {
	communityId: number;
	eventId: number;
}
interface AttendanceParams extends EventRef {
	userId: number;
}

function readEventRef(ctx: IExecuteFunctions, itemIndex: number): EventRef {
	return {
		communityId: requireId(ctx, itemIndex, 'communityId', 'Community ID'),
		eventId: requireId(ctx, itemIndex, 'eventId', 'Event ID'),
	};
}

function attendance(operation: string): Pick<KnolyxOperation<AttendanceParams>, 'description' | 'prepare'> {
	return {
		description: [
			communityField([operation]),
			eventField([operation]),
			idField(
				'userId',
				'User ID',
				shownFor('event', [operation]),
				'Numeric Knolyx ID of the user, e.g. the "id" returned by User → Provision',
			),
		],
		prepare(itemIndex) {
			return { ...readEventRef(this, itemIndex), userId: requireId(this, itemIndex, 'userId', 'User ID') };
		},
	};
}

const attend: KnolyxOperation<AttendanceParams> = {
	...attendance('attend'),
	async execute({ communityId, eventId, userId }, runtime) {
		return await attendEvent(runtime, communityId, eventId, userId);
	},
};

const cancelAttendance: KnolyxOperation<AttendanceParams> = {
	...attendance('cancelAttendance'),
	async execute({ communityId, eventId, userId }, runtime) {
		const { body } = await runtime.client.call(ENDPOINTS.eventCancelAttendance, {
			params: { communityId, eventId, userId },
			itemIndex: runtime.itemIndex,
		});
		return { ...asObject(body), communityId, eventId, userId, attending: false };
	},
};

const getAll: KnolyxOperation<PagedParams & { communityId: number }> = {
	description: [communityField(['getAll']), ...returnAllAndLimit(shownFor('event', ['getAll']))],
	prepare(itemIndex) {
		return { communityId: requireId(this, itemIndex, 'communityId', 'Community ID'), ...readPaged(this, itemIndex) };
	},
	async execute({ communityId, returnAll, limit }, runtime) {
		return await runtime.client.callPaged<IDataObject>(ENDPOINTS.eventList, {
			params: { communityId },
			returnAll,
			limit,
			itemIndex: runtime.itemIndex,
		});
	},
};

const get: KnolyxOperation<EventRef> = {
	description: [communityField(['get']), eventField(['get'])],
	prepare(itemIndex) {
		return readEventRef(this, itemIndex);
	},
	async execute({ communityId, eventId }, runtime) {
		const { body } = await runtime.client.call(ENDPOINTS.eventGet, {
			params: { communityId, eventId },
			itemIndex: runtime.itemIndex,
		});
		return asObject(body);
	},
};

const getAttendees: KnolyxOperation<PagedParams & EventRef> = {
	description: [
		communityField(['getAttendees']),
		eventField(['getAttendees']),
		...returnAllAndLimit(shownFor('event', ['getAttendees'])),
	],
	prepare(itemIndex) {
		return { ...readEventRef(this, itemIndex), ...readPaged(this, itemIndex) };
	},
	async execute({ communityId, eventId, returnAll, limit }, runtime) {
		return await runtime.client.callPaged<IDataObject>(ENDPOINTS.eventAttendees, {
			params: { communityId, eventId },
			returnAll,
			limit,
			itemIndex: runtime.itemIndex,
		});
	},
};

type RegisterParams = EventRef & Enrolment;

const registerShown = shownFor('event', ['register']);

/** Flow A in one node: provision, add to the community's workgroup, mark attendance. */
const register: KnolyxOperation<RegisterParams> = {
	description: [
		...userFields('event', ['register']),
		workgroupLocator(registerShown, 'The workgroup that gives access to the community of the event'),
		communityField(['register']),
		eventField(['register']),
		removalDateField(registerShown),
	],
	prepare(itemIndex) {
		return {
			user: readUser(this, itemIndex),
			workgroupId: requireId(this, itemIndex, 'workgroupId', 'Workgroup'),
			...readEventRef(this, itemIndex),
			removalDate: optionalApiDate(this, itemIndex, this.getNodeParameter('removalDate', itemIndex, ''), 'Removal Date'),
		};
	},
	async execute(params, runtime) {
		const { provisioned, userId, membership } = await provisionAndAddMember(runtime, params, true);
		const attendanceResult = await attendEvent(runtime, params.communityId, params.eventId, userId as number);
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

export const eventOperations = { attend, cancelAttendance, get, getAll, getAttendees, register };

export const eventDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['event'] } },
		options: [
			{
				name: 'Attend',
				value: 'attend',
				description:
					'Mark a user as attending. The user needs community access through a workgroup. Already attending counts as success. Needs EVENT_MANAGE.',
				action: 'Mark a user as attending an event',
			},
			{
				name: 'Cancel Attendance',
				value: 'cancelAttendance',
				description: "Cancel a user's attendance. Needs EVENT_MANAGE.",
				action: 'Cancel attendance of a user',
			},
			{ name: 'Get', value: 'get', description: 'Get one event of a community. Needs EVENT_READ.', action: 'Get an event' },
			{
				name: 'Get Attendees',
				value: 'getAttendees',
				description: 'List the attendees of an event. Needs EVENT_READ.',
				action: 'Get attendees of an event',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the events of a community. Needs EVENT_READ.',
				action: 'Get many events',
			},
			{
				name: 'Register',
				value: 'register',
				description:
					'Event registration in one step: provision the user, add them to the community workgroup, mark attendance. Needs USER_PROVISION, WORKGROUP_ADD_MEMBER and EVENT_MANAGE.',
				action: 'Register a user for an event',
			},
		],
		default: 'register',
	},
	...register.description,
	...attend.description,
	...cancelAttendance.description,
	...get.description,
	...getAll.description,
	...getAttendees.description,
];
