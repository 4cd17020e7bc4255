import { updateDisplayOptions } from 'n8n-workflow';

import type { RuleFields } from '../../helpers/rules';
import { paymentRuleDefaults } from '../../helpers/rules';
import { invalid, optionalApiDate, parseIdList } from '../../helpers/validation';
import { resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';
import type { EditParams } from './shared';
import {
	editParams,
	previewItem,
	readRuleTarget,
	ruleNameField,
	runRuleEdit,
	writeOptions,
	PREVIEW_IN_README,
} from './shared';

const displayOptions = { show: { resource: ['rule'], operation: ['upsert'] } };

export const upsert: KnolyxOperation<EditParams> = {
	option: {
		name: 'Create or Update',
		description:
			'Create a new record, or update the current one if it already exists (upsert). Preview it first (Options → Preview) and show the difference before it is saved. Needs BUSINESS_RULE_MANAGE.',
		action: 'Create or update a course rule',
	},
	agent: {
		effects: ['grantAccess', 'narrowAccess'],
		risk: 'can change who may take the course (a PRIVATE payment rule made PUBLIC gives everyone free access)',
		instead: 'Course Access Rule → Get Many to read the rules, and ask a person to change them',
	},
	readme: {
		does: `Create the named rule or change its type, start, end or workgroups; each left at *unchanged* keeps the rule's value (a new rule: PRIVATE, now → +50 years, no workgroups)${PREVIEW_IN_README}`,
	},
	description: updateDisplayOptions(displayOptions, [
		resourceLocator('course'),
		ruleNameField,
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
		},
		{
			displayName: 'Start',
			name: 'startDateTime',
			type: 'dateTime',
			default: '',
			description: 'When access starts. Empty: now for a new rule, unchanged for an existing one.',
			hint: 'Sent in UTC as yyyy-MM-dd HH:mm:ss',
		},
		{
			displayName: 'End',
			name: 'endDateTime',
			type: 'dateTime',
			default: '',
			description:
				'When access ends; students cannot take the course after it. Empty: 50 years from now for a new rule, unchanged for an existing one.',
			hint: 'Sent in UTC as yyyy-MM-dd HH:mm:ss',
		},
		{
			displayName: 'Workgroup IDs',
			name: 'workgroupIds',
			type: 'string',
			default: '',
			placeholder: 'e.g. 7, 12',
			description:
				'Comma-separated workgroup IDs that replace the WORKGROUP association of the rule. Empty: unchanged (none for a new rule). Other associations (users, departments, jobs) are always kept.',
		},
		writeOptions(),
	]),
	mergesItems: true,
	readsOnly: previewItem,
	prepare(itemIndex) {
		const { courseId, ruleName } = readRuleTarget(this, itemIndex);
		const fields: RuleFields = {};
		const type = this.getNodeParameter('type', itemIndex, 'unchanged') as unknown;
		if (type !== 'PRIVATE' && type !== 'PUBLIC' && type !== 'unchanged') {
			throw invalid(this, itemIndex, 'Type', 'must be PRIVATE, PUBLIC or unchanged');
		}
		if (type !== 'unchanged') fields.type = type;
		const start = optionalApiDate(
			this,
			itemIndex,
			this.getNodeParameter('startDateTime', itemIndex, ''),
			'Start',
		);
		const end = optionalApiDate(
			this,
			itemIndex,
			this.getNodeParameter('endDateTime', itemIndex, ''),
			'End',
		);
		if (start !== null) fields.startDateTime = start;
		if (end !== null) fields.endDateTime = end;
		if (start !== null && end !== null && start >= end)
			throw invalid(this, itemIndex, 'End', 'must be after Start');
		const rawIds = this.getNodeParameter('workgroupIds', itemIndex, '');
		const ids = parseIdList(this, itemIndex, rawIds, 'Workgroup IDs');
		if (ids.length > 0) fields.workgroupIds = ids;
		const defaults = paymentRuleDefaults();
		return editParams(this, itemIndex, 'upsert', courseId, {
			kind: 'upsert',
			ruleName,
			fields,
			defaults,
		});
	},
	async execute(params, runtime) {
		return await runRuleEdit(params, runtime);
	},
};
