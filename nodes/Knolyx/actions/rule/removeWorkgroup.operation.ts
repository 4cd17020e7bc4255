import { updateDisplayOptions } from 'n8n-workflow';

import { requireId } from '../../helpers/validation';
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

const displayOptions = { show: { resource: ['rule'], operation: ['removeWorkgroup'] } };

export const removeWorkgroup: KnolyxOperation<EditParams> = {
	option: {
		name: 'Remove Workgroup',
		description:
			'Take a workgroup out of the named rule. Other rules and associations are kept. Preview it first (Options → Preview) and show the difference before it is saved. Needs BUSINESS_RULE_MANAGE.',
		action: 'Remove a workgroup from a course rule',
	},
	agent: { effects: ['narrowAccess'] },
	readme: {
		does: `Take a workgroup out of the named rule${PREVIEW_IN_README}`,
	},
	description: updateDisplayOptions(displayOptions, [
		resourceLocator('course'),
		ruleNameField,
		resourceLocator('workgroup', 'The workgroup to take out of the rule'),
		writeOptions(),
	]),
	mergesItems: true,
	readsOnly: previewItem,
	prepare(itemIndex) {
		const { courseId, ruleName } = readRuleTarget(this, itemIndex);
		const workgroupId = requireId(this, itemIndex, 'workgroupId', 'Workgroup');
		const edit = { kind: 'removeWorkgroup', ruleName, workgroupId } as const;
		return editParams(this, itemIndex, 'removeWorkgroup', courseId, edit);
	},
	async execute(params, runtime) {
		return await runRuleEdit(params, runtime);
	},
};
