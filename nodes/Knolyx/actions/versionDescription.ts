import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { courseDescription } from './course/Course.resource';
import { eventDescription } from './event/Event.resource';
import { ruleDescription } from './rule/Rule.resource';
import { userDescription } from './user/User.resource';
import { webhookDescription } from './webhook/Webhook.resource';
import { workgroupDescription } from './workgroup/Workgroup.resource';

export const versionDescription: Omit<INodeTypeDescription, 'icon' | 'subtitle' | 'usableAsTool'> = {
	displayName: 'Knolyx',
	name: 'knolyx',
	group: ['transform'],
	version: 1,
	description: 'Provision users, manage workgroups, course access rules, event attendance and webhooks on Knolyx',
	defaults: { name: 'Knolyx' },
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: [{ name: 'knolyxApi', required: true }],
	properties: [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Course', value: 'course' },
				{ name: 'Course Access Rule', value: 'rule' },
				{ name: 'Event', value: 'event' },
				{ name: 'User', value: 'user' },
				{ name: 'Webhook', value: 'webhook' },
				{ name: 'Workgroup', value: 'workgroup' },
			],
			default: 'user',
		},
		...courseDescription,
		...ruleDescription,
		...eventDescription,
		...userDescription,
		...webhookDescription,
		...workgroupDescription,
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
					description: 'How long to wait for one answer before retrying it',
				},
			],
		},
	],
};
