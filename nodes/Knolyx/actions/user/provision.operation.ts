import { updateDisplayOptions } from 'n8n-workflow';

import { provisionUser } from '../../transport';
import type { UserInput } from '../../transport';
import type { KnolyxOperation } from '../types';
import { readUser, userFields, userOptions } from './shared';

const displayOptions = { show: { resource: ['user'], operation: ['provision'] } };

export const provision: KnolyxOperation<UserInput> = {
	option: {
		name: 'Provision',
		description:
			'Create the user, or update the fields of an existing one. New users get a welcome e-mail unless Send Welcome Email is off. Needs USER_PROVISION.',
		action: 'Provision a user',
	},
	agent: { effects: ['changePerson'] },
	readme: {
		does: "Create the user (201, welcome e-mail) or update an existing one (200); Gender is sent only when chosen (NON_BINARY is read as NON-BINARY); Options → **Send Welcome Email** off sends `disableWelcomeEmail: true` (no welcome e-mail; not added: nothing sent, Knolyx's default). Output has `created`.",
	},
	description: updateDisplayOptions(displayOptions, [...userFields, userOptions]),
	prepare(itemIndex) {
		return readUser(this, itemIndex);
	},
	async execute(user, runtime) {
		const result = await provisionUser(runtime.client, user, runtime.itemIndex);
		return { ...result.user, created: result.created };
	},
};
