import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { addMember, provisionUser } from '../transport';
import type { ProvisionResult, UserInput } from '../transport';
import { parseLongId } from '../helpers/validation';
import type { Id } from '../helpers/validation';
import type { OperationRuntime } from './types';

/**
 * The combined flow of User → Enrol in Workgroup and Event → Register: provision the user,
 * then add them to the workgroup (each call: transport/api/).
 */

export interface Enrolment {
	user: UserInput;
	workgroupId: number;
	removalDate: string | null;
}

export interface EnrolResult<UserId = undefined> {
	provisioned: ProvisionResult;
	/** Event → Register's: read from the provision answer before the membership is added. */
	userId: UserId;
	membership: IDataObject;
}

/** Provision the user, read what `readUserId` needs from the answer, then add them to the workgroup. */
async function enrol<UserId>(
	runtime: OperationRuntime,
	enrolment: Enrolment,
	readUserId: (runtime: OperationRuntime, result: ProvisionResult) => UserId,
): Promise<EnrolResult<UserId>> {
	const { client, itemIndex } = runtime;
	const provisioned = await provisionUser(client, enrolment.user, itemIndex);
	const userId = readUserId(runtime, provisioned);
	const { workgroupId, removalDate } = enrolment;
	const membership = await addMember(
		client,
		{ workgroupId, email: enrolment.user.email, removalDate },
		itemIndex,
	);
	return { provisioned, userId, membership };
}

/** User → Enrol in Workgroup: provision the user, then add them to the workgroup. */
export async function provisionAndAddMember(
	runtime: OperationRuntime,
	enrolment: Enrolment,
): Promise<EnrolResult> {
	return await enrol(runtime, enrolment, () => undefined);
}

/**
 * Event → Register: the same, with the user ID (attendance needs it) checked before the
 * membership is added, so a provision answer without one changes nothing more.
 */
export async function provisionAndAddMemberWithUserId(
	runtime: OperationRuntime,
	enrolment: Enrolment,
): Promise<EnrolResult<Id>> {
	return await enrol(runtime, enrolment, userIdOf);
}

/** The user id from a provision answer, exactly (a long id as its digits), or a clear error. */
function userIdOf(runtime: OperationRuntime, result: ProvisionResult): Id {
	const id = parseLongId(result.user.id ?? result.user.userId);
	if (id === undefined) {
		throw new NodeOperationError(
			runtime.client.node,
			`Knolyx did not return the user ID of ${String(result.user.email)} when provisioning, so attendance cannot be marked`,
			{ itemIndex: runtime.itemIndex },
		);
	}
	return id;
}
