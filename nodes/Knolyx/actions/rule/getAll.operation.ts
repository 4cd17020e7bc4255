import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readRules } from '../../transport';
import { plainCopy } from '../../helpers/json';
import { requireLongId } from '../../helpers/validation';
import { resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';
import type { Id } from '../../helpers/validation';

export const getAll: KnolyxOperation<{ courseId: Id }> = {
	option: {
		name: 'Get Many',
		description: 'Read the access rules of a course. Needs BUSINESS_RULE_MANAGE.',
		action: 'Get many course rules',
	},
	agent: { effects: ['readOnly'] },
	readme: { does: 'The rules of a course, one item each' },
	description: updateDisplayOptions({ show: { resource: ['rule'], operation: ['getAll'] } }, [
		resourceLocator('course'),
	]),
	prepare(itemIndex) {
		return { courseId: requireLongId(this, itemIndex, 'courseId', 'Course') };
	},
	async execute({ courseId }, runtime) {
		const { body } = await readRules(runtime.client, courseId, runtime.itemIndex);
		// Long ids come out as their exact digits (text), every other value as read.
		return plainCopy(body as IDataObject[]);
	},
};
