/** transport/errors.ts (pure): what the user reads when the platform refuses or cannot be reached. */
import type { INode } from 'n8n-workflow';

import { apiError, networkError, networkErrorCode, platformMessage } from '../../nodes/Knolyx/transport/errors';
import { ENDPOINTS, joinUrl, parseRetryAfter } from '../../nodes/Knolyx/transport';
import { pathOf } from '../../nodes/Knolyx/transport/catalogue';

const node: INode = { id: '1', name: 'Knolyx', type: 'knolyx', typeVersion: 1, position: [0, 0], parameters: {} };

describe('apiError', () => {
	it('a bare 403 names the permission the operation needs, in the message itself', () => {
		const error = apiError(node, 403, { status: 403, error: 'Forbidden', message: 'Forbidden' }, { permission: 'USER_PROVISION' }, 2);
		expect(error.message).toBe('Knolyx: Forbidden (needs the USER_PROVISION permission) [403]');
		expect(error.description).toContain('lacks the USER_PROVISION permission');
		expect(error.context.itemIndex).toBe(2);
		expect(apiError(node, 403, '', { permission: 'EVENT_MANAGE' }).message).toBe('Knolyx answered with status 403 (needs the EVENT_MANAGE permission)');
	});

	it('a 403 with its own reason keeps it and explains both meanings', () => {
		const error = apiError(node, 403, { message: 'User has no access to the community' }, { permission: 'EVENT_MANAGE', forbidden: 'The user has no community access' });
		expect(error.message).toBe('Knolyx: User has no access to the community [403]');
		expect(error.description).toBe('The user has no community access. Otherwise the API key lacks the EVENT_MANAGE permission.');
	});

	it('a 404 names what was not found', () => {
		const error = apiError(node, 404, { message: 'Entity not found' }, { notFound: 'course 42' });
		expect(error.message).toBe('Knolyx: Entity not found (course 42) [404]');
		expect(error.description).toContain('course 42');
		expect(error.httpCode).toBe('404');
	});

	it('an HTML error page is not shown as the message', () => {
		expect(apiError(node, 502, '<html><body>Bad gateway</body></html>', {}).message).toBe('Knolyx answered with status 502');
	});

	it('platformMessage reads the usual error body shapes', () => {
		expect(platformMessage({ message: 'm' })).toBe('m');
		expect(platformMessage({ error_description: 'd' })).toBe('d');
		expect(platformMessage({ detail: 'x' })).toBe('x');
		expect(platformMessage('plain text')).toBe('plain text');
		expect(platformMessage('  ')).toBeUndefined();
		expect(platformMessage({ message: '' })).toBeUndefined();
		expect(platformMessage('x'.repeat(400))).toHaveLength(301);
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

describe('URLs and headers', () => {
	it('joinUrl tolerates trailing slashes, spaces and tenant path prefixes', () => {
		expect(joinUrl('https://api.knolyx.com', '/course')).toBe('https://api.knolyx.com/public/api/v1/course');
		expect(joinUrl(' https://api.knolyx.com// ', 'course')).toBe('https://api.knolyx.com/public/api/v1/course');
		expect(joinUrl('https://acme.knolyx.com/api/', '/course')).toBe('https://acme.knolyx.com/api/public/api/v1/course');
	});

	it('pathOf encodes every value as one path segment', () => {
		expect(pathOf(ENDPOINTS.memberAdd, { workgroupId: 7, email: 'a/b?c#d@x.com' })).toBe('/workgroup/7/member/a%2Fb%3Fc%23d%40x.com/');
		expect(pathOf(ENDPOINTS.webhookGet, { webhookId: '../1' })).toBe('/webhook/..%2F1');
	});

	it('parseRetryAfter reads seconds and HTTP dates', () => {
		expect(parseRetryAfter('2')).toBe(2000);
		expect(parseRetryAfter('0.5')).toBe(500);
		expect(parseRetryAfter(['3'])).toBe(3000);
		expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10_000);
		expect(parseRetryAfter(new Date(0).toUTCString(), Date.UTC(2030, 0, 1))).toBe(0);
		expect(parseRetryAfter('soon')).toBeUndefined();
		expect(parseRetryAfter(undefined)).toBeUndefined();
	});
});
