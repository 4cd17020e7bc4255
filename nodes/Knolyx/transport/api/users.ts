import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient } from '../client';
import { ENDPOINTS } from '../catalogue';
import { isRecord } from '../../helpers/objects';
import type { Gender } from '../../helpers/validation';

/** Users of the platform. */

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
export async function provisionUser(
	client: KnolyxClient,
	user: UserInput,
	itemIndex?: number,
): Promise<ProvisionResult> {
	const { statusCode, body } = await client.call(ENDPOINTS.userProvision, {
		body: {
			firstName: user.firstName,
			lastName: user.lastName,
			email: user.email,
			...(user.gender !== undefined && { gender: user.gender }),
		},
		itemIndex,
	});
	return {
		created: statusCode === 201,
		user: { email: user.email, ...(isRecord(body) ? body : {}) },
	};
}
