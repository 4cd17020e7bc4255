/**
 * The transport's front: everything outside transport/ imports from here, nothing else.
 * Behind it, one job a file:
 * - client.ts: `KnolyxClient.call()`, its retry loop and what it tells the limiter;
 * - credential.ts: reading the credential (base URL checked, the scope it works on, the key);
 * - exchange.ts: the HTTP exchange, its redirect policy, the body read within deadline and size;
 * - decode.ts: decoding an answer by the endpoint's format and shape (a web page where JSON was
 *   due, JSON too deep, page shapes), and an error answer's body;
 * - file.ts: a file answer's bytes, MIME type and name;
 * - paging.ts: paged lists, read page by page through `call()`;
 * - limiter.ts: the adaptive limiter one node run shares, fed by one `report` per answer;
 * - retry.ts: the retry policy (which statuses, how long to wait);
 * - catalogue.ts: every endpoint once, with what its 404 means and its permission (`subjectOf`);
 * - url.ts: the base URL checked and joined to a path;
 * - errors.ts: the node errors the transport throws;
 * - confirm.ts: what a write's 2xx answer confirms (`writeAnswerOf`), and the error of a write
 *   not confirmed (`notConfirmed`): the one place that decides, for every write;
 * - api/<resource>.ts: one typed function per catalogue call.
 */
export { CREDENTIAL_TYPE, KnolyxClient } from './client';
export type { CallOptions, KnolyxContext, KnolyxResponse, PagedCallOptions } from './client';
export { backoff, outcomeUnknown } from './retry';
export type { RetryPolicy } from './retry';
export { API_PREFIX } from './url';
export { AdaptiveLimiter } from './limiter';
export { ENDPOINTS, endpointOf } from './catalogue';
export type { Endpoint, EndpointName } from './catalogue';
export { asNodeError, networkErrorCode } from './errors';
export { namesWrite, notConfirmed, writeAnswerOf } from './confirm';
export type { WriteAnswer } from './confirm';
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
