import { ENDPOINTS } from '../../transport';
import { requireEmail, requireId } from '../../helpers/validation';
import { asObject, emailField, shownFor, workgroupLocator } from '../common';
import type { KnolyxOperation } from '../types';

interface RemoveMemberParams {
	workgroupId: number;
	email: string;
}

const displayOptions = shownFor('workgroup', ['removeMember']);

export const removeMember: KnolyxOperation<RemoveMemberParams> = {
	description: [workgroupLocator(displayOptions), emailField(displayOptions, 'E-mail address of the member to remove')],
	prepare(itemIndex) {
		return {
			workgroupId: requireId(this, itemIndex, 'workgroupId', 'Workgroup'),
			email: requireEmail(this, itemIndex),
		};
	},
	async execute({ workgroupId, email }, runtime) {
		const { body } = await runtime.client.call(ENDPOINTS.memberRemove, {
			params: { workgroupId, email },
			itemIndex: runtime.itemIndex,
		});
		return { ...asObject(body), workgroupId, email, removed: true };
	},
};
