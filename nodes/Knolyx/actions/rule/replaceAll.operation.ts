import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { KnolyxClient } from '../../transport';
import { asNodeError, outcomeUnknown, readRules, saveRules } from '../../transport';
import { plainCopy, readJsonParameter } from '../../helpers/json';
import type { Rule } from '../../helpers/rules';
import { asRuleList } from '../../helpers/rules';
import { invalid, requireId } from '../../helpers/validation';
import { resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';
import { sameContent } from './editor';

const displayOptions = { show: { resource: ['rule'], operation: ['replaceAll'] } };

export const replaceAll: KnolyxOperation<{ courseId: number; rules: Rule[] }> = {
	option: {
		name: 'Replace All',
		description:
			'Save a complete rule list (rules left out are deleted). Needs BUSINESS_RULE_MANAGE.',
		action: 'Replace all rules of a course',
	},
	agent: {
		effects: ['delete', 'grantAccess', 'narrowAccess'],
		risk: 'deletes every access rule of the course that is left out of the list and can give a whole workgroup, or everyone (a rule made PUBLIC), access to the course',
		instead:
			'Course Access Rule → Remove Workgroup, which keeps every other rule, or ask a person to change the rules',
	},
	readme: {
		does: 'Raw save of a complete list: **rules left out are deleted**; an empty list is refused unless *Allow Empty List* is on',
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
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			options: [
				{
					displayName: 'Allow Empty List',
					name: 'allowEmpty',
					type: 'boolean',
					default: false,
					description:
						'Whether to allow saving an empty list, which deletes every rule of the course',
				},
			],
		},
	]),
	prepare(itemIndex) {
		const courseId = requireId(this, itemIndex, 'courseId', 'Course');
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
		const { allowEmpty } = this.getNodeParameter('options', itemIndex, {}) as {
			allowEmpty?: boolean;
		};
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
	return (
		read.length === sent.length &&
		sameContent(
			read.map((rule, i) => asSent(rule, sent[i])),
			sent,
		)
	);
}

/**
 * Saves a complete list. The list read first tells, after a lost answer (dropped connection,
 * 5xx), whether the save was applied (the platform holds the list sent), not applied (it holds
 * what was read: sent again), or something else happened meanwhile: then nothing is sent and
 * the item fails, so a list saved by someone else in between is never overwritten blindly.
 */
async function replaceRules(
	client: KnolyxClient,
	courseId: number,
	rules: Rule[],
	itemIndex: number,
): Promise<Rule[]> {
	// Read as given (a rule without a name is no reason to refuse replacing the list).
	const readList = async (): Promise<Rule[]> => {
		const { body } = await readRules(client, courseId, itemIndex);
		return body as Rule[];
	};
	const before = await readList();
	for (let attempt = 1; attempt <= REPLACE_ATTEMPTS; attempt++) {
		try {
			const { body } = await saveRules(client, courseId, rules, itemIndex);
			return Array.isArray(body) ? (body as Rule[]) : await readList();
		} catch (error) {
			if (!outcomeUnknown(error)) throw asNodeError(client.node, error, itemIndex);
			let now: Rule[];
			try {
				now = await readList();
			} catch (readError) {
				const cause = asNodeError(client.node, readError, itemIndex);
				throw new NodeOperationError(
					client.node,
					`The save of the rules of course ${courseId} got no clear answer, and the rules could not be read back to check it: nothing was sent again`,
					{
						itemIndex,
						description: `The save may have been applied. Read the rules with Get Many before you run Replace All again. The read failed with: ${cause.message}`,
					},
				);
			}
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
	throw new NodeOperationError(
		client.node,
		`The rules of course ${courseId} could not be saved: the platform kept failing to answer`,
		{
			itemIndex,
			description: 'Nothing was saved (the rules are as they were). Try again later.',
		},
	);
}
