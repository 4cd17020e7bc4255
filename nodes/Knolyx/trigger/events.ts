/**
 * The events Knolyx delivers to a webhook, as a discriminated union on `type`,
 * and the parsing of a delivery body into one of them.
 *
 * Envelope (docs/api.md, Webhook deliveries): `{ id: string, type: string, data: object }`.
 */
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';
import { isRecord } from '../helpers/objects';
import { JsonTooDeepError, parseExact } from '../helpers/json';
import { TOO_DEEP } from './body';

/** The `events` parameter value that selects every event, including future types. */
export const ALL_EVENTS = '*';

/** Ids are integers (long) on the platform; kept as sent (a string id is not turned into a number). */
type KnolyxId = number | string;

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

/** An object of the event's data with these fields, each read by its reader (a missing one is null). */
function shape<F extends Record<string, (value: unknown) => unknown>>(fields: F) {
	return (value: unknown): { [K in keyof F]: ReturnType<F[K]> } => {
		const source = isRecord(value) ? value : {};
		return Object.fromEntries(
			Object.entries(fields).map(([name, read]) => [
				name,
				read(Object.hasOwn(source, name) ? source[name] : undefined),
			]),
		) as { [K in keyof F]: ReturnType<F[K]> };
	};
}

const user = shape({ id: idOf, name: textOf, email: textOf });
const course = shape({ id: idOf, name: textOf });
const bundle = shape({ id: idOf, slug: textOf, name: textOf });

/**
 * Every event type the platform documents, one row each: its entry in the Events list, whether
 * a new node listens to it, and the fields of its `data` (each with its reader). The types, the
 * default, the options and the output items follow from this table; a new type is one row.
 */
const EVENT_TYPES = {
	COURSE_STARTED: {
		name: 'Course Started',
		description: 'A student starts a course',
		byDefault: true,
		data: { user, course },
	},
	COURSE_COMPLETED: {
		name: 'Course Completed',
		description: 'A student completes a course (sent once per student and course)',
		byDefault: true,
		data: { user, course },
	},
	COURSE_PAYMENT_RECEIVED: {
		name: 'Course Payment Received',
		description: 'A student buys a course',
		byDefault: true,
		data: { user, course },
	},
	BUNDLE_PAYMENT_RECEIVED: {
		name: 'Bundle Payment Received',
		description: 'A payment for a bundle is received',
		byDefault: true,
		data: { user, bundle },
	},
	PING: {
		name: 'Ping',
		description: 'Knolyx checks the connection (on webhook creation or a ping request)',
		byDefault: false,
		data: { message: textOf },
	},
} as const satisfies Record<string, EventTypeRow>;

interface EventTypeRow {
	name: string;
	description: string;
	byDefault: boolean;
	data: Record<string, (value: unknown) => unknown>;
}

type KnownEventType = keyof typeof EVENT_TYPES;

/** The `data` of an event of type T, as the node reads it. */
type DataOf<T extends KnownEventType> = {
	[K in keyof Readers<T>]: Readers<T>[K] extends (value: unknown) => infer R ? R : never;
};
type Readers<T extends KnownEventType> = (typeof EVENT_TYPES)[T]['data'];

/** Every event type the platform documents. Narrow with `switch (event.type)`. */
export type KnolyxEvent = {
	[T in KnownEventType]: { id: string; type: T; data: DataOf<T> };
}[KnownEventType];

/** The row of a type this node knows; an outside name is looked up as an own key only. */
const ROWS: ReadonlyMap<string, EventTypeRow> = new Map(Object.entries(EVENT_TYPES));

/** What a new node listens to: the four student events. */
export const DEFAULT_EVENTS = (Object.keys(EVENT_TYPES) as KnownEventType[]).filter(
	(type) => EVENT_TYPES[type].byDefault,
);

/** The Events list: every known type, and "All Events", sorted by name. */
export const EVENT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'All Events',
		value: ALL_EVENTS,
		description: 'Every event, including PING and event types Knolyx may add later',
	},
	...Object.entries(EVENT_TYPES).map(([value, { name, description }]) => ({
		name,
		value,
		description,
	})),
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** The raw body of a delivery, once it is known to have the envelope's shape. */
export interface KnolyxEnvelope {
	id: string;
	type: string;
	data: IDataObject;
}

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
 * parsed first, exactly: an id past 2^53 - 1 comes as its digits (docs/api.md, "Ids").
 */
export function parseEnvelope(body: unknown): EnvelopeResult {
	let value = body;
	if (typeof value === 'string' || Buffer.isBuffer(value)) {
		try {
			value = parseExact(value.toString());
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

/**
 * Turns an envelope into a typed event. Known types get their nested objects
 * normalised (a missing field becomes null, never a crash); other types are
 * returned as an UnknownKnolyxEvent with their data untouched.
 */
export function toEvent(envelope: KnolyxEnvelope): ParsedEvent {
	const { id, type, data } = envelope;
	const row = ROWS.get(type);
	if (!row) return { id, type, unknownType: true, data };
	return { id, type, data: shape(row.data)(data) } as KnolyxEvent;
}

/**
 * The output item: by default flat (`event`, `eventId`, the fields of its data, `receivedAt`;
 * a type this node does not know keeps its `data` whole), with `raw` the envelope exactly as
 * received.
 */
export function buildItem(
	envelope: KnolyxEnvelope,
	options: { raw: boolean; receivedAt: string },
): IDataObject {
	if (options.raw) return { id: envelope.id, type: envelope.type, data: envelope.data };
	const event = toEvent(envelope);
	const fields = isKnownEvent(event) ? event.data : { data: event.data };
	return {
		event: event.type,
		eventId: event.id,
		...fields,
		receivedAt: options.receivedAt,
	} as IDataObject;
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
