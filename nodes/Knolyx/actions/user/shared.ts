import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	GENDER_UNCHANGED,
	optionalGender,
	requireEmail,
	requireString,
} from '../../helpers/validation';
import type { UserInput } from '../../transport';
import { emailField } from '../common';

/** The fields of a user to provision (User → Provision, User → Enrol, Event → Register). */
export const userFields: INodeProperties[] = [
	emailField(),
	{
		displayName: 'First Name',
		name: 'firstName',
		type: 'string',
		default: '',
		required: true,
	},
	{
		displayName: 'Last Name',
		name: 'lastName',
		type: 'string',
		default: '',
		required: true,
	},
	{
		displayName: 'Gender',
		name: 'gender',
		type: 'options',
		options: [
			{
				name: 'Leave Unchanged',
				value: GENDER_UNCHANGED,
				description:
					'Send no gender: an existing user keeps theirs, a new user gets the Knolyx default (Non-Binary)',
			},
			{ name: 'Female', value: 'FEMALE' },
			{ name: 'Male', value: 'MALE' },
			{ name: 'Non-Binary', value: 'NON-BINARY' },
		],
		default: GENDER_UNCHANGED,
		description:
			'Sent only when chosen. From an expression: FEMALE, MALE, NON-BINARY, or empty to leave it unchanged.',
	},
];

export function readUser(ctx: IExecuteFunctions, itemIndex: number): UserInput {
	return {
		email: requireEmail(ctx, itemIndex),
		firstName: requireString(ctx, itemIndex, 'firstName', 'First Name', { maxLength: 255 }),
		lastName: requireString(ctx, itemIndex, 'lastName', 'Last Name', { maxLength: 255 }),
		gender: optionalGender(ctx, itemIndex),
	};
}
