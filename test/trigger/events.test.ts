import {
	ALL_EVENTS,
	buildItem,
	DEFAULT_EVENTS,
	isKnownEvent,
	isSelected,
	parseEnvelope,
	toEvent,
	type KnolyxEnvelope,
	type KnolyxEvent,
} from '../../nodes/Knolyx/trigger/events';
import { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';
import { STUDENT_EVENTS } from './helpers';

const user = { id: 7, name: 'Ada Lovelace', email: 'ada@example.com' };
const course = { id: 3, name: 'Intro to n8n' };
const bundle = { id: 9, slug: 'starter', name: 'Starter Pack' };
const at = '2030-01-01T00:00:00.000Z';

describe('parseEnvelope', () => {
	it('accepts {id, type, data}', () => {
		const result = parseEnvelope({ id: 'm1', type: 'PING', data: { message: 'PING' } });
		expect(result).toEqual({
			ok: true,
			envelope: { id: 'm1', type: 'PING', data: { message: 'PING' } },
		});
	});

	it('parses a JSON text or buffer body', () => {
		const text = JSON.stringify({ id: 'm2', type: 'PING', data: {} });
		expect(parseEnvelope(text).ok).toBe(true);
		expect(parseEnvelope(Buffer.from(text)).ok).toBe(true);
	});

	it.each([
		['not JSON', 'nope{'],
		['an array', [1, 2]],
		['null', null],
		['a number', 42],
		['no id', { type: 'PING', data: {} }],
		['an empty id', { id: ' ', type: 'PING', data: {} }],
		['a numeric id', { id: 5, type: 'PING', data: {} }],
		['no type', { id: 'm', data: {} }],
		['data as array', { id: 'm', type: 'PING', data: [] }],
		['data missing', { id: 'm', type: 'PING' }],
		['data as string', { id: 'm', type: 'PING', data: 'x' }],
	])('refuses %s', (_label, body) => {
		const result = parseEnvelope(body);
		expect(result.ok).toBe(false);
	});
});

describe('toEvent (discriminated union)', () => {
	it('types each known event and narrows on `type`', () => {
		const describe = (event: KnolyxEvent): string => {
			switch (event.type) {
				case 'PING':
					return `ping ${event.data.message}`;
				case 'BUNDLE_PAYMENT_RECEIVED':
					return `bundle ${event.data.bundle.slug} by ${event.data.user.email}`;
				case 'COURSE_STARTED':
				case 'COURSE_COMPLETED':
				case 'COURSE_PAYMENT_RECEIVED':
					return `${event.type} ${event.data.course.name} by ${event.data.user.email}`;
			}
		};
		const events: KnolyxEnvelope[] = [
			{ id: 'a', type: 'PING', data: { message: 'PING' } },
			{ id: 'b', type: 'BUNDLE_PAYMENT_RECEIVED', data: { user, bundle } },
			{ id: 'c', type: 'COURSE_COMPLETED', data: { user, course } },
		];
		const texts = events.map((envelope) => {
			const event = toEvent(envelope);
			if (!isKnownEvent(event)) throw new Error('expected a known event');
			return describe(event);
		});
		expect(texts).toEqual([
			'ping PING',
			'bundle starter by ada@example.com',
			'COURSE_COMPLETED Intro to n8n by ada@example.com',
		]);
	});

	it('keeps unknown types with their data, marked unknown', () => {
		const event = toEvent({
			id: 'x',
			type: 'CERTIFICATE_ISSUED',
			data: { certificate: { id: 1 } },
		});
		expect(isKnownEvent(event)).toBe(false);
		expect(event).toEqual({
			id: 'x',
			type: 'CERTIFICATE_ISSUED',
			unknownType: true,
			data: { certificate: { id: 1 } },
		});
	});

	it('never crashes on a known type with missing or odd nested fields', () => {
		expect(toEvent({ id: 'y', type: 'COURSE_STARTED', data: {} })).toEqual({
			id: 'y',
			type: 'COURSE_STARTED',
			data: { user: { id: null, name: null, email: null }, course: { id: null, name: null } },
		});
		expect(
			toEvent({ id: 'z', type: 'BUNDLE_PAYMENT_RECEIVED', data: { user: 'x', bundle: [1] } }),
		).toEqual({
			id: 'z',
			type: 'BUNDLE_PAYMENT_RECEIVED',
			data: {
				user: { id: null, name: null, email: null },
				bundle: { id: null, slug: null, name: null },
			},
		});
	});
});

describe('buildItem', () => {
	it('PING: flat with the message', () => {
		expect(
			buildItem(
				{ id: 'p', type: 'PING', data: { message: 'PING' } },
				{ raw: false, receivedAt: at },
			),
		).toEqual({
			event: 'PING',
			eventId: 'p',
			message: 'PING',
			receivedAt: at,
		});
	});

	it.each(['COURSE_STARTED', 'COURSE_COMPLETED', 'COURSE_PAYMENT_RECEIVED'])(
		'%s: flat user and course',
		(type) => {
			expect(
				buildItem({ id: 'c', type, data: { user, course } }, { raw: false, receivedAt: at }),
			).toEqual({
				event: type,
				eventId: 'c',
				user,
				course,
				receivedAt: at,
			});
		},
	);

	it('BUNDLE_PAYMENT_RECEIVED: flat user and bundle', () => {
		expect(
			buildItem(
				{ id: 'b', type: 'BUNDLE_PAYMENT_RECEIVED', data: { user, bundle } },
				{ raw: false, receivedAt: at },
			),
		).toEqual({ event: 'BUNDLE_PAYMENT_RECEIVED', eventId: 'b', user, bundle, receivedAt: at });
	});

	it('drops fields the contract does not list from the simplified item', () => {
		const item = buildItem(
			{ id: 'c', type: 'COURSE_STARTED', data: { user: { ...user, role: 'x' }, course, extra: 1 } },
			{ raw: false, receivedAt: at },
		);
		expect(item).toEqual({ event: 'COURSE_STARTED', eventId: 'c', user, course, receivedAt: at });
	});

	it('unknown type: event, eventId and the data as sent', () => {
		expect(
			buildItem({ id: 'u', type: 'NEW_THING', data: { a: 1 } }, { raw: false, receivedAt: at }),
		).toEqual({
			event: 'NEW_THING',
			eventId: 'u',
			data: { a: 1 },
			receivedAt: at,
		});
	});

	it('raw: the envelope exactly', () => {
		const envelope = { id: 'r', type: 'COURSE_STARTED', data: { user, course, extra: true } };
		expect(buildItem(envelope, { raw: true, receivedAt: at })).toEqual(envelope);
	});
});

describe('isSelected', () => {
	const production = { test: false, pingInTest: true };
	it('passes only selected types', () => {
		expect(isSelected('COURSE_STARTED', DEFAULT_EVENTS, production)).toBe(true);
		expect(isSelected('PING', DEFAULT_EVENTS, production)).toBe(false);
		expect(isSelected('NEW_THING', DEFAULT_EVENTS, production)).toBe(false);
	});

	it('"all events" passes every type, unknown ones too', () => {
		for (const type of ['PING', 'COURSE_COMPLETED', 'NEW_THING']) {
			expect(isSelected(type, [ALL_EVENTS], production)).toBe(true);
		}
	});

	it('passes PING while testing unless turned off', () => {
		expect(isSelected('PING', DEFAULT_EVENTS, { test: true, pingInTest: true })).toBe(true);
		expect(isSelected('PING', DEFAULT_EVENTS, { test: true, pingInTest: false })).toBe(false);
	});
});

describe('event type names that are names of every object', () => {
	it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
		'%s is an unknown type: selected only by "all", passed on with its data untouched',
		(type) => {
			const envelope: KnolyxEnvelope = { id: 'm', type, data: { user, n: 1 } };
			const event = toEvent(envelope);
			expect(isKnownEvent(event)).toBe(false);
			expect(event).toEqual({ id: 'm', type, unknownType: true, data: { user, n: 1 } });
			expect(buildItem(envelope, { raw: false, receivedAt: at })).toEqual({
				event: type,
				eventId: 'm',
				data: { user, n: 1 },
				receivedAt: at,
			});
			const options = { test: true, pingInTest: true };
			expect(isSelected(type, DEFAULT_EVENTS, options)).toBe(false);
			expect(isSelected(type, [ALL_EVENTS], options)).toBe(true);
		},
	);
});

describe('node description', () => {
	const { description } = new KnolyxTrigger();

	it('has the public names of issue 4', () => {
		expect(description.name).toBe('knolyxTrigger');
		expect(description.displayName).toBe('Knolyx Trigger');
		expect(description.inputs).toEqual([]);
		expect(description.credentials).toEqual([{ name: 'knolyxApi', required: true }]);
		expect(description.webhooks).toEqual([
			expect.objectContaining({ name: 'default', httpMethod: 'PUT' }),
		]);
		expect(description).not.toHaveProperty('usableAsTool');
	});

	it('defaults to the four student events and offers every known type plus "all"', () => {
		const events = description.properties.find((p) => p.name === 'events');
		expect(events?.default).toEqual(DEFAULT_EVENTS);
		expect(DEFAULT_EVENTS).toEqual(STUDENT_EVENTS);
		const values = (events?.options ?? []).map((o) => ('value' in o ? o.value : undefined));
		expect(values.sort()).toEqual([ALL_EVENTS, 'PING', ...STUDENT_EVENTS].sort());
	});
});
