import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

export class KnolyxApi implements ICredentialType {
	name = 'knolyxApi';

	displayName = 'Knolyx API';

	icon: Icon = { light: 'file:knolyx.svg', dark: 'file:knolyx.dark.svg' };

	documentationUrl = 'https://github.com/knolyx/n8n-nodes-knolyx#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.knolyx.com',
			placeholder: 'https://api.knolyx.com',
			required: true,
			description:
				'Address of the Knolyx API. Tenant deployments use https://{tenant}.knolyx.com/api. A trailing slash is fine.',
		},
		{
			displayName: 'Project ID',
			name: 'projectId',
			type: 'string',
			default: '',
			required: true,
			description: 'The project ID issued by Knolyx together with the API key (sent as X-Project-Id)',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'An API key issued by Knolyx (sent as X-Api-Key). Its permissions decide which operations work; see the README for the permission each operation needs.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-Api-Key': '={{$credentials.apiKey}}',
				'X-Project-Id': '={{$credentials.projectId}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/public/api/v1/key',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'Knolyx refused the API key or the project ID (401). Check that both are the ones issued for this project.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No Knolyx API at this base URL (404). Use https://api.knolyx.com, or https://{tenant}.knolyx.com/api for a tenant deployment.',
				},
			},
		],
	};
}
