import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import type { KnolyxClient } from '../../transport';
import { ENDPOINTS, outcomeUnknown } from '../../transport';
import { asNodeError } from '../../transport/errors';
import { parseLossless, plainCopy } from '../../transport/json';
import type { Rule, RuleEdit, RuleFields } from '../../helpers/rules';
import { asRuleList, defaultRuleName, paymentRuleDefaults } from '../../helpers/rules';
import { invalid, optionalApiDate, parseIdList, requireId } from '../../helpers/validation';
import { courseLocator, shownFor, workgroupLocator } from '../common';
import { ruleEditorOf, sameContent } from './editor';
import type { KnolyxOperation } from '../types';
import type { RuleEditResult } from './editor';

/** Course access rules (endpoints 12, 13). All need BUSINESS_RULE_MANAGE. */

function ruleNameField(operations: string[]): INodeProperties {
	return {
		displayName: 'Rule Name',
		name: 'ruleName',
		type: 'string',
		default: '',
		placeholder: 'PAYMENT_INTEGRATION_COURSE_{courseId}',
		description:
			'Name that identifies the rule on the course. Leave empty for PAYMENT_INTEGRATION_COURSE_{courseId}, the name suggested by Knolyx for payment integrations. Every other rule of the course is kept exactly as it is.',
		displayOptions: shownFor('rule', operations),
	};
}

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

/** A safe edit: read the list, change the named rule only, save the whole list back. */
function safeEdit(
	operation: string,
	extra: INodeProperties[],
	build: (ctx: IExecuteFunctions, itemIndex: number, courseId: number, ruleName: string) => RuleEdit,
): KnolyxOperation<EditParams> {
	const displayOptions = shownFor('rule', [operation]);
	return {
		description: [courseLocator(displayOptions), ruleNameField([operation]), ...extra],
		mergesItems: true,
		prepare(itemIndex) {
			const courseId = requireId(this, itemIndex, 'courseId', 'Course');
			return { courseId, edit: build(this, itemIndex, courseId, readRuleName(this, itemIndex, courseId)) };
		},
		async execute({ courseId, edit }, runtime) {
			const result = await ruleEditorOf(runtime.client).edit(courseId, edit, runtime.itemIndex);
			return editResult(courseId, edit, result);
		},
	};
}

const addWorkgroup = safeEdit(
	'addWorkgroup',
	[workgroupLocator(shownFor('rule', ['addWorkgroup']), 'The workgroup whose members get access to the course')],
	(ctx, itemIndex, _courseId, ruleName) => ({
		kind: 'addWorkgroup',
		ruleName,
		workgroupId: requireId(ctx, itemIndex, 'workgroupId', 'Workgroup'),
		defaults: paymentRuleDefaults(),
	}),
);

const removeWorkgroup = safeEdit(
	'removeWorkgroup',
	[workgroupLocator(shownFor('rule', ['removeWorkgroup']), 'The workgroup to take out of the rule')],
	(ctx, itemIndex, _courseId, ruleName) => ({
		kind: 'removeWorkgroup',
		ruleName,
		workgroupId: requireId(ctx, itemIndex, 'workgroupId', 'Workgroup'),
	}),
);

const deleteRule = safeEdit('delete', [], (_ctx, _itemIndex, _courseId, ruleName) => ({ kind: 'delete', ruleName }));

const upsertShown = shownFor('rule', ['upsert']);
const upsert = safeEdit(
	'upsert',
	[
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: [
				{ name: 'Private (Only the Associated Workgroups)', value: 'PRIVATE' },
				{ name: 'Public (Anyone on the Platform)', value: 'PUBLIC' },
				{ name: 'Unchanged (Private for a New Rule)', value: 'unchanged' },
			],
			default: 'unchanged',
			description:
				'PRIVATE restricts access to the workgroups of the rule; use it for external payment enrolment. Unchanged: an existing rule keeps its type, a new rule is PRIVATE.',
			displayOptions: upsertShown,
		},
		{
			displayName: 'Start',
			name: 'startDateTime',
			type: 'dateTime',
			default: '',
			description: 'When access starts. Empty: now for a new rule, unchanged for an existing one.',
			hint: 'Sent in UTC as yyyy-MM-dd HH:mm:ss',
			displayOptions: upsertShown,
		},
		{
			displayName: 'End',
			name: 'endDateTime',
			type: 'dateTime',
			default: '',
			description:
				'When access ends; students cannot take the course after it. Empty: 50 years from now for a new rule, unchanged for an existing one.',
			hint: 'Sent in UTC as yyyy-MM-dd HH:mm:ss',
			displayOptions: upsertShown,
		},
		{
			displayName: 'Workgroup IDs',
			name: 'workgroupIds',
			type: 'string',
			default: '',
			placeholder: 'e.g. 7, 12',
			description:
				'Comma-separated workgroup IDs that replace the WORKGROUP association of the rule. Empty: unchanged (none for a new rule). Other associations (users, departments, jobs) are always kept.',
			displayOptions: upsertShown,
		},
	],
	(ctx, itemIndex, _courseId, ruleName) => {
		const fields: RuleFields = {};
		const type = ctx.getNodeParameter('type', itemIndex, 'unchanged') as unknown;
		if (type !== 'PRIVATE' && type !== 'PUBLIC' && type !== 'unchanged') {
			throw invalid(ctx, itemIndex, 'Type', 'must be PRIVATE, PUBLIC or unchanged');
		}
		if (type !== 'unchanged') fields.type = type;
		const start = optionalApiDate(ctx, itemIndex, ctx.getNodeParameter('startDateTime', itemIndex, ''), 'Start');
		const end = optionalApiDate(ctx, itemIndex, ctx.getNodeParameter('endDateTime', itemIndex, ''), 'End');
		if (start !== null) fields.startDateTime = start;
		if (end !== null) fields.endDateTime = end;
		if (start !== null && end !== null && start >= end) throw invalid(ctx, itemIndex, 'End', 'must be after Start');
		const rawIds = ctx.getNodeParameter('workgroupIds', itemIndex, '');
		const ids = parseIdList(ctx, itemIndex, rawIds, 'Workgroup IDs');
		if (ids.length > 0) fields.workgroupIds = ids;
		const defaults = paymentRuleDefaults();
		return { kind: 'upsert', ruleName, fields, defaults };
	},
);

const getAll: KnolyxOperation<{ courseId: number }> = {
	description: [courseLocator(shownFor('rule', ['getAll']))],
	prepare(itemIndex) {
		return { courseId: requireId(this, itemIndex, 'courseId', 'Course') };
	},
	async execute({ courseId }, runtime) {
		const { body } = await runtime.client.call(ENDPOINTS.rulesRead, { params: { courseId }, itemIndex: runtime.itemIndex });
		// Long ids come out as their exact digits (text), every other value as read.
		return Array.isArray(body) ? plainCopy(body as IDataObject[]) : [];
	},
};

const replaceShown = shownFor('rule', ['replaceAll']);

const replaceAll: KnolyxOperation<{ courseId: number; rules: Rule[] }> = {
	description: [
		courseLocator(replaceShown),
		{
			displayName:
				'This saves the complete rule list of the course: every rule left out of the list is DELETED on Knolyx. To change one rule safely, use Add Workgroup, Remove Workgroup, Create or Update, or Delete instead.',
			name: 'replaceNotice',
			type: 'notice',
			default: '',
			displayOptions: replaceShown,
		},
		{
			displayName: 'Rules (JSON)',
			name: 'rules',
			type: 'json',
			default: '[]',
			required: true,
			description:
				'The complete list, as read by Get Many and modified. Rules with an ID are updated, rules without one are created, existing rules missing from the list are deleted.',
			displayOptions: replaceShown,
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			displayOptions: replaceShown,
			options: [
				{
					displayName: 'Allow Empty List',
					name: 'allowEmpty',
					type: 'boolean',
					default: false,
					description: 'Whether to allow saving an empty list, which deletes every rule of the course',
				},
			],
		},
	],
	prepare(itemIndex) {
		const courseId = requireId(this, itemIndex, 'courseId', 'Course');
		let value = this.getNodeParameter('rules', itemIndex, '[]') as unknown;
		if (typeof value === 'string') {
			try {
				value = parseLossless(value);
			} catch (error) {
				throw invalid(this, itemIndex, 'Rules (JSON)', `is not valid JSON: ${(error as Error).message}`);
			}
		}
		let rules: Rule[];
		try {
			rules = asRuleList(value);
		} catch (error) {
			throw invalid(this, itemIndex, 'Rules (JSON)', 'must be a JSON array of rules, each with a "name"');
		}
		const { allowEmpty } = this.getNodeParameter('options', itemIndex, {}) as { allowEmpty?: boolean };
		if (rules.length === 0 && !allowEmpty) {
			throw invalid(
				this,
				itemIndex,
				'Rules (JSON)',
				'is empty, which would delete every rule of the course; turn on the option Allow Empty List to do that on purpose',
			);
		}
		return { courseId, rules };
	},
	async execute({ courseId, rules }, runtime) {
		const saved = await replaceRules(runtime.client, courseId, rules, runtime.itemIndex);
		return { courseId, ruleCount: saved.length, rules: plainCopy(saved) };
	},
};

/** How many times Replace All sends its list when each answer is lost and a read shows it was not applied. */
const REPLACE_ATTEMPTS = 3;

/** A rule as saved compared with one as sent: the platform adds an id to a new rule, and `action`. */
function asSent(read: Rule, sent: Rule): Rule {
	const copy: Rule = { ...read };
	if (sent.id === undefined) delete copy.id;
	if (sent.action === undefined) delete copy.action;
	return copy;
}

function holds(read: Rule[], sent: Rule[]): boolean {
	return read.length === sent.length && sameContent(read.map((rule, i) => asSent(rule, sent[i])), sent);
}

/**
 * Saves a complete list. The list read first tells, after a lost answer (dropped connection,
 * 5xx), whether the save was applied (the platform holds the list sent), not applied (it holds
 * what was read: sent again), or something else happened meanwhile: then nothing is sent and
 * the item fails, so a list saved by someone else in between is never overwritten blindly.
 */
async function replaceRules(client: KnolyxClient, courseId: number, rules: Rule[], itemIndex: number): Promise<Rule[]> {
	// Read as given (a rule without a name is no reason to refuse replacing the list).
	const readList = async (): Promise<Rule[]> => {
		const { body } = await client.call(ENDPOINTS.rulesRead, { params: { courseId }, itemIndex });
		return Array.isArray(body) ? (body as Rule[]) : [];
	};
	const before = await readList();
	for (let attempt = 1; attempt <= REPLACE_ATTEMPTS; attempt++) {
		try {
			const { body } = await client.call(ENDPOINTS.rulesSave, { params: { courseId }, body: rules, itemIndex });
			return Array.isArray(body) ? (body as Rule[]) : await readList();
		} catch (error) {
			if (!outcomeUnknown(error)) throw asNodeError(client.node, error, itemIndex);
			const now = await readList();
			if (holds(now, rules)) return now;
			if (!sameContent(now, before)) {
				throw new NodeOperationError(
					client.node,
					`The save of the rules of course ${courseId} got no clear answer, and the rules have changed since they were read: nothing was sent again`,
					{
						itemIndex,
						description:
							'Someone else saved rules of this course meanwhile. Read them again with Get Many, check them, and run Replace All again.',
					},
				);
			}
		}
	}
	throw new NodeOperationError(client.node, `The rules of course ${courseId} could not be saved: the platform kept failing to answer`, {
		itemIndex,
		description: 'Nothing was saved (the rules are as they were). Try again later.',
	});
}

export const ruleOperations = { addWorkgroup, delete: deleteRule, getAll, removeWorkgroup, replaceAll, upsert };

export const ruleDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['rule'] } },
		options: [
			{
				name: 'Add Workgroup',
				value: 'addWorkgroup',
				description:
					'Give a workgroup access to the course through the named rule; creates the rule (PRIVATE, 50 years) when missing. Other rules are kept. Needs BUSINESS_RULE_MANAGE.',
				action: 'Add a workgroup to a course rule',
			},
			{
				name: 'Create or Update',
				value: 'upsert',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
				action: 'Create or update a course rule',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete the named rule only; every other rule is kept',
				action: 'Delete a course rule',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Read the access rules of a course',
				action: 'Get many course rules',
			},
			{
				name: 'Remove Workgroup',
				value: 'removeWorkgroup',
				description: 'Take a workgroup out of the named rule. Other rules and associations are kept.',
				action: 'Remove a workgroup from a course rule',
			},
			{
				name: 'Replace All',
				value: 'replaceAll',
				description: 'Save a complete rule list (rules left out are deleted)',
				action: 'Replace all rules of a course',
			},
		],
		default: 'addWorkgroup',
	},
	...addWorkgroup.description,
	...upsert.description,
	...deleteRule.description,
	...removeWorkgroup.description,
	...getAll.description,
	...replaceAll.description,
];

