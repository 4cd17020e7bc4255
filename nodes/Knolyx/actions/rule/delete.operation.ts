import { safeEdit } from './shared';

export const deleteRule = safeEdit(
	'delete',
	{
		name: 'Delete',
		description: 'Delete the named rule only; every other rule is kept',
		action: 'Delete a course rule',
	},
	[],
	(_ctx, _itemIndex, ruleName) => ({ kind: 'delete', ruleName }),
);
