import { requireId } from '../../helpers/validation';
import { resourceLocator } from '../common';
import { safeEdit } from './shared';

export const removeWorkgroup = safeEdit(
	'removeWorkgroup',
	{
		name: 'Remove Workgroup',
		description: 'Take a workgroup out of the named rule. Other rules and associations are kept. Needs BUSINESS_RULE_MANAGE.',
		action: 'Remove a workgroup from a course rule',
	},
	[resourceLocator('workgroup', 'The workgroup to take out of the rule')],
	(ctx, itemIndex, ruleName) => ({
		kind: 'removeWorkgroup',
		ruleName,
		workgroupId: requireId(ctx, itemIndex, 'workgroupId', 'Workgroup'),
	}),
);
