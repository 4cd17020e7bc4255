import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS } from '../transport';
import { parseId } from '../helpers/validation';
import type { Gender } from '../helpers/validation';
import { asObject } from './common';
import type { OperationRuntime } from './types';

/** API calls used by more than one operation (endpoint names: transport/catalogue.ts, docs/api.md). */

export interface UserInput {
	email: string;
	firstName: string;
	lastName: string;
	/** Undefined: not sent, so an existing user keeps theirs and a new one gets the platform's default. */
	gender?: Gender;
}

export interface ProvisionResult {
	created: boolean;
	user: IDataObject;
}

/** `userProvision`: 201 when the user was created (on-boarding e-mail sent), 200 when it existed. */
export async function provisionUser(runtime: OperationRuntime, user: UserInput): Promise<ProvisionResult> {
	const { statusCode, body } = await runtime.client.call(ENDPOINTS.userProvision, {
		body: {
			firstName: user.firstName,
			lastName: user.lastName,
			email: user.email,
			...(user.gender !== undefined && { gender: user.gender }),
		},
		itemIndex: runtime.itemIndex,
	});
	return { created: statusCode === 201, user: { email: user.email, ...asObject(body) } };
}

/** `memberAdd`: adds (or updates) a membership; removalDate null = never removed. */
export async function addMember(
	runtime: OperationRuntime,
	workgroupId: number,
	email: string,
	removalDate: string | null,
): Promise<IDataObject> {
	const { body } = await runtime.client.call(ENDPOINTS.memberAdd, {
		params: { workgroupId, email },
		body: { removalDate },
		itemIndex: runtime.itemIndex,
	});
	return { workgroupId, email, removalDate, ...asObject(body) };
}

/** `eventAttend`: 200 on success; 409 (already registered) is success too, the call is idempotent. */
export async function attendEvent(
	runtime: OperationRuntime,
	communityId: number,
	eventId: number,
	userId: number,
): Promise<IDataObject> {
	const { statusCode, body } = await runtime.client.call(ENDPOINTS.eventAttend, {
		params: { communityId, eventId, userId },
		subject: {
			forbidden: `Knolyx refuses attendance when user ${userId} has no access to community ${communityId}: add the user to a workgroup that gives access to it first`,
		},
		itemIndex: runtime.itemIndex,
		acceptStatuses: [409],
	});
	return {
		...asObject(statusCode === 409 ? {} : body),
		communityId,
		eventId,
		userId,
		attending: true,
		alreadyAttending: statusCode === 409,
	};
}

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
	const provisioned = await provisionUser(runtime, enrolment.user);
	const userId = readUserId(runtime, provisioned);
	const membership = await addMember(runtime, enrolment.workgroupId, enrolment.user.email, enrolment.removalDate);
	return { provisioned, userId, membership };
}

/** User → Enrol in Workgroup: provision the user, then add them to the workgroup. */
export async function provisionAndAddMember(runtime: OperationRuntime, enrolment: Enrolment): Promise<EnrolResult> {
	return await enrol(runtime, enrolment, () => undefined);
}

/**
 * Event → Register: the same, with the user ID (attendance needs it) checked before the
 * membership is added, so a provision answer without one changes nothing more.
 */
export async function provisionAndAddMemberWithUserId(runtime: OperationRuntime, enrolment: Enrolment): Promise<EnrolResult<number>> {
	return await enrol(runtime, enrolment, userIdOf);
}

/** The numeric user id from a provision answer, or a clear error. */
function userIdOf(runtime: OperationRuntime, result: ProvisionResult): number {
	const id = parseId(result.user.id ?? result.user.userId);
	if (id === undefined) {
		throw new NodeOperationError(
			runtime.client.node,
			`Knolyx did not return the user ID of ${String(result.user.email)} when provisioning, so attendance cannot be marked`,
			{ itemIndex: runtime.itemIndex },
		);
	}
	return id;
}
