import type { INodeProperties } from 'n8n-workflow';

import { resourceLocator } from '../methods/locators';
import { MAX_REMEMBERED } from './state';

/** The Poll Trigger's fields. n8n adds the Poll Times schedule itself (`polling: true`). */

const forAttendees = { show: { event: ['newAttendee'] } };

export const pollProperties: INodeProperties[] = [
	{
		displayName: `Checks Knolyx on the schedule below. The first check after the workflow is published only records what exists; each later check starts the workflow with what was added since, one item per entry. "Fetch Test Event" shows the newest entry. Up to ${MAX_REMEMBERED.toLocaleString('en-US')} entries are remembered.`,
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Trigger On',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		default: 'newAttendee',
		options: [
			{
				name: 'New Attendee',
				value: 'newAttendee',
				description:
					'A person registered for a community event (also someone who cancelled and registered again)',
			},
			{
				name: 'New Course',
				value: 'newCourse',
				description: 'A course was added to the catalogue',
			},
			{
				name: 'New Event',
				value: 'newEvent',
				description: 'An event was published in a community',
			},
		],
	},
	{
		displayName: 'Attendees Of',
		name: 'attendeesOf',
		type: 'options',
		noDataExpression: true,
		default: 'event',
		displayOptions: forAttendees,
		options: [
			{
				name: 'One Event',
				value: 'event',
				description: 'The attendees of the event chosen below',
			},
			{
				name: 'Every Event of the Community',
				value: 'community',
				description:
					'The attendees of every event the community lists, including events published later (each check reads every event)',
			},
		],
	},
	{
		displayName: 'Community ID',
		name: 'communityId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 301',
		description:
			'Numeric ID of the community (see its address in Knolyx). The Knolyx API has no list of communities to pick from.',
		displayOptions: { show: { event: ['newAttendee', 'newEvent'] } },
	},
	{
		...resourceLocator(
			'event',
			'The event whose attendees start the workflow. Pick it from the events of the community, or give its numeric ID.',
		),
		displayOptions: { show: { event: ['newAttendee'], attendeesOf: ['event'] } },
	},
];
