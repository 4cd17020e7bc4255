import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { readRules } from '../../transport';
import { plainCopy } from '../../helpers/json';
import { resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';
import { readRuleTarget, ruleNameField } from './shared';
import type { Id } from '../../helpers/validation';

const displayOptions = { show: { resource: ['rule'], operation: ['get'] } };

/** How many of the course's rule names a "not found" error lists. */
const NAMES_SHOWN = 10;

export const get: KnolyxOperation<{ courseId: Id; ruleName: string }> = {
	option: {
		name: 'Get',
		description: 'Get the named rule of a course. Needs BUSINESS_RULE_MANAGE.',
		action: 'Get a course rule',
	},
	agent: { effects: ['readOnly'] },
	readme: {
		does: "The rule named in *Rule Name* (empty: `PAYMENT_INTEGRATION_COURSE_{courseId}`), as read; writes nothing. A name the course lacks fails that item (404) with the course's rule names",
	},
	description: updateDisplayOptions(displayOptions, [
		resourceLocator('course'),
		{
			...ruleNameField,
			description:
				'Name of the rule to get, compared exactly. Leave empty for PAYMENT_INTEGRATION_COURSE_{courseId}, the name suggested by Knolyx for payment integrations.',
		},
	]),
	prepare(itemIndex) {
		return readRuleTarget(this, itemIndex);
	},
	async execute({ courseId, ruleName }, runtime) {
		const { body } = await readRules(runtime.client, courseId, runtime.itemIndex);
		const rules = body as IDataObject[];
		// The same match as the rule edits: the exact name, and never a guess between two.
		const named = rules.filter((rule) => rule?.name === ruleName);
		if (named.length > 1) {
			throw new NodeOperationError(
				this.getNode(),
				`Course ${courseId} has ${named.length} access rules named "${ruleName}"`,
				{
					description: 'Rename one in Knolyx, or read them all with Course Access Rule → Get Many.',
					itemIndex: runtime.itemIndex,
				},
			);
		}
		if (named.length === 0) {
			const names = rules.map((rule) => rule?.name).filter((name) => typeof name === 'string');
			const shown = names
				.slice(0, NAMES_SHOWN)
				.map((name) => `"${name}"`)
				.join(', ');
			const more = names.length > NAMES_SHOWN ? `, and ${names.length - NAMES_SHOWN} more` : '';
			const message = `Course ${courseId} has no access rule named "${ruleName}"`;
			throw new NodeApiError(this.getNode(), { message } as JsonObject, {
				message,
				description: names.length
					? `Rule names are compared exactly (case and spaces count). The course's rules: ${shown}${more}.`
					: 'The course has no access rules.',
				httpCode: '404',
				itemIndex: runtime.itemIndex,
			});
		}
		// Long ids come out as their exact digits (text), every other value as read.
		return plainCopy(named[0]);
	},
};
