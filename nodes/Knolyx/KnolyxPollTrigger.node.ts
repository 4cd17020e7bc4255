import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
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
