import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchCommunityEvents } from './methods/listSearch';
import { pollProperties } from './poll/description';
import { poll } from './poll/poll';
import { CREDENTIAL_TYPE } from './transport';

export class KnolyxPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Knolyx Poll Trigger',
		name: 'knolyxPollTrigger',
		icon: { light: 'file:knolyx.svg', dark: 'file:knolyx.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ {"newAttendee": "New attendee", "newEvent": "New event", "newCourse": "New course"}[$parameter["event"]] }}',
		description:
			'Starts the workflow when someone registers for a community event, an event is published or a course is added in Knolyx (checked on a schedule)',
		defaults: {
			name: 'Knolyx Poll Trigger',
		},
		builderHint: {
			searchHint:
				'Use to start a workflow when someone registers for a Knolyx community event (for example: send the joining details, add the attendee to a mailing list), when an event is published in a community or when a course is added; it checks on the Poll Times schedule (one minute at the shortest) and needs the numeric community ID for attendees and events. The first check after publishing only records what exists and starts nothing, each later check starts one execution with one item per new entry, and course starts, completions and payments come at once from the Knolyx Trigger instead.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-knolyx.knolyxTrigger',
					relationHint:
						'Instant trigger for course started, course completed and course or bundle payments',
				},
				{
					nodeType: 'n8n-nodes-knolyx.knolyx',
					relationHint: 'Act on the attendee or event in Knolyx, e.g. Event → Get Attendees',
				},
			],
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: pollProperties,
	};

	methods = {
		listSearch: { searchCommunityEvents },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll(this);
	}
}
