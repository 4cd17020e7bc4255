import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	GENDER_UNCHANGED,
	invalid,
	optionalGender,
	requireEmail,
	requireString,
} from '../../helpers/validation';
import type { UserInput } from '../../transport';
import { emailField } from '../common';
import { isRecord } from '../../helpers/objects';

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
	// Added or not is read from the parameters as written: an expression that resolves to no value
	// must not pass for an option left out (that sends nothing, and Knolyx e-mails the person).
	const written = ctx.getNodeParameter('options', itemIndex, {}, { rawExpressions: true });
	if (!isRecord(written) || !Object.prototype.hasOwnProperty.call(written, 'sendWelcomeEmail'))
		return {};
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const send = options.sendWelcomeEmail;
	if (send === undefined || send === null || send === '')
		throw invalid(
			ctx,
			itemIndex,
			'Send Welcome Email',
			'was added but has no value; set it to true or false, or remove the option to leave the e-mail to Knolyx',
		);
	if (typeof send !== 'boolean')
		throw invalid(
			ctx,
			itemIndex,
			'Send Welcome Email',
			`${JSON.stringify(send).slice(0, 60)} is not true or false`,
		);
	return { sendWelcomeEmail: send };
}
