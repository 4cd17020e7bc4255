import type { IHttpRequestMethods } from 'n8n-workflow';

import type { KnolyxPermission, RequestSubject } from './errors';

/**
 * Every endpoint of the Knolyx public API this package calls, written once: method, path,
 * permission, what a 404 means, whether a request may be sent again without first checking
 * that the platform did not apply it, and how the answer is read. The transport decides
 * retries from this table alone (`endpointOf`), whoever builds the request.
 */

/**
 * Whether a request whose answer was lost (dropped connection, 502/503/504) may be sent again.
 * - `yes`: a read, or a write whose repetition changes nothing (PUT membership, DELETE,
 *   provision: create-if-missing, attend: a repeat answers 409 "already attending").
 * - `afterCheck`: a write that would be applied twice (a second webhook) or would overwrite
 *   what others saved meanwhile (the rule list): the transport hands the doubt back to the
 *   caller, which reads the platform's state before deciding to send again.
 */
export type Resend = 'yes' | 'afterCheck';

/**
 * How a 2xx answer is read: JSON; JSON keeping long integers exact to be written back (rule
 * lists: LongIntegers); JSON whose long integers come as their digits, a string (what is read and
 * output: lists, courses, events; docs/api.md "Ids"); bytes.
 */
export type AnswerFormat = 'json' | 'lossless' | 'exact' | 'binary';

/**
 * What a 2xx answer of a read must be: one JSON object, a plain list, or a page (a list, or a
 * page object such as `{ content, last }`: `pageItems` in decode.ts). The client checks it: an
 * answer of another shape (a maintenance notice, `null`, a number) fails, and never passes for an
 * empty object or list (a poll forgetting what it knew, a creation sent again, an empty Get).
 */
export type AnswerShape = 'object' | 'list' | 'page';

export interface Endpoint {
	method: IHttpRequestMethods;
	/** Below /public/api/v1, placeholders in braces. */
	path: string;
	permission?: KnolyxPermission;
	/** What a 404 names, placeholders in braces filled from the path. */
	notFound?: string;
	resend: Resend;
	/**
	 * An idempotent DELETE: a 404 on a retry after an attempt whose answer was lost means the
	 * first attempt removed it. Reported as success.
	 */
	goneMeansDone?: boolean;
	answer: AnswerFormat;
	/** Every read of JSON has one (a test checks it). */
	shape?: AnswerShape;
}

export const ENDPOINTS = {
	webhookCreate: {
		method: 'POST',
		path: '/webhook',
		permission: 'WEBHOOK_MANAGE',
		resend: 'afterCheck',
		answer: 'json',
	},
	webhookList: {
		method: 'GET',
		path: '/webhook',
		permission: 'WEBHOOK_MANAGE',
		resend: 'yes',
		answer: 'json',
		shape: 'page',
	},
	webhookGet: {
		method: 'GET',
		path: '/webhook/{webhookId}',
		permission: 'WEBHOOK_MANAGE',
		notFound: 'webhook {webhookId}',
		resend: 'yes',
		answer: 'json',
		shape: 'object',
	},
	webhookDelete: {
		method: 'DELETE',
		path: '/webhook/{webhookId}',
		permission: 'WEBHOOK_MANAGE',
		notFound: 'webhook {webhookId}',
		resend: 'yes',
		goneMeansDone: true,
		answer: 'json',
	},
	// A second PING is only another test event.
	webhookPingAll: {
		method: 'POST',
		path: '/webhook/ping',
		permission: 'WEBHOOK_MANAGE',
		resend: 'yes',
		answer: 'json',
	},
	webhookPing: {
		method: 'POST',
		path: '/webhook/{webhookId}/ping',
		permission: 'WEBHOOK_MANAGE',
		notFound: 'webhook {webhookId}',
		resend: 'yes',
		answer: 'json',
	},
	courseList: {
		method: 'GET',
		path: '/course',
		permission: 'COURSE_LIST',
		resend: 'yes',
		answer: 'exact',
		shape: 'page',
	},
	courseGet: {
		method: 'GET',
		path: '/course/{courseId}',
		permission: 'COURSE_GET',
		notFound: 'course {courseId}',
		resend: 'yes',
		answer: 'exact',
		shape: 'object',
	},
	courseImage: {
		method: 'GET',
		path: '/course/{courseId}/image',
		permission: 'COURSE_GET',
		notFound: 'course {courseId} or its image',
		resend: 'yes',
		answer: 'binary',
	},
	workgroupList: {
		method: 'GET',
		path: '/workgroup',
		permission: 'WORKGROUP_LIST',
		resend: 'yes',
		answer: 'exact',
		shape: 'page',
	},
	// Create-if-missing, else update: a repeat finds the user and sends no second e-mail.
	userProvision: {
		method: 'POST',
		path: '/user/provision',
		permission: 'USER_PROVISION',
		resend: 'yes',
		// The user's id is `integer, long`: read exactly (its digits past 2^53 - 1).
		answer: 'exact',
	},
	memberAdd: {
		method: 'PUT',
		path: '/workgroup/{workgroupId}/member/{email}/',
		permission: 'WORKGROUP_ADD_MEMBER',
		notFound: 'workgroup {workgroupId} or user {email}; a user must be provisioned first',
		resend: 'yes',
		answer: 'exact',
	},
	memberRemove: {
		method: 'DELETE',
		path: '/workgroup/{workgroupId}/member/{email}/',
		permission: 'WORKGROUP_REMOVE_MEMBER',
		notFound: 'workgroup {workgroupId}, user {email}, or {email} as a member of it',
		resend: 'yes',
		goneMeansDone: true,
		answer: 'json',
	},
	rulesRead: {
		method: 'GET',
		path: '/business-rule/course/{courseId}',
		permission: 'BUSINESS_RULE_MANAGE',
		notFound: 'course {courseId}',
		resend: 'yes',
		answer: 'lossless',
		shape: 'list',
	},
	// The whole list replaces the course's rules: never re-posted before a read shows it was not applied.
	rulesSave: {
		method: 'POST',
		path: '/business-rule/course/{courseId}',
		permission: 'BUSINESS_RULE_MANAGE',
		notFound: 'course {courseId}',
		resend: 'afterCheck',
		answer: 'lossless',
	},
	eventAttend: {
		method: 'POST',
		path: '/community/{communityId}/event/{eventId}/attend/{userId}',
		permission: 'EVENT_MANAGE',
		notFound: 'event {eventId} of community {communityId} (or user {userId})',
		resend: 'yes',
		answer: 'json',
	},
	eventCancelAttendance: {
		method: 'DELETE',
		path: '/community/{communityId}/event/{eventId}/attend/{userId}',
		permission: 'EVENT_MANAGE',
		notFound: 'event {eventId} of community {communityId}, or user {userId} registered for it',
		resend: 'yes',
		goneMeansDone: true,
		answer: 'json',
	},
	eventList: {
		method: 'GET',
		path: '/community/{communityId}/event/paged',
		permission: 'EVENT_READ',
		notFound: 'community {communityId}',
		resend: 'yes',
		answer: 'exact',
		shape: 'page',
	},
	eventGet: {
		method: 'GET',
		path: '/community/{communityId}/event/{eventId}',
		permission: 'EVENT_READ',
		notFound: 'event {eventId} of community {communityId}',
		resend: 'yes',
		answer: 'exact',
		shape: 'object',
	},
	eventAttendees: {
		method: 'GET',
		path: '/community/{communityId}/event/{eventId}/attendees/paged',
		permission: 'EVENT_READ',
		notFound: 'event {eventId} of community {communityId}',
		resend: 'yes',
		answer: 'exact',
		shape: 'page',
	},
	key: { method: 'GET', path: '/key', resend: 'yes', answer: 'json', shape: 'object' },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** A request to an endpoint not in the table: reads and PUT/DELETE may be re-sent, POST may not. */
function unlisted(method: IHttpRequestMethods): Endpoint {
	return {
		method,
		path: '',
		resend: method === 'POST' || method === 'PATCH' ? 'afterCheck' : 'yes',
		answer: 'json',
	};
}

/** Whether a path is the template's, a placeholder standing for one non-empty segment (no regular expression). */
function matches(template: string, path: string): boolean {
	const wanted = template.split('/');
	const given = path.split('/');
	return (
		wanted.length === given.length &&
		wanted.every((segment, index) =>
			segment.startsWith('{') && segment.endsWith('}')
				? given[index] !== ''
				: segment === given[index],
		)
	);
}

const TABLE: Endpoint[] = Object.values(ENDPOINTS);

/** The endpoint a request goes to (by method and path below /public/api/v1). */
export function endpointOf(method: IHttpRequestMethods, path: string): Endpoint {
	const bare = path.split('?')[0];
	// Literal paths first: /webhook/ping is not /webhook/{webhookId}.
	const literal = TABLE.find((endpoint) => endpoint.method === method && endpoint.path === bare);
	if (literal) return literal;
	return (
		TABLE.find((endpoint) => endpoint.method === method && matches(endpoint.path, bare)) ??
		unlisted(method)
	);
}

/** The path of an endpoint with every placeholder filled and encoded (one path segment each). */
export function pathOf(endpoint: Endpoint, params: Record<string, string | number> = {}): string {
	return endpoint.path.replace(/\{([^{}/]{1,64})\}/g, (_match, name: string) => {
		if (params[name] === undefined)
			throw new Error(`Missing path parameter ${name} of ${endpoint.path}`);
		return encodeURIComponent(String(params[name]));
	});
}

/**
 * What a failed request to the endpoint was about, the one place that says it: what its 404
 * names (the placeholders filled in, not encoded: it is for people) and which permission a 403
 * lacks; a caller's `override` (e.g. a 403 reason) wins.
 */
export function subjectOf(
	endpoint: Endpoint,
	params: Record<string, string | number> = {},
	override?: RequestSubject,
): RequestSubject {
	return {
		notFound: endpoint.notFound?.replace(/\{([^{}]{1,64})\}/g, (_match, name: string) =>
			String(params[name] ?? `{${name}}`),
		),
		permission: endpoint.permission,
		...override,
	};
}
