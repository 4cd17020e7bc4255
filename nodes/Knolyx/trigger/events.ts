/**
 * The events Knolyx delivers to a webhook, as a discriminated union on `type`,
 * and the parsing of a delivery body into one of them.
 *
 * Envelope (docs/api.md, Webhook deliveries): `{ id: string, type: string, data: object }`.
 */
import type { IDataObject } from 'n8n-workflow';
import { isRecord } from '../helpers/objects';
import { JsonTooDeepError, parseJson } from '../helpers/json';
import { TOO_DEEP } from './body';

type KnownEventType =
	| 'COURSE_STARTED'
	| 'COURSE_COMPLETED'
	| 'COURSE_PAYMENT_RECEIVED'
	| 'BUNDLE_PAYMENT_RECEIVED'
	| 'PING';

/** The `events` parameter value that selects every event, including future types. */
export const ALL_EVENTS = '*';

/** What a new node listens to: the four student events. */
export const DEFAULT_EVENTS: KnownEventType[] = [
	'COURSE_STARTED',
	'COURSE_COMPLETED',
	'COURSE_PAYMENT_RECEIVED',
	'BUNDLE_PAYMENT_RECEIVED',
];

/** Ids are integers (long) on the platform; kept as sent (a string id is not turned into a number). */
type KnolyxId = number | string;

interface KnolyxUser {
	id: KnolyxId | null;
	name: string | null;
	email: string | null;
}

interface KnolyxCourse {
	id: KnolyxId | null;
	name: string | null;
}

interface KnolyxBundle {
	id: KnolyxId | null;
	slug: string | null;
	name: string | null;
}

/** The raw body of a delivery, once it is known to have the envelope's shape. */
export interface KnolyxEnvelope {
	id: string;
	type: string;
	data: IDataObject;
}

interface EventBase<T extends string> {
	id: string;
	type: T;
}

interface PingEvent extends EventBase<'PING'> {
	data: { message: string | null };
}

interface CourseStartedEvent extends EventBase<'COURSE_STARTED'> {
	data: { user: KnolyxUser; course: KnolyxCourse };
}

interface CourseCompletedEvent extends EventBase<'COURSE_COMPLETED'> {
	data: { user: KnolyxUser; course: KnolyxCourse };
}

interface CoursePaymentReceivedEvent extends EventBase<'COURSE_PAYMENT_RECEIVED'> {
	data: { user: KnolyxUser; course: KnolyxCourse };
}

interface BundlePaymentReceivedEvent extends EventBase<'BUNDLE_PAYMENT_RECEIVED'> {
	data: { user: KnolyxUser; bundle: KnolyxBundle };
}

/** Every event type the platform documents. Narrow with `switch (event.type)`. */
export type KnolyxEvent =
	| PingEvent
	| CourseStartedEvent
	| CourseCompletedEvent
	| CoursePaymentReceivedEvent
	| BundlePaymentReceivedEvent;

/** An event type this node does not know yet (a newer platform); passed on as it came. */
interface UnknownKnolyxEvent {
	id: string;
	type: string;
	unknownType: true;
	data: IDataObject;
}

type ParsedEvent = KnolyxEvent | UnknownKnolyxEvent;

export function isKnownEvent(event: ParsedEvent): event is KnolyxEvent {
	return !('unknownType' in event);
}

type EnvelopeResult = { ok: true; envelope: KnolyxEnvelope } | { ok: false; reason: string };

/**
 * Checks that a delivery body is an envelope `{ id, type, data }`: id and type
 * non-empty strings, data an object. A JSON text (a body n8n did not parse) is
 * parsed first.
 */
export function parseEnvelope(body: unknown): EnvelopeResult {
	let value = body;
	if (typeof value === 'string' || Buffer.isBuffer(value)) {
		try {
			value = parseJson(value.toString());
		} catch (error) {
			return {
				ok: false,
				reason: error instanceof JsonTooDeepError ? TOO_DEEP : 'The body is not JSON',
			};
		}
	}
	if (!isRecord(value)) return { ok: false, reason: 'The body must be a JSON object' };
	const { id, type, data } = value;
	if (typeof id !== 'string' || id.trim() === '')
		return { ok: false, reason: '"id" must be a non-empty string' };
	if (typeof type !== 'string' || type.trim() === '') {
		return { ok: false, reason: '"type" must be a non-empty string' };
	}
	if (!isRecord(data)) return { ok: false, reason: '"data" must be a JSON object' };
	return { ok: true, envelope: { id, type, data } };
}

function idOf(value: unknown): KnolyxId | null {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && value !== '') return value;
	return null;
}

function textOf(value: unknown): string | null {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return null;
}

function toUser(value: unknown): KnolyxUser {
	const user = isRecord(value) ? value : {};
	return { id: idOf(user.id), name: textOf(user.name), email: textOf(user.email) };
}

function toCourse(value: unknown): KnolyxCourse {
	const course = isRecord(value) ? value : {};
	return { id: idOf(course.id), name: textOf(course.name) };
}

function toBundle(value: unknown): KnolyxBundle {
	const bundle = isRecord(value) ? value : {};
	return { id: idOf(bundle.id), slug: textOf(bundle.slug), name: textOf(bundle.name) };
}

/**
 * Turns an envelope into a typed event. Known types get their nested objects
 * normalised (a missing field becomes null, never a crash); other types are
 * returned as an UnknownKnolyxEvent with their data untouched.
 */
export function toEvent(envelope: KnolyxEnvelope): ParsedEvent {
	const { id, type, data } = envelope;
	switch (type) {
		case 'PING':
			return { id, type, data: { message: textOf(data.message) } };
		case 'COURSE_STARTED':
			return { id, type, data: { user: toUser(data.user), course: toCourse(data.course) } };
		case 'COURSE_COMPLETED':
			return { id, type, data: { user: toUser(data.user), course: toCourse(data.course) } };
		case 'COURSE_PAYMENT_RECEIVED':
			return { id, type, data: { user: toUser(data.user), course: toCourse(data.course) } };
		case 'BUNDLE_PAYMENT_RECEIVED':
			return { id, type, data: { user: toUser(data.user), bundle: toBundle(data.bundle) } };
		default:
			return { id, type, unknownType: true, data };
	}
}

/** The flat item of the default ("simplified") output. */
type SimplifiedItem =
	| { event: 'PING'; eventId: string; message: string | null; receivedAt: string }
	| {
			event: 'COURSE_STARTED' | 'COURSE_COMPLETED' | 'COURSE_PAYMENT_RECEIVED';
			eventId: string;
			user: KnolyxUser;
			course: KnolyxCourse;
			receivedAt: string;
	  }
	| {
			event: 'BUNDLE_PAYMENT_RECEIVED';
			eventId: string;
			user: KnolyxUser;
			bundle: KnolyxBundle;
			receivedAt: string;
	  }
	| { event: string; eventId: string; data: IDataObject; receivedAt: string };

function simplify(event: ParsedEvent, receivedAt: string): SimplifiedItem {
	if (!isKnownEvent(event)) {
		return { event: event.type, eventId: event.id, data: event.data, receivedAt };
	}
	switch (event.type) {
		case 'PING':
			return { event: event.type, eventId: event.id, message: event.data.message, receivedAt };
		case 'BUNDLE_PAYMENT_RECEIVED':
			return {
				event: event.type,
				eventId: event.id,
				user: event.data.user,
				bundle: event.data.bundle,
				receivedAt,
			};
		default:
			return {
				event: event.type,
				eventId: event.id,
				user: event.data.user,
				course: event.data.course,
				receivedAt,
			};
	}
}

/** The output item: the flat shape by default, the envelope exactly as received with `raw`. */
export function buildItem(
	envelope: KnolyxEnvelope,
	options: { raw: boolean; receivedAt: string },
): IDataObject {
	if (options.raw) return { id: envelope.id, type: envelope.type, data: envelope.data };
	return simplify(toEvent(envelope), options.receivedAt) as unknown as IDataObject;
}

/**
 * Whether an event passes the `events` selection. `*` passes everything,
 * including types this node does not know. In test mode a PING always passes
 * when `pingInTest` is set, so "Listen for test event" shows the platform's
 * connection PING at once.
 */
export function isSelected(
	type: string,
	selected: readonly string[],
	options: { test: boolean; pingInTest: boolean },
): boolean {
	if (selected.includes(ALL_EVENTS)) return true;
	if (type === 'PING' && options.test && options.pingInTest) return true;
	return selected.includes(type);
}
