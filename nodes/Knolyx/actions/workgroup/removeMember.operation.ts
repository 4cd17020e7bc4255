import { updateDisplayOptions } from 'n8n-workflow';

import { removeMember as removeMemberCall } from '../../transport';
import type { Id } from '../../helpers/validation';
import { requireEmail, requireLongId } from '../../helpers/validation';
import { asObject, emailField, resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';

interface RemoveMemberParams {
	workgroupId: Id;
	email: string;
}

const displayOptions = { show: { resource: ['workgroup'], operation: ['removeMember'] } };

export const removeMember: KnolyxOperation<RemoveMemberParams> = {
	option: {
		name: 'Remove Member',
		description: 'Remove a user from a workgroup. Needs WORKGROUP_REMOVE_MEMBER.',
		action: 'Remove member from workgroup',
	},
	agent: { effects: ['changePerson'] },
	readme: { does: 'Remove a user from a workgroup' },
	description: updateDisplayOptions(displayOptions, [
		resourceLocator('workgroup'),
		emailField('E-mail address of the member to remove'),
	]),
	prepare(itemIndex) {
		return {
			workgroupId: requireLongId(this, itemIndex, 'workgroupId', 'Workgroup'),
			email: requireEmail(this, itemIndex),
		};
	},
	async execute({ workgroupId, email }, runtime) {
		const { body } = await removeMemberCall(
			runtime.client,
			{ workgroupId, email },
			runtime.itemIndex,
		);
		return { ...asObject(body), workgroupId, email, removed: true };
	},
};
