import { updateDisplayOptions } from 'n8n-workflow';

import { idText } from '../../helpers/json';
import type { Rule } from '../../helpers/rules';
import { holdsList, sameContent } from '../../helpers/rules';
import type { RuleListChange } from '../../helpers/rule-changes';
import { booleanOption } from '../../helpers/booleans';
import type { KnolyxOperation } from '../types';
import { changedSince, checkTenant, readRuleList, replaceRules } from './replace';
import {
	isPreview,
	optionsField,
	previewItem,
	PREVIEW_IN_README,
	previewOption,
	readChangeParameter,
	withChange,
} from './shared';

const displayOptions = { show: { resource: ['rule'], operation: ['restore'] } };

interface RestoreParams {
	change: RuleListChange;
	overwrite: boolean;
	preview: boolean;
}

/** The rule without its id: a rule the change deleted comes back as a new rule (the platform gives ids). */
function withoutId(rule: Rule): Rule {
	const copy = { ...rule };
	delete copy.id;
	return copy;
}

export const restore: KnolyxOperation<RestoreParams> = {
	option: {
		name: 'Restore',
		description:
			"Put a course's rules back as they were before a change, from the Change of that write's output item; refuses when the rules were edited since. Needs BUSINESS_RULE_MANAGE.",
		action: 'Restore the rules of a course',
	},
	agent: {
		effects: ['delete', 'grantAccess', 'narrowAccess'],
		risk: 'saves a whole rule list from the Change it is given: it deletes every rule the list leaves out and can give a workgroup, or everyone, access to the course',
		instead:
			'Course Access Rule → Remove Workgroup, which keeps every other rule, or ask a person to restore the rules',
	},
	readme: {
		does: `Put back the list a rule write replaced (its output's *Change*), ids and unknown fields included; refuses, naming what changed, when the rules were edited since, unless *Overwrite Later Changes* is on${PREVIEW_IN_README}`,
	},
	description: updateDisplayOptions(displayOptions, [
		{
			displayName: 'Change',
			name: 'change',
			type: 'string',
			default: '={{ $json.change }}',
			required: true,
			description:
				"The 'change' of a Course Access Rule write's output item (Add Workgroup, Remove Workgroup, Create or Update, Delete, Replace All or Restore). The course's rules are put back exactly as they were before it.",
		},
		optionsField([
			{
				displayName: 'Overwrite Later Changes',
				name: 'overwrite',
				type: 'boolean',
				default: false,
				description:
					'Whether to put the rules back even when they were edited after the change: those later edits are then undone too. Off: the item fails, naming what changed, and nothing is sent.',
			},
			previewOption,
		]),
	]),
	readsOnly: previewItem,
	prepare(itemIndex) {
		const change = readChangeParameter(
			this,
			itemIndex,
			this.getNodeParameter('change', itemIndex, ''),
			'Change',
		);
		const overwrite =
			booleanOption(
				this,
				itemIndex,
				'overwrite',
				'Overwrite Later Changes',
				'to keep later changes',
			) ?? false;
		return { change, overwrite, preview: isPreview(this, itemIndex) };
	},
	async execute({ change, overwrite, preview }, { client, itemIndex }) {
		const { courseId } = change;
		await checkTenant(client, itemIndex, 'Change', change.tenant);
		const tenant = await client.credentialScope();
		const now = await readRuleList(client, courseId, itemIndex);
		const target = change.before.map((rule) =>
			rule.id === undefined ||
			now.some((r) => r.id !== undefined && idText(r.id) === idText(rule.id))
				? rule
				: withoutId(rule),
		);
		const output = async (after: Rule[], restored: boolean, shown: boolean) =>
			await withChange(
				client,
				itemIndex,
				{
					courseId,
					action: restored ? 'restored' : 'alreadyRestored',
					changed: restored,
					ruleCount: after.length,
				},
				{ courseId, operation: 'restore', tenant, before: now, after },
				shown,
			);
		// Restored already (an earlier run): nothing is sent again.
		if (holdsList(now, target)) return await output(now, false, preview);
		if (!overwrite && !sameContent(now, change.after)) {
			throw changedSince(
				client,
				courseId,
				'that change',
				change.after,
				now,
				itemIndex,
				'Someone else saved rules of this course after the change. Read them with Get Many; to put the list back anyway (undoing their edits too), turn on Overwrite Later Changes.',
			);
		}
		if (preview) return await output(target, true, true);
		// Read back after the save: the list restored, or the item names what is there instead.
		return await output(
			await replaceRules(client, courseId, target, itemIndex, now, true),
			true,
			false,
		);
	},
};
