/** transport/errors.ts (pure): what the user reads when the platform refuses or cannot be reached. */
import type { INode } from 'n8n-workflow';

import { apiError, networkError, networkErrorCode } from '../../nodes/Knolyx/transport/errors';
import { ENDPOINTS } from '../../nodes/Knolyx/transport';
import { pathOf } from '../../nodes/Knolyx/transport/catalogue';

const node: INode = {
	id: '1',
	name: 'Knolyx',
	type: 'knolyx',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

describe('apiError', () => {
	it('a bare 403 names the permission the operation needs, in the message itself', () => {
		const error = apiError(
			node,
			403,
			{ status: 403, error: 'Forbidden', message: 'Forbidden' },
			{ permission: 'USER_PROVISION' },
			2,
		);
		expect(error.message).toBe('Knolyx: Forbidden (needs the USER_PROVISION permission) [403]');
		expect(error.description).toContain('lacks the USER_PROVISION permission');
		expect(error.context.itemIndex).toBe(2);
		expect(apiError(node, 403, '', { permission: 'EVENT_MANAGE' }).message).toBe(
			'Knolyx answered with status 403 (needs the EVENT_MANAGE permission)',
		);
	});

	it('a 403 with its own reason keeps it and explains both meanings', () => {
		const error = apiError(
			node,
			403,
			{ message: 'User has no access to the community' },
			{ permission: 'EVENT_MANAGE', forbidden: 'The user has no community access' },
		);
		expect(error.message).toBe('Knolyx: User has no access to the community [403]');
		expect(error.description).toBe(
			'The user has no community access. Otherwise the API key lacks the EVENT_MANAGE permission.',
		);
	});

	it('a 404 names what was not found', () => {
		const error = apiError(node, 404, { message: 'Entity not found' }, { notFound: 'course 42' });
		expect(error.message).toBe('Knolyx: Entity not found (course 42) [404]');
		expect(error.description).toContain('course 42');
		expect(error.httpCode).toBe('404');
	});

	it('an HTML error page is not shown as the message', () => {
		expect(apiError(node, 502, '<html><body>Bad gateway</body></html>', {}).message).toBe(
			'Knolyx answered with status 502',
		);
	});
});

describe('network errors', () => {
	it('the code survives the NodeApiError n8n builds (the rule editor relies on it after a lost save answer)', () => {
		const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		const error = networkError(node, cause, 0);
		expect(networkErrorCode(cause)).toBe('ECONNRESET');
		expect(networkErrorCode(error)).toBe('ECONNRESET');
	});

	it('recognises codes in causes and the usual messages, and nothing else', () => {
		expect(networkErrorCode({ cause: { code: 'ETIMEDOUT' } })).toBe('ETIMEDOUT');
		expect(networkErrorCode(new Error('timeout of 30000ms exceeded'))).toBe('ETIMEDOUT');
		expect(networkErrorCode(new Error('socket hang up'))).toBe('ECONNRESET');
		expect(networkErrorCode(new Error('Request failed with status code 500'))).toBeUndefined();
		expect(networkErrorCode(apiError(node, 500, { message: 'boom' }, {}))).toBeUndefined();
	});
});

// Base URL forms (joinUrl), Retry-After and the platform message of every error body shape are
// tested through the node over HTTP: test/action/transport.test.ts.
describe('paths', () => {
	it('pathOf encodes every value as one path segment', () => {
		expect(pathOf(ENDPOINTS.memberAdd, { workgroupId: 7, email: 'a/b?c#d@x.com' })).toBe(
			'/workgroup/7/member/a%2Fb%3Fc%23d%40x.com/',
		);
		expect(pathOf(ENDPOINTS.webhookGet, { webhookId: '../1' })).toBe('/webhook/..%2F1');
	});
});
