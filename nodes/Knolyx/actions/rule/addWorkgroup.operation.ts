import { paymentRuleDefaults } from '../../helpers/rules';
import { requireId } from '../../helpers/validation';
import { resourceLocator } from '../common';
import { safeEdit } from './shared';

export const addWorkgroup = safeEdit(
	'addWorkgroup',
	{
		name: 'Add Workgroup',
		description:
			'Give a workgroup access to the course through the named rule; creates the rule (PRIVATE, 50 years) when missing. Other rules are kept. Needs BUSINESS_RULE_MANAGE.',
		action: 'Add a workgroup to a course rule',
	},
	[resourceLocator('workgroup', 'The workgroup whose members get access to the course')],
	(ctx, itemIndex, ruleName) => ({
		kind: 'addWorkgroup',
		ruleName,
		workgroupId: requireId(ctx, itemIndex, 'workgroupId', 'Workgroup'),
		defaults: paymentRuleDefaults(),
	}),
);
