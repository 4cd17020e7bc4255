import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './transport';
import { triggerProperties } from './trigger/description';
import { checkExists, create, remove } from './trigger/lifecycle';
import { acknowledge } from './trigger/delivery';
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
				'Use to start a workflow at once when a student starts or completes a course or pays for a course or bundle in Knolyx, chosen in Events (for example: e-mail a certificate on completion, add a buyer to a CRM); it registers its own webhook in Knolyx when the workflow is published, so n8n must be reachable at a public https address. One item per event with $json.event, $json.eventId, $json.user.email, $json.user.name, $json.course.id and $json.course.name ($json.bundle in place of course for a bundle payment), and an event Knolyx sends again with the same eventId starts nothing.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-knolyx.knolyx',
					relationHint:
						'Act on the student in Knolyx, e.g. add them to another course workgroup after a completion',
				},
				{
					nodeType: 'n8n-nodes-knolyx.knolyxPollTrigger',
					relationHint:
						'For what Knolyx sends no webhook for: new event attendees, new events, new courses',
				},
			],
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'PUT',
				// Answered by the execution's first step (execute() below), so that the platform
				// hears "received" only once n8n holds the execution (trigger/receive.ts, emit).
				responseMode: 'responseNode',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
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

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await acknowledge(this);
	}
}
