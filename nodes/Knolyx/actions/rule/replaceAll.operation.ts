import { updateDisplayOptions } from 'n8n-workflow';

import { readJsonParameter } from '../../helpers/json';
import type { Rule } from '../../helpers/rules';
import { asRuleList, holdsList, sameContent } from '../../helpers/rules';
import { booleanOption } from '../../helpers/booleans';
import { invalid, requireLongId } from '../../helpers/validation';
import { resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';
import type { EditMode } from './editor';
import { changedSince, checkTenant, readRuleList, replaceRules } from './replace';
import { previewItem, readWriteMode, withChange, writeOptions, PREVIEW_IN_README } from './shared';
import type { Id } from '../../helpers/validation';

const displayOptions = { show: { resource: ['rule'], operation: ['replaceAll'] } };

export const replaceAll: KnolyxOperation<{ courseId: Id; rules: Rule[]; mode: EditMode }> = {
	option: {
		name: 'Replace All',
		description:
			'Save a complete rule list (rules left out are deleted). Preview it first (Options → Preview) and show the difference before it is saved. Needs BUSINESS_RULE_MANAGE.',
		action: 'Replace all rules of a course',
	},
	agent: {
		effects: ['delete', 'grantAccess', 'narrowAccess'],
		risk: 'deletes every access rule of the course that is left out of the list and can give a whole workgroup, or everyone (a rule made PUBLIC), access to the course',
		instead:
			'Course Access Rule → Remove Workgroup, which keeps every other rule, or ask a person to change the rules',
	},
	readme: {
		does: `Raw save of a complete list: **rules left out are deleted**; an empty list is refused unless *Allow Empty List* is on${PREVIEW_IN_README}`,
	},
	description: updateDisplayOptions(displayOptions, [
		resourceLocator('course'),
		{
			displayName:
				'This saves the complete rule list of the course: every rule left out of the list is DELETED on Knolyx. To change one rule safely, use Add Workgroup, Remove Workgroup, Create or Update, or Delete instead.',
			name: 'replaceNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Rules (JSON)',
			name: 'rules',
			type: 'json',
			default: '[]',
			required: true,
			description:
				'The complete list, as read by Get Many and modified. Rules with an ID are updated, rules without one are created, existing rules missing from the list are deleted.',
		},
		writeOptions([
			{
				displayName: 'Allow Empty List',
				name: 'allowEmpty',
				type: 'boolean',
				default: false,
				description:
					'Whether to allow saving an empty list, which deletes every rule of the course',
			},
		]),
	]),
	readsOnly: previewItem,
	prepare(itemIndex) {
		const courseId = requireLongId(this, itemIndex, 'courseId', 'Course');
		const read = readJsonParameter(this.getNodeParameter('rules', itemIndex, '[]'));
		if (!read.ok) throw invalid(this, itemIndex, 'Rules (JSON)', read.problem);
		let rules: Rule[];
		try {
			rules = asRuleList(read.value);
		} catch {
			throw invalid(
				this,
				itemIndex,
				'Rules (JSON)',
				'must be a JSON array of rules, each with a "name"',
			);
		}
		const allowEmpty =
			booleanOption(this, itemIndex, 'allowEmpty', 'Allow Empty List', 'to refuse an empty list') ??
			false;
		if (rules.length === 0 && !allowEmpty) {
			throw invalid(
				this,
				itemIndex,
				'Rules (JSON)',
				'is empty, which would delete every rule of the course; turn on the option Allow Empty List to do that on purpose',
			);
		}
		const mode = readWriteMode(this, itemIndex, courseId, 'replaceAll');
		if (mode.kind === 'apply' && !sameContent(mode.after, rules)) {
			throw invalid(
				this,
				itemIndex,
				'Apply Previewed Change',
				'is the preview of another list than Rules (JSON); give both the same list',
			);
		}
		return { courseId, rules, mode };
	},
	async execute({ courseId, rules, mode }, { client, itemIndex }) {
		if (mode.kind === 'apply')
			await checkTenant(client, itemIndex, 'Apply Previewed Change', mode.tenant);
		const tenant = await client.credentialScope();
		const before = await readRuleList(client, courseId, itemIndex);
		const output = async (after: Rule[], preview: boolean, alreadyApplied?: boolean) =>
			await withChange(
				client,
				itemIndex,
				{
					courseId,
					ruleCount: after.length,
					changed: !sameContent(before, after),
					...(mode.kind === 'apply' && { alreadyApplied: alreadyApplied === true }),
				},
				{ courseId, operation: 'replaceAll', tenant, before, after },
				preview,
			);
		if (mode.kind === 'preview') return await output(rules, true);
		if (mode.kind === 'apply') {
			// Applied already (an earlier run): nothing is sent again.
			if (holdsList(before, rules)) return await output(before, false, true);
			if (!sameContent(before, mode.before)) {
				throw changedSince(
					client,
					courseId,
					'the preview',
					mode.before,
					before,
					itemIndex,
					'Someone else saved rules of this course after the preview. Preview the list again, check it, and apply the new preview.',
				);
			}
		}
		// Applying a preview, the list is read back after the save: it must be the list shown.
		const saved = await replaceRules(
			client,
			courseId,
			rules,
			itemIndex,
			before,
			mode.kind === 'apply',
		);
		return await output(saved, false);
	},
};
