import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Rule, RuleEdit } from '../../helpers/rules';
import { defaultRuleName } from '../../helpers/rules';
import type { RuleListChange } from '../../helpers/rule-changes';
import {
	accessChanges,
	changeText,
	describeDifference,
	readChange,
	ruleChanges,
} from '../../helpers/rule-changes';
import { plainCopy } from '../../helpers/json';
import { booleanOption } from '../../helpers/booleans';
import { invalid, requireLongId } from '../../helpers/validation';
import type { KnolyxClient } from '../../transport';
import type { OperationRuntime } from '../types';
import { ruleEditorOf } from './editor';
import { namingOf } from './names';
import type { EditMode, RuleEditResult } from './editor';
import type { Id } from '../../helpers/validation';

/**
 * What the rule writes share: the Rule Name field, reading the course and rule name of an item,
 * Preview and Apply Previewed Change, the difference every write outputs, and running a safe
 * edit (Add Workgroup, Remove Workgroup, Create or Update, Delete) through the run's rule
 * editor, which reads the list, changes the named rule only and saves the whole list back.
 * Every operation needs BUSINESS_RULE_MANAGE.
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

function readRuleName(ctx: IExecuteFunctions, itemIndex: number, courseId: Id): string {
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
): { courseId: Id; ruleName: string } {
	const courseId = requireLongId(ctx, itemIndex, 'courseId', 'Course');
	return { courseId, ruleName: readRuleName(ctx, itemIndex, courseId) };
}

// ---------------------------------------------------------------------------------------------
// Preview and Apply Previewed Change: options of every rule write.

const PREVIEW = 'Preview (Send Nothing)';

export const previewOption: INodeProperties = {
	displayName: PREVIEW,
	name: 'preview',
	type: 'boolean',
	default: false,
	description:
		"Whether to only read the course's rules and output the list this would save, with the difference (Summary, Rule Changes, Access Changes); nothing is sent. Feed the output's Change to Apply Previewed Change to make exactly that change.",
};

/** What a rule write's row in the README's Operations table adds about Preview. */
export const PREVIEW_IN_README =
	'; Options → *Preview* outputs the list it would save and the difference, sending nothing';

const PREVIEWED_CHANGE = 'Apply Previewed Change';

export const previewedChangeOption: INodeProperties = {
	displayName: PREVIEWED_CHANGE,
	name: 'previewedChange',
	type: 'string',
	default: '',
	placeholder: "{{ $('Preview').item.json.change }}",
	description:
		"The 'change' of a preview's output item (the same operation and parameters with Preview on). Saves exactly the list the preview showed, and refuses, naming what changed, when the course's rules are no longer the ones the preview read.",
};

/** An Options collection of the given options. */
export function optionsField(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options,
	};
}

/** The Options of a rule write: Preview, Apply Previewed Change, then the operation's own. */
export function writeOptions(own: INodeProperties[] = []): INodeProperties {
	return optionsField([previewOption, previewedChangeOption, ...own]);
}

/** The Options of a rule write's item. */
export function optionsOf(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as unknown;
	return options && typeof options === 'object' ? (options as IDataObject) : {};
}

/**
 * Whether an item of a rule write is a preview (it then reads only), read the one way every
 * boolean is (helpers/booleans.ts): any value other than true or false, from an expression
 * too, fails naming the field and the item, before anything is sent. A preview never saves.
 */
export function isPreview(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return booleanOption(ctx, itemIndex, 'preview', PREVIEW, 'to save the change') ?? false;
}

/**
 * An operation's `readsOnly`: the item is a preview. A value that is no boolean is no preview
 * here (the item then needs an agent's consent); `prepare` refuses it before anything is sent.
 */
export function previewItem(this: IExecuteFunctions, itemIndex: number): boolean {
	try {
		return isPreview(this, itemIndex);
	} catch {
		return false;
	}
}

/** A change as read from a parameter (`field` names it in the error), for the course given. */
export function readChangeParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): RuleListChange {
	const change = readChange(value);
	if ('problem' in change) throw invalid(ctx, itemIndex, field, change.problem);
	return change;
}

/** How an item of a rule write runs: saved, previewed, or applying a preview of `operation` on `courseId`. */
export function readWriteMode(
	ctx: IExecuteFunctions,
	itemIndex: number,
	courseId: Id,
	operation: string,
): EditMode {
	const preview = isPreview(ctx, itemIndex);
	const raw = optionsOf(ctx, itemIndex).previewedChange;
	if (raw === '' || raw === undefined || raw === null)
		return { kind: preview ? 'preview' : 'save' };
	if (preview)
		throw invalid(ctx, itemIndex, PREVIEWED_CHANGE, 'cannot be used together with Preview');
	const change = readChangeParameter(ctx, itemIndex, raw, PREVIEWED_CHANGE);
	if (change.courseId !== courseId)
		throw invalid(
			ctx,
			itemIndex,
			PREVIEWED_CHANGE,
			`is a change of course ${change.courseId}, not of course ${courseId}`,
		);
	if (change.operation !== operation)
		throw invalid(
			ctx,
			itemIndex,
			PREVIEWED_CHANGE,
			`is a preview of the operation "${change.operation}", not of "${operation}"`,
		);
	return {
		kind: 'apply',
		before: change.before,
		after: change.after,
		tenant: change.tenant,
		text: changeText(change),
	};
}

/**
 * A rule write's output item: its own fields (`own`, which open with courseId), with the
 * difference up front for n8n's table view (Preview, Summary), then Rule Changes, Access
 * Changes, the list before (Before), the list after (Rules: as saved, or as a preview would save
 * it) and Change, the same two lists exactly (long ids as their digits), for Restore and Apply
 * Previewed Change.
 */
export async function withChange(
	client: KnolyxClient,
	itemIndex: number,
	own: IDataObject,
	change: RuleListChange,
	preview: boolean,
): Promise<IDataObject> {
	const { courseId, before, after } = change;
	const rules = ruleChanges(before, after);
	const access = accessChanges(courseId, before, after);
	// A preview is for a person to approve: its sentences name the course and the workgroups.
	const naming = preview ? await namingOf(client, courseId, access, itemIndex) : undefined;
	return {
		courseId,
		preview,
		summary: describeDifference(rules, access, naming),
		...own,
		...(naming && naming.notRead.length > 0 && { namesNotRead: naming.notRead }),
		ruleChanges: rules,
		accessChanges: access,
		before: plainCopy(before),
		rules: plainCopy(after),
		change: changeText(change),
	};
}

// ---------------------------------------------------------------------------------------------
// The safe edits.

/** The parameters of a safe edit, as its `prepare` returns them. */
export interface EditParams {
	courseId: Id;
	edit: RuleEdit;
	mode: EditMode;
	operation: string;
}

/** A safe edit's `prepare` result, with its mode read from its options. */
export function editParams(
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: string,
	courseId: Id,
	edit: RuleEdit,
): EditParams {
	const mode = readWriteMode(ctx, itemIndex, courseId, operation);
	return {
		courseId,
		edit: mode.kind === 'apply' ? withShownDefaults(edit, mode.before, mode.after) : edit,
		mode,
		operation,
	};
}

/**
 * Applying a preview that created the rule: the new rule's start and end are the ones the
 * preview showed (its defaults were "now"), so that the list saved is the list shown.
 */
function withShownDefaults(edit: RuleEdit, before: Rule[], after: Rule[]): RuleEdit {
	if (!('defaults' in edit) || before.some((rule) => rule.name === edit.ruleName)) return edit;
	const shown = after.find((rule) => rule.name === edit.ruleName);
	if (!shown) return edit;
	const { startDateTime, endDateTime } = shown;
	if (typeof startDateTime !== 'string' || typeof endDateTime !== 'string') return edit;
	return { ...edit, defaults: { ...edit.defaults, startDateTime, endDateTime } };
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

async function editResult(
	params: EditParams,
	result: RuleEditResult,
	runtime: OperationRuntime,
): Promise<IDataObject> {
	const { courseId, edit, mode, operation } = params;
	const { outcome } = result;
	const [whenNew, whenExisting, whenUnchanged] = actionWords[edit.kind];
	const action = result.alreadyApplied
		? 'alreadyApplied'
		: !outcome.changed
			? whenUnchanged
			: outcome.existed
				? whenExisting
				: whenNew;
	const changed = !result.alreadyApplied && outcome.changed;
	const json: IDataObject = { courseId, ruleName: edit.ruleName, action, changed };
	if (mode.kind === 'apply') json.alreadyApplied = result.alreadyApplied === true;
	if ('workgroupId' in edit) json.workgroupId = edit.workgroupId;
	if (result.rule) json.rule = result.rule;
	json.ruleCount = result.ruleCount;
	const { client, itemIndex } = runtime;
	const tenant = await client.credentialScope();
	const change = { courseId, operation, tenant, before: result.before, after: result.after };
	return await withChange(client, itemIndex, json, change, mode.kind === 'preview');
}

/** A safe edit's `execute`: the run's rule editor applies it (merged with the run's other edits of the course). */
export async function runRuleEdit(
	params: EditParams,
	runtime: OperationRuntime,
): Promise<IDataObject> {
	const { courseId, edit, mode } = params;
	const { client, itemIndex } = runtime;
	const result = await ruleEditorOf(client).edit(courseId, edit, itemIndex, mode);
	return await editResult(params, result, runtime);
}
