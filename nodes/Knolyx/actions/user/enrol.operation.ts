import type { IExecuteFunctions } from 'n8n-workflow';

import { optionalApiDate, requireId } from '../../helpers/validation';
import { provisionAndAddMember } from '../calls';
import type { Enrolment } from '../calls';
import { removalDateField, shownFor, workgroupLocator } from '../common';
import type { KnolyxOperation } from '../types';
import { readUser, userFields } from './provision.operation';

const displayOptions = shownFor('user', ['enrol']);

/** Flow B step 5 in one node: provision the buyer, then add them to the course's workgroup. */
export const enrol: KnolyxOperation<Enrolment> = {
	description: [
		...userFields('user', ['enrol']),
		workgroupLocator(
			displayOptions,
			'The workgroup assigned to a rule of the course; membership gives access to the course',
		),
		removalDateField(displayOptions),
	],
	prepare(this: IExecuteFunctions, itemIndex) {
		return {
			user: readUser(this, itemIndex),
			workgroupId: requireId(this, itemIndex, 'workgroupId', 'Workgroup'),
			removalDate: optionalApiDate(this, itemIndex, this.getNodeParameter('removalDate', itemIndex, ''), 'Removal Date'),
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
