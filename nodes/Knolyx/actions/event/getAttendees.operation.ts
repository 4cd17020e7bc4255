import { updateDisplayOptions } from 'n8n-workflow';

import { listAttendees } from '../../transport';
import { readPaged, returnAllAndLimit } from '../common';
import type { PagedParams } from '../common';
import type { KnolyxOperation } from '../types';
import type { EventRef } from './shared';
import { communityField, eventField, readEventRef } from './shared';

const displayOptions = { show: { resource: ['event'], operation: ['getAttendees'] } };

export const getAttendees: KnolyxOperation<PagedParams & EventRef> = {
	option: {
		name: 'Get Attendees',
		description: 'List the attendees of an event. Needs EVENT_READ.',
		action: 'Get attendees of an event',
	},
	agent: { effects: ['readOnly'] },
	readme: { does: 'The attendees of the picked event' },
	description: updateDisplayOptions(displayOptions, [
		communityField,
		eventField,
		...returnAllAndLimit,
	]),
	prepare(itemIndex) {
		return { ...readEventRef(this, itemIndex), ...readPaged(this, itemIndex) };
	},
	async execute({ communityId, eventId, returnAll, limit }, runtime) {
		return await listAttendees(
			runtime.client,
			{ communityId, eventId },
			{ returnAll, limit, itemIndex: runtime.itemIndex },
		);
	},
};
