import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

/** n8n's tester reads each rule by its type; the declared type only allows lists of one kind. */
type TestRule = NonNullable<ICredentialTestRequest['rules']>[number];

/** Redirect statuses: the credential test names them instead of following them. */
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/** Characters a web page (HTML or XML) can start with where the API's JSON was expected. */
const PAGE_STARTS = ['<', ' ', '\n', '\r', '\t', '\ufeff'];

export class KnolyxApi implements ICredentialType {
	/**
	 * The credential test gives up after this long instead of hanging on a host that never answers.
	 * Not a setting (n8n never changes it): the tests shorten it to see the bound work without
	 * waiting 10 s each time (test/action/setup.ts).
	 */
	static testTimeoutMs = 10_000;

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
				'Address of the Knolyx API: https://api.knolyx.com, or the https address Knolyx gave your organisation, with its path (such as /api) when it has one. A trailing slash is fine.',
		},
		{
			displayName: 'Project ID',
			name: 'projectId',
			type: 'string',
			default: '',
			required: true,
			description:
				'The project ID issued by Knolyx together with the API key (sent as X-Project-Id)',
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

	/**
	 * Adds the two headers; refuses a base URL with a query or a fragment first (it would
	 * swallow every API path), for the credential test and every request alike.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const baseUrl = String(credentials.baseUrl ?? '').trim();
		if (/[?#]/.test(baseUrl)) {
			throw new Error(
				'Base URL must not contain a query (?…) or a fragment (#…): use the address alone, e.g. https://api.knolyx.com, or the https address Knolyx gave your organisation with its path',
			);
		}
		// n8n gives a declarative test request its own timeout of 5 minutes, whatever the request
		// says, and that timeout only fires when the connection goes idle; the test's request
		// (GET /key) gets a short one here that also bounds a body that trickles in (the abort
		// signal ends the whole request at the deadline). API Key → Get makes the same request and
		// so gets the same bound: at most 10 s an attempt, whatever its Timeout option says.
		const isTest = /\/public\/api\/v1\/key$/.test(String(requestOptions.url ?? ''));
		const limitMs = KnolyxApi.testTimeoutMs;
		const testLimits: Partial<IHttpRequestOptions> = isTest
			? {
					timeout: Math.min(requestOptions.timeout ?? limitMs, limitMs),
					abortSignal:
						requestOptions.abortSignal instanceof AbortSignal
							? AbortSignal.any([requestOptions.abortSignal, AbortSignal.timeout(limitMs)])
							: AbortSignal.timeout(limitMs),
				}
			: {};
		return {
			...requestOptions,
			...testLimits,
			// n8n's helper would send these headers on to wherever a redirect points (it strips only
			// Authorization); no request carrying them follows a redirect by itself. The nodes'
			// transport follows those within the base URL's origin; the credential test reports them.
			disableFollowRedirect: true,
			headers: {
				...requestOptions.headers,
				'X-Api-Key': String(credentials.apiKey ?? ''),
				'X-Project-Id': String(credentials.projectId ?? ''),
			},
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
			url: '/public/api/v1/key',
			method: 'GET',
		},
		rules: [
			// A web page instead of JSON (a tenant URL without /api serves the web app): the body
			// is then text, whose first character is one of these.
			...PAGE_STARTS.map(
				(first): TestRule => ({
					type: 'responseSuccessBody',
					properties: {
						key: '0',
						value: first,
						message:
							'This base URL answers with a web page, not the Knolyx API: check the Base URL (https://api.knolyx.com, or the API address Knolyx gave your organisation, with its path such as /api, not the address of its web pages).',
					},
				}),
			),
			// The test follows no redirect (see authenticate): the API answers /key itself.
			...REDIRECT_STATUSES.map(
				(status): TestRule => ({
					type: 'responseCode',
					properties: {
						value: status,
						message: `This base URL redirects (${status}) to another address, and the API key is never sent after a redirect: check the Base URL and use the address of the Knolyx API itself (https://api.knolyx.com, or the API address Knolyx gave your organisation).`,
					},
				}),
			),
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'Knolyx refused the API key or the project ID (401). Check that both are the ones issued for this project.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No Knolyx API at this base URL (404). Use https://api.knolyx.com, or the API address Knolyx gave your organisation, with its path (such as /api).',
				},
			},
		] satisfies TestRule[] as ICredentialTestRequest['rules'],
	};
}
