import { updateDisplayOptions } from 'n8n-workflow';

import { getEvent } from '../../transport';
import type { KnolyxOperation } from '../types';
import type { EventRef } from './shared';
import { communityField, eventField, readEventRef } from './shared';

const displayOptions = { show: { resource: ['event'], operation: ['get'] } };

export const get: KnolyxOperation<EventRef> = {
	option: {
		name: 'Get',
		description: 'Get one event of a community. Needs EVENT_READ.',
		action: 'Get an event',
	},
	agent: { effects: ['readOnly'] },
	readme: { does: 'The picked event' },
	description: updateDisplayOptions(displayOptions, [communityField, eventField]),
	prepare(itemIndex) {
		return readEventRef(this, itemIndex);
	},
	async execute({ communityId, eventId }, runtime) {
		const { body } = await getEvent(runtime.client, { communityId, eventId }, runtime.itemIndex);
		return body;
	},
};
