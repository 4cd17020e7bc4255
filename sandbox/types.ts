/**
 * Shared types of the Knolyx sandbox: entities kept in memory, options, faults and stats.
 * Everything here is plain data; behaviour lives in state.ts, faults.ts, deliveries.ts and routes/.
 */

export const PERMISSIONS = [
	'USER_PROVISION',
	'WORKGROUP_ADD_MEMBER',
	'WORKGROUP_REMOVE_MEMBER',
	'WORKGROUP_LIST',
	'COURSE_LIST',
	'COURSE_GET',
	'WEBHOOK_MANAGE',
	'BUSINESS_RULE_MANAGE',
	'EVENT_MANAGE',
	'EVENT_READ',
	'COMMUNITY_READ',
	'PAYMENT_INFO_READ',
	'RESOURCE_LIST',
	'RESOURCE_GET',
	'ADMIN_MANAGE',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const GENDERS = ['NON-BINARY', 'MALE', 'FEMALE'] as const;
export type Gender = (typeof GENDERS)[number];

export type EventType =
	| 'PING'
	| 'COURSE_STARTED'
	| 'COURSE_COMPLETED'
	| 'COURSE_PAYMENT_RECEIVED'
	| 'BUNDLE_PAYMENT_RECEIVED';

export interface ApiKey {
	apiKey: string;
	projectId: string;
	permissions: Permission[];
}

export interface User {
	id: number;
	firstName: string;
	lastName: string;
	email: string;
	gender: Gender;
	role: 'STUDENT';
	createdAt: string;
}

export interface Course {
	id: number;
	title: string;
	description: string;
	createdAt: string;
}

export interface Workgroup {
	id: number;
	name: string;
}

export interface Membership {
	userId: number;
	/** "yyyy-MM-dd HH:mm:ss" UTC or null (no removal). */
	removalDate: string | null;
	addedAt: string;
}

export interface Community {
	id: number;
	name: string;
	/** Workgroups whose (active) members have access to the community. */
	workgroupIds: number[];
}

export interface CommunityEvent {
	id: number;
	communityId: number;
	title: string;
	startDateTime: string;
	endDateTime: string;
}

export interface Bundle {
	id: number;
	slug: string;
	name: string;
}

/** A rule id: a number, or a BigInt when above 2^53 (the platform's ids are longs). */
export type RuleId = number | bigint;

/** A rule is stored exactly as posted (plus its id): unknown fields survive. */
export type Rule = Record<string, unknown> & { id: RuleId };

export interface Webhook {
	id: number;
	name: string;
	url: string;
	securityToken: string;
	createdAt: string;
}

export interface OnboardingEmail {
	to: string;
	userId: number;
	at: string;
}

export interface FaultConfig {
	/** Added to every /public/api request (after auth). */
	latencyMs: number;
	/** Requests per second allowed (sliding 1 s window); over it: 429 + Retry-After. 0 = off. */
	rateLimitPerSecond: number;
	/** Fraction of requests answered with a 5xx from errorStatuses, without being applied. */
	errorRate: number;
	errorStatuses: number[];
	/** Fraction of requests answered 500 with an HTML body. */
	malformedRate: number;
	/** Fraction of requests whose socket is destroyed before anything is applied. */
	resetRate: number;
	/** Fraction of write requests (POST/PUT/DELETE) applied, then the socket destroyed. */
	resetAfterApplyRate: number;
	/** Extra delay for a slowRate fraction of requests. */
	slowMs: number;
	slowRate: number;
	/** Webhook creation answers 201 with `{}`. */
	webhookCreateReturnsNoId: boolean;
	/** Content-Type of event deliveries (the platform's is not documented); null sends none. */
	deliveryContentType: string | null;
	/**
	 * Fraction of write requests applied, then answered with `applyThenStatus` (a gateway that
	 * lost the platform's answer: 502, 504...) instead of the platform's answer.
	 */
	applyThenFailRate: number;
	applyThenStatus: number;
	/** Retry-After sent with 429/503 answers (injected or rate limit) instead of the computed one, e.g. "3600", "-5", an HTTP date. */
	retryAfter: string | null;
	/** Fraction of requests answered 200 with a web page (a base URL that reaches the web app), not applied. */
	okHtmlRate: number;
	/** Body of injected errors instead of the platform's JSON message: text (HTML when it starts with "<"). */
	errorBody: string | null;
	/** Paged lists ignore pagination.page: every page is the first. */
	repeatPages: boolean;
	/** Faults (all kinds but latency and rate limit) only for requests of this method ... */
	onlyMethod: string | null;
	/** ... and whose path (below /public/api/v1) matches this regular expression. */
	onlyPath: string | null;
	/** At most this many injected faults of those kinds (0 = no bound). */
	maxFaults: number;
	/** PRNG seed: the same seed and the same request sequence give the same faults. */
	seed: number;
}

export interface SandboxStats {
	/** Requests to /public/api/*. */
	requests: number;
	/** Per "METHOD /normalised/path", numeric segments as {id}, member e-mails as {email}. */
	byRoute: Record<string, number>;
	/** Per write key, e.g. 'provision:<email>', 'member:<wgId>:<email>'. */
	writes: Record<string, number>;
	/** Writes repeating the same key with the same payload that changed nothing. */
	duplicateWrites: number;
	faultsInjected: Record<string, number>;
	maxInFlight: number;
	inFlight: number;
}

export type SeedName = 'demo' | 'empty';

export interface SandboxOptions {
	/** 0 = a free port. Default 0. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Default 'demo'. */
	seed?: SeedName;
	/** Refuse webhook URLs that are not https or that point to localhost. Default false. */
	strict?: boolean;
	faults?: Partial<FaultConfig>;
	/** Retries after a failed delivery (non-2xx or network error). Default 3. */
	deliveryRetries?: number;
	/** First retry delay; doubles each retry. Default 200 ms. */
	deliveryBackoffMs?: number;
	/** Timeout of one delivery attempt. Default 5000 ms. */
	deliveryTimeoutMs?: number;
	/** Print one line per API request and per delivery attempt to stdout (the CLI turns it on). Default false. */
	log?: boolean;
	/**
	 * Variants played (sandbox/variants.ts): names, or a comma-separated text. Default: the
	 * KNOLYX_SANDBOX_VARIANTS environment variable, else none.
	 */
	variants?: string[] | string;
}

/** One delivery attempt of an event message to a webhook url. */
export interface DeliveryAttempt {
	messageId: string;
	webhookId: number;
	url: string;
	type: EventType;
	/** 1 for the first attempt of a send; resends start again at 1. */
	attempt: number;
	/** HTTP status of the receiver's answer, or null on a network error/timeout. */
	status: number | null;
	error: string | null;
	ok: boolean;
	at: string;
	body: EventMessage;
}

export interface EventMessage {
	id: string;
	type: EventType;
	data: Record<string, unknown>;
}

/** Runtime settings that can be changed while the sandbox runs. */
export interface SandboxConfig {
	strict: boolean;
	deliveryRetries: number;
	deliveryBackoffMs: number;
	deliveryTimeoutMs: number;
}
