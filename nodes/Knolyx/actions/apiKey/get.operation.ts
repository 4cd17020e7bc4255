import type { IDataObject } from 'n8n-workflow';

import { CREDENTIAL_TYPE, getApiKey } from '../../transport';
import { redactDeep } from '../../helpers/redact';
import type { KnolyxOperation } from '../types';

export const get: KnolyxOperation<IDataObject> = {
	option: {
		name: 'Get',
		description:
			"Get the permissions of the credential's API key, e.g. to see why an operation is refused (the key itself is never output). Needs no permission.",
		action: "Get the API key's permissions",
	},
	agent: { effects: ['readOnly'] },
	readme: {
		does: "The project and the permissions of the credential's API key, as Knolyx gives them, e.g. to see why an operation is refused. The key itself is never in the output",
	},
	description: [],
	prepare() {
		return {};
	},
	async execute(_params, runtime) {
		const { body } = await getApiKey(runtime.client, runtime.itemIndex);
		// Knolyx answers with the key itself beside its permissions (masked or not, it is part of
		// the secret): it is left out, and any other copy of it in the answer is redacted.
		const described = { ...body };
		delete described.apiKey;
		const credentials = await this.getCredentials(CREDENTIAL_TYPE);
		const secret = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
		return secret ? redactDeep(described, [secret]) : described;
	},
};
