import { updateDisplayOptions } from 'n8n-workflow';

import { listWorkgroups } from '../../transport';
import { readPaged, returnAllAndLimit } from '../common';
import type { PagedParams } from '../common';
import type { KnolyxOperation } from '../types';

export const getAll: KnolyxOperation<PagedParams> = {
	option: {
		name: 'Get Many',
		description: 'List workgroups (ID and name). Needs WORKGROUP_LIST.',
		action: 'Get many workgroups',
	},
	agent: { effects: ['readOnly'] },
	readme: { does: 'List workgroups (`id`, `name`); Return All pages through' },
	description: updateDisplayOptions(
		{ show: { resource: ['workgroup'], operation: ['getAll'] } },
		returnAllAndLimit,
	),
	prepare(itemIndex) {
		return readPaged(this, itemIndex);
	},
	async execute(params, runtime) {
		return await listWorkgroups(runtime.client, { ...params, itemIndex: runtime.itemIndex });
	},
};
