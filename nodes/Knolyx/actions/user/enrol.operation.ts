import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireId } from '../../helpers/validation';
import { provisionAndAddMember } from '../enrol';
import type { Enrolment } from '../enrol';
import { readRemovalDate, removalDateField, resourceLocator } from '../common';
import type { KnolyxOperation } from '../types';
import { readUser, userFields, userOptions } from './shared';

const displayOptions = { show: { resource: ['user'], operation: ['enrol'] } };

/** Flow B (README, "The two integration flows") in one node: provision the buyer, then add them to the course's workgroup. */
export const enrol: KnolyxOperation<Enrolment> = {
	option: {
		name: 'Enrol in Workgroup',
		description:
			'Provision the user, then add them to a workgroup (external payment enrolment). Needs USER_PROVISION and WORKGROUP_ADD_MEMBER.',
		action: 'Enrol a user in a workgroup',
	},
	agent: { effects: ['changePerson'] },
	readme: {
		does: "Flow B in one node: provision, then add to the course's workgroup (optional removal date; Options → Send Welcome Email as in Provision)",
	},
	description: updateDisplayOptions(displayOptions, [
		...userFields,
		resourceLocator(
			'workgroup',
			'The workgroup assigned to a rule of the course; membership gives access to the course',
		),
		removalDateField,
		userOptions,
	]),
	prepare(this: IExecuteFunctions, itemIndex) {
		return {
			user: readUser(this, itemIndex),
			workgroupId: requireId(this, itemIndex, 'workgroupId', 'Workgroup'),
			removalDate: readRemovalDate(this, itemIndex),
		};
	},
	async execute(params, runtime) {
		const { provisioned, membership } = await provisionAndAddMember(runtime, params);
		return {
			email: params.user.email,
			userId: provisioned.user.id,
			created: provisioned.created,
			user: provisioned.user,
			workgroupId: params.workgroupId,
			removalDate: params.removalDate,
			membership,
		};
	},
};
