import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { agentSafetyProperties } from './actions/agent-safety';
import { sortedByName } from './actions/common';
import { router } from './actions/router';
import { resources } from './actions/operations';
import { searchCommunityEvents, searchCourses, searchWorkgroups } from './methods/listSearch';
import { CREDENTIAL_TYPE } from './transport';

export class Knolyx implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Knolyx',
		name: 'knolyx',
		icon: { light: 'file:knolyx.svg', dark: 'file:knolyx.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Provision users, manage workgroups, course access rules, event attendance and webhooks on Knolyx',
		defaults: { name: 'Knolyx' },
		usableAsTool: true,
		builderHint: {
			searchHint:
				"Knolyx is a learning platform: use this node to enrol a buyer in a course after a payment in Stripe, Shopify, WooCommerce or PayPal, a deal won in HubSpot or Pipedrive, or an n8n Form answer, with User → Enrol in Workgroup (creates the user when new; running it again changes nothing) or Event → Register for a community event. It takes all items at once and waits out Knolyx's rate limit itself (no Loop Over Items or Wait needed); IDs are numbers from Course → Get Many and Workgroup → Get Many.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-knolyx.knolyxTrigger',
					relationHint:
						'Starts a workflow when a student starts or completes a course or pays for a course or bundle',
				},
				{
					nodeType: 'n8n-nodes-knolyx.knolyxPollTrigger',
					relationHint:
						'Starts a workflow when someone registers for a community event or a course or event is added',
				},
				{
					nodeType: 'n8n-nodes-base.stripeTrigger',
					relationHint:
						'A Stripe payment whose Checkout Session Stripe reports paid: User → Enrol in Workgroup',
				},
				{
					nodeType: 'n8n-nodes-base.shopifyTrigger',
					relationHint: 'A paid Shopify order: User → Enrol in Workgroup for each course product',
				},
				{
					nodeType: 'n8n-nodes-base.wooCommerceTrigger',
					relationHint: 'A WooCommerce order in processing or completed: User → Enrol in Workgroup',
				},
				{
					nodeType: 'n8n-nodes-base.payPalTrigger',
					relationHint: 'A completed PayPal capture: User → Enrol in Workgroup for the payer',
				},
				{
					nodeType: 'n8n-nodes-base.hubspotTrigger',
					relationHint:
						'A HubSpot deal moved to a won stage: User → Enrol in Workgroup for its contact',
				},
				{
					nodeType: 'n8n-nodes-base.pipedriveTrigger',
					relationHint: 'A Pipedrive deal won: User → Enrol in Workgroup for its person',
				},
				{
					nodeType: 'n8n-nodes-base.formTrigger',
					relationHint: 'An n8n Form answer: Event → Register for a community event',
				},
				{
					nodeType: 'n8n-nodes-base.wait',
					relationHint:
						"A person's approval of a course access change (On Form Submitted, showing the preview's summary): a Course Access Rule write with its option Preview first, then the same write with its option Apply Previewed Change; Course Access Rule → Restore takes a save back",
				},
			],
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: sortedByName(Object.values(resources).map(({ name, value }) => ({ name, value }))),
				default: 'user',
			},
			...Object.values(resources).flatMap((resource) => resource.description),
			...agentSafetyProperties,
			{
				displayName: 'Request Options',
				name: 'requestOptions',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				description: 'How the items are sent to Knolyx',
				options: [
					{
						displayName: 'Concurrency',
						name: 'concurrency',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 0,
						description:
							'Requests in flight at once. 0 = adaptive: start moderately, grow while Knolyx answers well, slow down at once when it rate-limits. 1 = one item after the other.',
					},
					{
						displayName: 'Max Concurrency',
						name: 'maxConcurrency',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 100,
						description: 'Upper bound of the adaptive concurrency',
					},
					{
						displayName: 'Timeout (Seconds)',
						name: 'timeout',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 30,
						description:
							'How long one attempt may take, from connecting to the last byte of the answer, before it is retried',
					},
				],
			},
		],
	};

	methods = {
		listSearch: { searchCourses, searchWorkgroups, searchCommunityEvents },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
