import { updateDisplayOptions } from 'n8n-workflow';

import { getCourse } from '../../transport';
import type { Id } from '../../helpers/validation';
import { requireLongId } from '../../helpers/validation';
import { resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';

const displayOptions = { show: { resource: ['course'], operation: ['get'] } };

export const get: KnolyxOperation<{ courseId: Id }> = {
	option: {
		name: 'Get',
		description: 'Get one course by ID. Needs COURSE_GET.',
		action: 'Get a course',
	},
	agent: { effects: ['readOnly'] },
	readme: { does: 'One course' },
	description: updateDisplayOptions(displayOptions, [resourceLocator('course')]),
	prepare(itemIndex) {
		return { courseId: requireLongId(this, itemIndex, 'courseId', 'Course') };
	},
	async execute({ courseId }, runtime) {
		const { body } = await getCourse(runtime.client, courseId, runtime.itemIndex);
		return body;
	},
};
