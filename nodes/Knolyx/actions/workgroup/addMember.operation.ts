import { optionalApiDate, requireEmail, requireId } from '../../helpers/validation';
import { addMember as addMemberCall } from '../calls';
import { emailField, removalDateField, shownFor, workgroupLocator } from '../common';
import type { KnolyxOperation } from '../types';

interface AddMemberParams {
	workgroupId: number;
	email: string;
	removalDate: string | null;
}

const displayOptions = shownFor('workgroup', ['addMember']);

export const addMember: KnolyxOperation<AddMemberParams> = {
	description: [
		workgroupLocator(displayOptions),
		emailField(displayOptions, 'E-mail address of a user already provisioned on Knolyx'),
		removalDateField(displayOptions),
	],
	prepare(itemIndex) {
		return {
			workgroupId: requireId(this, itemIndex, 'workgroupId', 'Workgroup'),
			email: requireEmail(this, itemIndex),
			removalDate: optionalApiDate(this, itemIndex, this.getNodeParameter('removalDate', itemIndex, ''), 'Removal Date'),
		};
	},
	async execute(params, runtime) {
		return await addMemberCall(runtime, params.workgroupId, params.email, params.removalDate);
	},
};
