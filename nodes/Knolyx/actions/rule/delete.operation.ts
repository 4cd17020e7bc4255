import { safeEdit } from './shared';

export const deleteRule = safeEdit(
	'delete',
	{
		name: 'Delete',
		description: 'Delete the named rule only; every other rule is kept. Needs BUSINESS_RULE_MANAGE.',
		action: 'Delete a course rule',
	},
	[],
	(_ctx, _itemIndex, ruleName) => ({ kind: 'delete', ruleName }),
);
