/**
 * The transport's front: everything outside transport/ imports from here, nothing else.
 * Behind it, one job a file: the client (client.ts), its retry policy (retry.ts), paged lists
 * (paging.ts), the base URL (url.ts), reading answers (answer.ts, file.ts), errors (errors.ts),
 * the shared limiter (limiter.ts), the endpoint catalogue (catalogue.ts), and one typed function
 * per catalogue call (api/<resource>.ts).
 */
export { CREDENTIAL_TYPE, KnolyxClient } from './client';
export type {
	CallOptions,
	KnolyxContext,
	KnolyxRequest,
	KnolyxResponse,
	PagedCallOptions,
} from './client';
export { outcomeUnknown } from './retry';
export type { RetryPolicy } from './retry';
export { API_PREFIX } from './url';
export { AdaptiveLimiter } from './limiter';
export { ENDPOINTS, endpointOf } from './catalogue';
export type { Endpoint, EndpointName } from './catalogue';
export { asNodeError, networkErrorCode } from './errors';
export type { RequestSubject, KnolyxPermission } from './errors';
export type { KnolyxFile } from './file';

export * from './api/courses';
export * from './api/events';
export * from './api/key';
export * from './api/rules';
export * from './api/users';
export * from './api/webhooks';
export * from './api/workgroups';
export type { Paging } from './api/types';
