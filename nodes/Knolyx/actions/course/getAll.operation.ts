import { updateDisplayOptions } from 'n8n-workflow';

import { listCourses } from '../../transport';
import { readPaged, returnAllAndLimit } from '../common';
import type { PagedParams } from '../common';
import type { KnolyxOperation } from '../types';

const displayOptions = { show: { resource: ['course'], operation: ['getAll'] } };

export const getAll: KnolyxOperation<PagedParams> = {
	option: {
		name: 'Get Many',
		description:
			'List courses (ID and title), e.g. to find a course ID by its title. Needs COURSE_LIST.',
		action: 'Get many courses',
	},
	agent: { effects: ['readOnly'] },
	readme: { does: 'List courses (`id`, `title`); Return All pages through' },
	description: updateDisplayOptions(displayOptions, returnAllAndLimit),
	prepare(itemIndex) {
		return readPaged(this, itemIndex);
	},
	async execute(params, runtime) {
		return await listCourses(runtime.client, { ...params, itemIndex: runtime.itemIndex });
	},
};
