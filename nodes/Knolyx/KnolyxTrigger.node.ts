import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { DEFAULT_DEDUPE_WINDOW, DEDUPE_MAX_AGE_DAYS } from './trigger/dedupe';
import { ALL_EVENTS } from './trigger/events';
import { checkExists, create, remove } from './trigger/lifecycle';
import { receive } from './trigger/receive';

export class KnolyxTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Knolyx Trigger',
		name: 'knolyxTrigger',
		icon: { light: 'file:knolyx.svg', dark: 'file:knolyx.dark.svg' },
		group: ['trigger'],
		// Version 2 changes only what n8n does before webhook() runs: for version 1 n8n
		// evaluates the expression {{$parameter["options"]["binaryData"]}} (an option this
		// node does not have) for every delivery; for later versions it skips that and
		// parses only JSON, text, form and XML bodies, so receive() reads any other body
		// itself. Workflows saved with version 1 keep it and behave the same.
		version: [1, 2],
		defaultVersion: 2,
		subtitle:
			'={{ ($parameter["events"] || []).includes("*") ? "All events" : ($parameter["events"] || []).join(", ").toLowerCase().split("_").join(" ") }}',
		description:
			'Starts the workflow when a student starts or completes a course, or when a course or bundle payment is received in Knolyx',
		defaults: {
			name: 'Knolyx Trigger',
		},
		builderHint: {
			searchHint:
				"Use to react when a student starts or completes a course, or when a course or bundle is paid for in Knolyx (for example: send a certificate e-mail when a student completes a course, add a buyer to a CRM). Pick the events in Events. It registers its own webhook in Knolyx when the workflow is published, so no Webhook node is needed, and Knolyx must reach n8n at a public https address. One item per event: $json.event, $json.eventId, $json.user.email, $json.user.name, $json.course.id, $json.course.name ($json.bundle instead of course for bundle payments). A resend of an event already accepted (same eventId) starts nothing.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-knolyx.knolyx',
					relationHint: 'Act on the student in Knolyx, e.g. add them to another course workgroup after a completion',
				},
				{
					nodeType: 'n8n-nodes-knolyx.knolyxPollTrigger',
					relationHint: 'For what Knolyx sends no webhook for: new event attendees, new events, new courses',
				},
			],
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'knolyxApi',
				required: true,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'PUT',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
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
				default: ['COURSE_STARTED', 'COURSE_COMPLETED', 'COURSE_PAYMENT_RECEIVED', 'BUNDLE_PAYMENT_RECEIVED'],
				description: 'The events that start the workflow; other events are acknowledged and ignored',
				options: [
					{
						name: 'All Events',
						value: ALL_EVENTS,
						description: 'Every event, including PING and event types Knolyx may add later',
					},
					{
						name: 'Bundle Payment Received',
						value: 'BUNDLE_PAYMENT_RECEIVED',
						description: 'A payment for a bundle is received',
					},
					{
						name: 'Course Completed',
						value: 'COURSE_COMPLETED',
						description: 'A student completes a course (sent once per student and course)',
					},
					{
						name: 'Course Payment Received',
						value: 'COURSE_PAYMENT_RECEIVED',
						description: 'A student buys a course',
					},
					{
						name: 'Course Started',
						value: 'COURSE_STARTED',
						description: 'A student starts a course',
					},
					{
						name: 'Ping',
						value: 'PING',
						description: 'Knolyx checks the connection (on webhook creation or a ping request)',
					},
				],
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
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await remove(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receive(this);
	}
}
