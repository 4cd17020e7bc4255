import { updateDisplayOptions } from 'n8n-workflow';

import { listEvents } from '../../transport';
import type { Id } from '../../helpers/validation';
import { requireLongId } from '../../helpers/validation';
import { readPaged, returnAllAndLimit } from '../common';
import type { PagedParams } from '../common';
import type { KnolyxOperation } from '../types';
import { communityField } from './shared';

const displayOptions = { show: { resource: ['event'], operation: ['getAll'] } };

export const getAll: KnolyxOperation<PagedParams & { communityId: Id }> = {
	option: {
		name: 'Get Many',
		description: 'List the events of a community. Needs EVENT_READ.',
		action: 'Get many events',
	},
	agent: { effects: ['readOnly'] },
	readme: { does: 'The events of a community' },
	description: updateDisplayOptions(displayOptions, [communityField, ...returnAllAndLimit]),
	prepare(itemIndex) {
		return {
			communityId: requireLongId(this, itemIndex, 'communityId', 'Community ID'),
			...readPaged(this, itemIndex),
		};
	},
	async execute({ communityId, returnAll, limit }, runtime) {
		return await listEvents(runtime.client, communityId, {
			returnAll,
			limit,
			itemIndex: runtime.itemIndex,
		});
	},
};
