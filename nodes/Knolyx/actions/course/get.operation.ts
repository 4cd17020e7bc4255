import { ENDPOINTS } from '../../transport';
import { requireId } from '../../helpers/validation';
import { asObject, courseLocator, shownFor } from '../common';
import type { KnolyxOperation } from '../types';

export const get: KnolyxOperation<{ courseId: number }> = {
	description: [courseLocator(shownFor('course', ['get']))],
	prepare(itemIndex) {
		return { courseId: requireId(this, itemIndex, 'courseId', 'Course') };
	},
	async execute({ courseId }, runtime) {
		const { body } = await runtime.client.call(ENDPOINTS.courseGet, {
			params: { courseId },
			itemIndex: runtime.itemIndex,
		});
		return asObject(body);
	},
};
