import { updateDisplayOptions } from 'n8n-workflow';

import type { Id } from '../../helpers/validation';
import { requireEmail, requireLongId } from '../../helpers/validation';
import { addMember as addMemberCall } from '../../transport';
import { emailField, readRemovalDate, removalDateField, resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';

interface AddMemberParams {
	workgroupId: Id;
	email: string;
	removalDate: string | null;
}

const displayOptions = { show: { resource: ['workgroup'], operation: ['addMember'] } };

export const addMember: KnolyxOperation<AddMemberParams> = {
	option: {
		name: 'Add Member',
		description:
			'Add a provisioned user to a workgroup, optionally until a removal date. Adding again updates the date. Needs WORKGROUP_ADD_MEMBER.',
		action: 'Add member to workgroup',
	},
	agent: { effects: ['changePerson'] },
	readme: {
		does: 'Add a provisioned user, optionally until a removal date (adding again updates it); done only when Knolyx answers with the e-mail (or nothing): any other answer is sent once more, then the item fails as *not confirmed*',
	},
	description: updateDisplayOptions(displayOptions, [
		resourceLocator('workgroup'),
		emailField('E-mail address of a user already provisioned on Knolyx'),
		removalDateField,
	]),
	prepare(itemIndex) {
		return {
			workgroupId: requireLongId(this, itemIndex, 'workgroupId', 'Workgroup'),
			email: requireEmail(this, itemIndex),
			removalDate: readRemovalDate(this, itemIndex),
		};
	},
	async execute(params, runtime) {
		return await addMemberCall(runtime.client, params, runtime.itemIndex);
	},
};
