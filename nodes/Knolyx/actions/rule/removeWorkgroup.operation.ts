import { updateDisplayOptions } from 'n8n-workflow';

import { requireId } from '../../helpers/validation';
import { resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';
import type { EditParams } from './shared';
import { readRuleTarget, ruleNameField, runRuleEdit } from './shared';

const displayOptions = { show: { resource: ['rule'], operation: ['removeWorkgroup'] } };

export const removeWorkgroup: KnolyxOperation<EditParams> = {
	option: {
		name: 'Remove Workgroup',
		description:
			'Take a workgroup out of the named rule. Other rules and associations are kept. Needs BUSINESS_RULE_MANAGE.',
		action: 'Remove a workgroup from a course rule',
	},
	agent: { effects: ['narrowAccess'] },
	readme: { does: 'Take a workgroup out of the named rule' },
	description: updateDisplayOptions(displayOptions, [
		resourceLocator('course'),
		ruleNameField,
		resourceLocator('workgroup', 'The workgroup to take out of the rule'),
	]),
	mergesItems: true,
	prepare(itemIndex) {
		const { courseId, ruleName } = readRuleTarget(this, itemIndex);
		return {
			courseId,
			edit: {
				kind: 'removeWorkgroup',
				ruleName,
				workgroupId: requireId(this, itemIndex, 'workgroupId', 'Workgroup'),
			},
		};
	},
	async execute(params, runtime) {
		return await runRuleEdit(params, runtime);
	},
};
