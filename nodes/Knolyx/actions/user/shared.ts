import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { booleanOption } from '../../helpers/booleans';
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
			'Sent only when chosen. From an expression: FEMALE, MALE, NON-BINARY (NON_BINARY is read as NON-BINARY), or empty to leave it unchanged.',
	},
];

/**
 * Options of provisioning, the last field of User → Provision, User → Enrol in Workgroup and
 * Event → Register. Send Welcome E-mail: not added, nothing is sent (the platform's default: a new
 * user gets the e-mail); off sends disableWelcomeEmail: true; on sends disableWelcomeEmail: false.
 */
export const userOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Send Welcome Email',
			name: 'sendWelcomeEmail',
			type: 'boolean',
			default: true,
			description:
				"Whether Knolyx sends a new user its welcome (on-boarding) e-mail. Turn off to import existing students without e-mailing them. Not added: Knolyx's default (the e-mail is sent). An existing user never gets it.",
		},
	],
};

export function readUser(ctx: IExecuteFunctions, itemIndex: number): UserInput {
	return {
		email: requireEmail(ctx, itemIndex),
		firstName: requireString(ctx, itemIndex, 'firstName', 'First Name', { maxLength: 255 }),
		lastName: requireString(ctx, itemIndex, 'lastName', 'Last Name', { maxLength: 255 }),
		gender: optionalGender(ctx, itemIndex),
		...readUserOptions(ctx, itemIndex),
	};
}

function readUserOptions(
	ctx: IExecuteFunctions,
	itemIndex: number,
): Pick<UserInput, 'sendWelcomeEmail'> {
	// Not added: nothing is sent (Knolyx e-mails a new user); added, it is read the one way.
	const send = booleanOption(
		ctx,
		itemIndex,
		'sendWelcomeEmail',
		'Send Welcome Email',
		'to leave the e-mail to Knolyx',
	);
	return send === undefined ? {} : { sendWelcomeEmail: send };
}
