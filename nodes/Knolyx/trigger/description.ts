import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_DEDUPE_WINDOW, DEDUPE_MAX_AGE_DAYS } from './dedupe';
import { DEFAULT_EVENTS, EVENT_OPTIONS } from './events';

/** The Knolyx Trigger's fields (as poll/description.ts holds the Poll Trigger's). */
export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'This node registers its own webhook in Knolyx when the workflow is activated (and a separate, temporary one while you listen for a test event), and removes it when deactivated. "Listen for test event" shows the connection PING that Knolyx sends as soon as a webhook is created, so you get an item right away. Knolyx only delivers to public https addresses: if n8n runs on localhost or plain http, set the WEBHOOK_URL environment variable to a public https address or use a tunnel.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [...DEFAULT_EVENTS],
		description: 'The events that start the workflow; other events are acknowledged and ignored',
		options: EVENT_OPTIONS,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Duplicate Window',
				name: 'dedupeWindow',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_DEDUPE_WINDOW,
				description: `How many recent message IDs to remember (for up to ${DEDUPE_MAX_AGE_DAYS} days) so that a message Knolyx sends again starts no second execution. 0 turns duplicate detection off.`,
			},
			{
				displayName: 'Raw Envelope',
				name: 'rawEnvelope',
				type: 'boolean',
				default: false,
				description:
					'Whether to output each event exactly as Knolyx sent it ({ ID, type, data }) instead of the flat fields (event, eventId, user, course or bundle, receivedAt)',
			},
			{
				displayName: 'Show Connection PING When Testing',
				name: 'pingInTest',
				type: 'boolean',
				default: true,
				description:
					'Whether "Listen for test event" outputs the PING Knolyx sends when the test webhook is created. Turn off to wait for a real student event instead.',
			},
		],
	},
];
