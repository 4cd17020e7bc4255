import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { RuleEdit } from '../../helpers/rules';
import { defaultRuleName } from '../../helpers/rules';
import { invalid, requireId } from '../../helpers/validation';
import { resourceLocator } from '../common';
import type { KnolyxOperation, OperationOption } from '../types';
import { ruleEditorOf } from './editor';
import type { RuleEditResult } from './editor';

/** Course access rules. Every operation needs BUSINESS_RULE_MANAGE. */

const ruleNameField: INodeProperties = {
	displayName: 'Rule Name',
	name: 'ruleName',
	type: 'string',
	default: '',
	placeholder: 'PAYMENT_INTEGRATION_COURSE_{courseId}',
	description:
		'Name that identifies the rule on the course. Leave empty for PAYMENT_INTEGRATION_COURSE_{courseId}, the name suggested by Knolyx for payment integrations. Every other rule of the course is kept exactly as it is.',
};

function readRuleName(ctx: IExecuteFunctions, itemIndex: number, courseId: number): string {
	const value = ctx.getNodeParameter('ruleName', itemIndex, '') as unknown;
	if (value === undefined || value === null || String(value).trim() === '') return defaultRuleName(courseId);
	if (typeof value !== 'string') throw invalid(ctx, itemIndex, 'Rule Name', 'expected text');
	if (value.trim().length > 255) throw invalid(ctx, itemIndex, 'Rule Name', 'is longer than 255 characters');
	return value.trim();
}

interface EditParams {
	courseId: number;
	edit: RuleEdit;
}

const actionWords: Record<RuleEdit['kind'], [changedNew: string, changedExisting: string, unchanged: string]> = {
	addWorkgroup: ['created', 'workgroupAdded', 'alreadyPresent'],
	removeWorkgroup: ['', 'workgroupRemoved', 'notPresent'],
	upsert: ['created', 'updated', 'unchanged'],
	delete: ['', 'deleted', 'notFound'],
};

function editResult(courseId: number, edit: RuleEdit, result: RuleEditResult): IDataObject {
	const { outcome } = result;
	const [whenNew, whenExisting, whenUnchanged] = actionWords[edit.kind];
	const action = !outcome.changed ? whenUnchanged : outcome.existed ? whenExisting : whenNew;
	const json: IDataObject = { courseId, ruleName: edit.ruleName, action, changed: outcome.changed };
	if ('workgroupId' in edit) json.workgroupId = edit.workgroupId;
	if (result.rule) json.rule = result.rule;
	json.ruleCount = result.ruleCount;
	return json;
}

/**
 * A safe edit of one named rule (Course and Rule Name, then the operation's own fields): the
 * run's rule editor reads the list, changes the named rule only and saves the whole list back.
 */
export function safeEdit(
	operation: string,
	option: OperationOption,
	extra: INodeProperties[],
	build: (ctx: IExecuteFunctions, itemIndex: number, ruleName: string) => RuleEdit,
): KnolyxOperation<EditParams> {
	const displayOptions = { show: { resource: ['rule'], operation: [operation] } };
	return {
		option,
		description: updateDisplayOptions(displayOptions, [resourceLocator('course'), ruleNameField, ...extra]),
		mergesItems: true,
		prepare(itemIndex) {
			const courseId = requireId(this, itemIndex, 'courseId', 'Course');
			return { courseId, edit: build(this, itemIndex, readRuleName(this, itemIndex, courseId)) };
		},
		async execute({ courseId, edit }, runtime) {
			const result = await ruleEditorOf(runtime.client).edit(courseId, edit, runtime.itemIndex);
			return editResult(courseId, edit, result);
		},
	};
}
