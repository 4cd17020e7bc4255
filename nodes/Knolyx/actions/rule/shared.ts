import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { RuleEdit } from '../../helpers/rules';
import { defaultRuleName } from '../../helpers/rules';
import { invalid, requireId } from '../../helpers/validation';
import type { OperationRuntime } from '../types';
import { ruleEditorOf } from './editor';
import type { RuleEditResult } from './editor';

/**
 * What the four safe edits of one named rule share (Add Workgroup, Remove Workgroup, Create or
 * Update, Delete): the Rule Name field, reading the course and rule name of an item, and
 * running the edit through the run's rule editor, which reads the list, changes the named rule
 * only and saves the whole list back. Every operation needs BUSINESS_RULE_MANAGE.
 */

export const ruleNameField: INodeProperties = {
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
	if (value === undefined || value === null || String(value).trim() === '')
		return defaultRuleName(courseId);
	if (typeof value !== 'string') throw invalid(ctx, itemIndex, 'Rule Name', 'expected text');
	if (value.trim().length > 255)
		throw invalid(ctx, itemIndex, 'Rule Name', 'is longer than 255 characters');
	return value.trim();
}

/** The course and the rule an item edits (Course, then Rule Name), checked. */
export function readRuleTarget(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { courseId: number; ruleName: string } {
	const courseId = requireId(ctx, itemIndex, 'courseId', 'Course');
	return { courseId, ruleName: readRuleName(ctx, itemIndex, courseId) };
}

/** The parameters of a safe edit, as its `prepare` returns them. */
export interface EditParams {
	courseId: number;
	edit: RuleEdit;
}

const actionWords: Record<
	RuleEdit['kind'],
	[changedNew: string, changedExisting: string, unchanged: string]
> = {
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

/** A safe edit's `execute`: the run's rule editor applies it (merged with the run's other edits of the course). */
export async function runRuleEdit(
	{ courseId, edit }: EditParams,
	runtime: OperationRuntime,
): Promise<IDataObject> {
	const result = await ruleEditorOf(runtime.client).edit(courseId, edit, runtime.itemIndex);
	return editResult(courseId, edit, result);
}
