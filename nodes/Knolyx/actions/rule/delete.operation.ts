import { updateDisplayOptions } from 'n8n-workflow';

import { resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';
import type { EditParams } from './shared';
import {
	editParams,
	previewItem,
	readRuleTarget,
	ruleNameField,
	runRuleEdit,
	writeOptions,
	PREVIEW_IN_README,
} from './shared';

const displayOptions = { show: { resource: ['rule'], operation: ['delete'] } };

export const deleteRule: KnolyxOperation<EditParams> = {
	option: {
		name: 'Delete',
		description:
			'Delete the named rule only; every other rule is kept. Preview it first (Options → Preview) and show the difference before it is saved. Needs BUSINESS_RULE_MANAGE.',
		action: 'Delete a course rule',
	},
	agent: {
		effects: ['delete', 'narrowAccess'],
		risk: 'deletes an access rule of the course (its students lose the access it gives)',
		instead: 'Course Access Rule → Remove Workgroup, which keeps the rule and every other rule',
	},
	readme: {
		does: `Delete the named rule only${PREVIEW_IN_README}`,
	},
	description: updateDisplayOptions(displayOptions, [
		resourceLocator('course'),
		ruleNameField,
		writeOptions(),
	]),
	mergesItems: true,
	readsOnly: previewItem,
	prepare(itemIndex) {
		const { courseId, ruleName } = readRuleTarget(this, itemIndex);
		return editParams(this, itemIndex, 'delete', courseId, { kind: 'delete', ruleName });
	},
	async execute(params, runtime) {
		return await runRuleEdit(params, runtime);
	},
};
