import { updateDisplayOptions } from 'n8n-workflow';

import { paymentRuleDefaults } from '../../helpers/rules';
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

const displayOptions = { show: { resource: ['rule'], operation: ['addWorkgroup'] } };

export const addWorkgroup: KnolyxOperation<EditParams> = {
	option: {
		name: 'Add Workgroup',
		description:
			'Give a workgroup access to the course through the named rule; creates the rule (PRIVATE, 50 years) when missing. Other rules are kept. Preview it first (Options → Preview) and show the difference before it is saved. Needs BUSINESS_RULE_MANAGE.',
		action: 'Add a workgroup to a course rule',
	},
	agent: {
		effects: ['grantAccess'],
		risk: 'gives every member of a workgroup, present and future, access to the course',
		instead:
			'User → Enrol in Workgroup or Workgroup → Add Member, which give one person access through a workgroup a person set up',
	},
	readme: {
		does: `Flow B's rule step in one node: add a workgroup to the named rule, creating the rule (PRIVATE, now → +50 years) when missing${PREVIEW_IN_README}`,
	},
	description: updateDisplayOptions(displayOptions, [
		resourceLocator('course'),
		ruleNameField,
		resourceLocator('workgroup', 'The workgroup whose members get access to the course'),
		writeOptions(),
	]),
	mergesItems: true,
	readsOnly: previewItem,
	prepare(itemIndex) {
		const { courseId, ruleName } = readRuleTarget(this, itemIndex);
		const workgroupId = requireId(this, itemIndex, 'workgroupId', 'Workgroup');
		const defaults = paymentRuleDefaults();
		const edit = { kind: 'addWorkgroup', ruleName, workgroupId, defaults } as const;
		return editParams(this, itemIndex, 'addWorkgroup', courseId, edit);
	},
	async execute(params, runtime) {
		return await runRuleEdit(params, runtime);
	},
};
