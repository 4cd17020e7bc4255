import { NodeOperationError } from 'n8n-workflow';

import type { KnolyxClient } from '../../transport';
import { asNodeError, outcomeUnknown, readRules, saveRules } from '../../transport';
import type { Rule } from '../../helpers/rules';
import { holdsList, sameContent } from '../../helpers/rules';
import { describeRuleChanges, ruleChanges, tenantProblem } from '../../helpers/rule-changes';
import type { Id } from '../../helpers/validation';

/**
 * Saving a complete list (Replace All, Restore, applying a preview of Replace All) and the check
 * that a course still holds the list a change was made from.
 */

/**
 * Refuses, before anything is sent, a change made on another platform or project than the
 * credential's (`field` names it in the error); else the credential's tenant.
 */
export async function checkTenant(
	client: KnolyxClient,
	itemIndex: number,
	field: string,
	tenant: string,
): Promise<void> {
	const problem = tenantProblem(tenant, await client.credentialScope());
	if (!problem) return;
	throw new NodeOperationError(client.node, `${field}: ${problem} (item ${itemIndex})`, {
		itemIndex,
		description:
			'A change is applied or restored only on the platform and project it was made on, with a credential of that project. Nothing was sent.',
	});
}

/** The rules of a course as given (a rule without a name is no reason to refuse replacing the list). */
export async function readRuleList(
	client: KnolyxClient,
	courseId: Id,
	itemIndex: number,
): Promise<Rule[]> {
	const { body } = await readRules(client, courseId, itemIndex);
	return body as Rule[];
}

/**
 * The refusal when a course no longer holds `expected` (the list a preview read, or the list a
 * change left): names what changed, sends nothing.
 */
export function changedSince(
	client: KnolyxClient,
	courseId: Id,
	since: 'the preview' | 'that change',
	expected: Rule[],
	now: Rule[],
	itemIndex: number,
	description: string,
): NodeOperationError {
	return new NodeOperationError(
		client.node,
		`The rules of course ${courseId} changed since ${since}: ${describeRuleChanges(ruleChanges(expected, now))} Nothing was sent`,
		{ itemIndex, description },
	);
}

/** How many times a list is sent when each answer is lost and a read shows it was not applied. */
const REPLACE_ATTEMPTS = 3;

/**
 * Saves a complete list over `before` (the list just read) and returns the list the course then
 * holds. The save's answer counts only when it is the list (with `confirm`, not even then: Restore
 * and applying a preview read the list back, so that a list someone saved right after is never
 * reported as theirs); any other answer (a 200 "OK", an empty body) is checked by a read that must
 * hold the list sent. After a lost answer (dropped
 * connection, 5xx) a read tells whether the save was applied (the list sent), not applied (the
 * list read first: sent again), or something else happened meanwhile: then nothing is sent and
 * the item fails, so a list saved by someone else in between is never overwritten blindly.
 */
export async function replaceRules(
	client: KnolyxClient,
	courseId: Id,
	rules: Rule[],
	itemIndex: number,
	before: Rule[],
	confirm = false,
): Promise<Rule[]> {
	for (let attempt = 1; attempt <= REPLACE_ATTEMPTS; attempt++) {
		let answered = false;
		let answeredWithList = false;
		try {
			const { body } = await saveRules(client, courseId, rules, itemIndex);
			if (Array.isArray(body) && !confirm) return body as Rule[];
			answeredWithList = Array.isArray(body) && holdsList(body as Rule[], rules);
			answered = true;
		} catch (error) {
			if (!outcomeUnknown(error)) throw asNodeError(client.node, error, itemIndex);
		}
		let now: Rule[];
		try {
			now = await readRuleList(client, courseId, itemIndex);
		} catch (readError) {
			const cause = asNodeError(client.node, readError, itemIndex);
			const answer = answered ? 'was answered without the list' : 'got no clear answer';
			throw new NodeOperationError(
				client.node,
				`The save of the rules of course ${courseId} ${answer}, and the rules could not be read back to check it: nothing was sent again`,
				{
					itemIndex,
					description: `The save may have been applied. Read the rules with Get Many before you save them again. The read failed with: ${cause.message}`,
				},
			);
		}
		if (holdsList(now, rules)) return now;
		// The platform answered with the list saved, and the read shows another: someone saved since.
		if (answeredWithList)
			throw new NodeOperationError(
				client.node,
				`The rules of course ${courseId} are not the list saved: read back after the save, ${describeRuleChanges(ruleChanges(rules, now))} Someone else saved rules of this course meanwhile; nothing was sent again`,
				{
					itemIndex,
					description:
						'Read the rules with Get Many and check them: the list this run saved was replaced right after.',
				},
			);
		if (answered) {
			// The platform said the save succeeded, and the course does not hold the list sent.
			throw new NodeOperationError(
				client.node,
				`The rules of course ${courseId} were not saved: the platform answered the save, but the rules read back are not the list sent`,
				{
					itemIndex,
					description: sameContent(now, before)
						? 'The rules are as they were before the save. Check the Base URL of the credential (it must be the API, not a website) and the permission BUSINESS_RULE_MANAGE of its key.'
						: `The rules read back differ from the list sent: ${describeRuleChanges(ruleChanges(rules, now))} Someone else may have saved rules of this course meanwhile; read them with Get Many.`,
				},
			);
		}
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
	throw new NodeOperationError(
		client.node,
		`The rules of course ${courseId} could not be saved: the platform kept failing to answer`,
		{
			itemIndex,
			description: 'Nothing was saved (the rules are as they were). Try again later.',
		},
	);
}
