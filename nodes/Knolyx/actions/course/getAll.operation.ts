import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS } from '../../transport';
import { readPaged, returnAllAndLimit, shownFor } from '../common';
import type { PagedParams } from '../common';
import type { KnolyxOperation } from '../types';

export const getAll: KnolyxOperation<PagedParams> = {
	description: returnAllAndLimit(shownFor('course', ['getAll'])),
	prepare(itemIndex) {
		return readPaged(this, itemIndex);
	},
	async execute(params, runtime) {
		return await runtime.client.callPaged<IDataObject>(ENDPOINTS.courseList, {
			...params,
			itemIndex: runtime.itemIndex,
		});
	},
};
