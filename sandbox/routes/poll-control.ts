/**
 * /sandbox control endpoints (no auth) that play what people do on the platform's own pages, for
 * the Poll Trigger's tests and benchmark: register someone for an event (also after cancelling),
 * publish an event in a community, add a course. Each takes `count` to add many at once.
 *
 *   POST   /sandbox/events/{eventId}/attendees            { userId } | { email, firstName?, lastName? } | { count }
 *   DELETE /sandbox/events/{eventId}/attendees/{userId}
 *   POST   /sandbox/communities/{communityId}/events      { title?, startDateTime?, endDateTime?, count? }
 *   POST   /sandbox/courses                               { title?, description?, image?, count? }
 *     (image: false makes a course with no image: its image endpoint answers 404)
 *   POST   /sandbox/events/{eventId}/cancellations        { count, from? }   cancels `count` attendees at once,
 *     the first ones listed (from: 'first', default) or the last ones (from: 'last')
 *   POST   /sandbox/read-edits                            { list, communityId? | eventId?, id, action, beforePage }
 *   GET    /sandbox/read-edits                            the edits armed and not yet made
 *   DELETE /sandbox/read-edits                            disarms them all
 *     (an entry deleted or moved while a list is read: see ../poll-edits.ts)
 *
 * Every body is checked: a field the endpoint does not take, or of the wrong type, is a 400 naming it.
 */
import { Router, type Request } from 'express';
import type { SandboxContext } from '../context';
import { ApiError, badRequest, notFound } from '../errors';
import {
	armReadEdit,
	clearReadEdits,
	listMap,
	pendingReadEdits,
	type ReadEditAction,
	type ReadEditList,
} from '../poll-edits';
import type { CommunityEvent, User } from '../types';
import { isEmail, isObject, parseId, requireDateTime } from '../validation';

const MAX_COUNT = 100_000;

/** The JSON body, refused (400 naming the field) when it holds a field the endpoint does not take. */
function bodyOf(req: Request, fields: readonly string[]): Record<string, unknown> {
	if (req.body === undefined) return {};
	if (!isObject(req.body)) throw badRequest('Body must be a JSON object');
	for (const field of Object.keys(req.body)) {
		if (!fields.includes(field))
			throw badRequest(`${field}: unknown field (this endpoint takes ${fields.join(', ')})`);
	}
	return req.body;
}

function integerOf(
	body: Record<string, unknown>,
	field: string,
	min: number,
	max = Number.MAX_SAFE_INTEGER,
): number | undefined {
	const value = body[field];
	if (value === undefined) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		throw badRequest(`${field} must be an integer between ${min} and ${max}`);
	}
	return value;
}

function choiceOf<T extends string>(
	body: Record<string, unknown>,
	field: string,
	choices: readonly T[],
): T | undefined {
	const value = body[field];
	if (value === undefined) return undefined;
	if (typeof value !== 'string' || !choices.includes(value as T))
		throw badRequest(`${field} must be one of ${choices.join(', ')}`);
	return value as T;
}

/** `count` (default 1): how many entries to add in one call. */
function countOf(body: Record<string, unknown>): number {
	return integerOf(body, 'count', 1, MAX_COUNT) ?? 1;
}

function optionalText(body: Record<string, unknown>, field: string): string | undefined {
	const value = body[field];
	if (value === undefined) return undefined;
	if (typeof value !== 'string' || value.trim() === '')
		throw badRequest(`${field} must be a non-empty string`);
	return value.trim();
}

const attendeeView = (user: User) => ({
	id: user.id,
	name: `${user.firstName} ${user.lastName}`.trim(),
	email: user.email,
});

export function pollControlRoutes(ctx: SandboxContext): Router {
	const { state } = ctx;
	const router = Router();

	const eventOf = (req: Request): CommunityEvent => {
		const event = state.events.get(parseId(req.params.eventId, 'eventId'));
		if (!event) throw notFound(`No event ${req.params.eventId}`);
		return event;
	};

	/** The user to register: an existing one by id, one found or created by e-mail, or `count` new ones. */
	const usersFor = (body: Record<string, unknown>): User[] => {
		const given = ['userId', 'email', 'count'].filter((field) => body[field] !== undefined);
		if (given.length > 1)
			throw badRequest(
				`${given[1]}: give one of userId, email or count, not ${given.join(' and ')}`,
			);
		const userId = integerOf(body, 'userId', 1);
		if (userId !== undefined) {
			const user = state.users.get(userId);
			if (!user) throw notFound(`No user ${userId}`);
			return [user];
		}
		const email = optionalText(body, 'email');
		if (email === undefined) {
			for (const field of ['firstName', 'lastName'])
				if (body[field] !== undefined) throw badRequest(`${field} is only taken with email`);
		} else {
			if (!isEmail(email)) throw badRequest('email must be an e-mail address');
			const local = email.split('@')[0];
			return [
				state.findUserByEmail(email) ??
					state.addUser({
						firstName: optionalText(body, 'firstName') ?? local,
						lastName: optionalText(body, 'lastName') ?? 'Attendee',
						email,
					}),
			];
		}
		return Array.from({ length: countOf(body) }, () => {
			// Users are never deleted, so users.size + 1 gives a fresh e-mail.
			const n = state.users.size + 1;
			return state.addUser({
				firstName: 'Attendee',
				lastName: String(n),
				email: `attendee${n}@poll.example`,
			});
		});
	};

	router.post('/events/:eventId/attendees', (req, res) => {
		const event = eventOf(req);
		const users = usersFor(bodyOf(req, ['userId', 'email', 'firstName', 'lastName', 'count']));
		const attendees = state.attendeesOf(event.id);
		if (users.length === 1 && attendees.has(users[0].id))
			throw new ApiError(409, 'User is already registered for this event');
		const now = new Date().toISOString();
		for (const user of users) attendees.set(user.id, now);
		res.status(201).json({ eventId: event.id, attendees: users.map(attendeeView) });
	});

	router.delete('/events/:eventId/attendees/:userId', (req, res) => {
		const event = eventOf(req);
		const userId = parseId(req.params.userId, 'userId');
		if (!state.attendance.get(event.id)?.delete(userId))
			throw notFound('User is not registered for this event');
		res.json({ eventId: event.id, userId, status: 'CANCELLED' });
	});

	router.post('/communities/:communityId/events', (req, res) => {
		const community = state.communities.get(parseId(req.params.communityId, 'communityId'));
		if (!community) throw notFound(`No community ${req.params.communityId}`);
		const body = bodyOf(req, ['title', 'startDateTime', 'endDateTime', 'count']);
		const title = optionalText(body, 'title');
		const [startDateTime, endDateTime] = (['startDateTime', 'endDateTime'] as const).map(
			(field) => {
				if (body[field] === undefined) return undefined;
				requireDateTime(body[field], field);
				return body[field] as string;
			},
		);
		const events = Array.from({ length: countOf(body) }, () => {
			const n = state.events.size + 1;
			return state.addEvent({
				communityId: community.id,
				title: title ?? `Event ${n}`,
				startDateTime,
				endDateTime,
			});
		});
		res.status(201).json({ events });
	});

	router.post('/courses', (req, res) => {
		const body = bodyOf(req, ['title', 'description', 'image', 'count']);
		const title = optionalText(body, 'title');
		const description = optionalText(body, 'description');
		if (body.image !== undefined && typeof body.image !== 'boolean')
			throw badRequest('image must be true or false');
		const image = body.image as boolean | undefined;
		const courses = Array.from({ length: countOf(body) }, () =>
			state.addCourse({ title: title ?? `Course ${state.courses.size + 1}`, description, image }),
		);
		res.status(201).json({ courses });
	});

	router.post('/events/:eventId/cancellations', (req, res) => {
		const event = eventOf(req);
		const body = bodyOf(req, ['count', 'from']);
		if (body.count === undefined) throw badRequest('count is required');
		const count = countOf(body);
		const from = choiceOf(body, 'from', ['first', 'last'] as const) ?? 'first';
		const attendees = state.attendeesOf(event.id);
		const listed = [...attendees.keys()];
		const userIds = from === 'first' ? listed.slice(0, count) : listed.slice(-count);
		for (const userId of userIds) attendees.delete(userId);
		res.json({ eventId: event.id, cancelled: userIds.length, attendees: attendees.size });
	});

	router.post('/read-edits', (req, res) => {
		const body = bodyOf(req, ['list', 'communityId', 'eventId', 'id', 'action', 'beforePage']);
		const list = choiceOf(body, 'list', [
			'events',
			'attendees',
			'courses',
		] as const satisfies readonly ReadEditList[]);
		if (list === undefined) throw badRequest('list is required');
		const action = choiceOf(body, 'action', [
			'delete',
			'moveToFront',
			'moveToEnd',
		] as const satisfies readonly ReadEditAction[]);
		if (action === undefined) throw badRequest('action is required');
		const id = integerOf(body, 'id', 1);
		if (id === undefined) throw badRequest('id is required');
		const beforePage = integerOf(body, 'beforePage', 1);
		if (beforePage === undefined) throw badRequest('beforePage is required');
		const communityId = integerOf(body, 'communityId', 1);
		const eventId = integerOf(body, 'eventId', 1);
		const needs = { events: 'communityId', attendees: 'eventId', courses: undefined }[list];
		for (const [field, value] of [
			['communityId', communityId],
			['eventId', eventId],
		] as const) {
			if (field === needs && value === undefined)
				throw badRequest(`${field} is required for list ${list}`);
			if (field !== needs && value !== undefined)
				throw badRequest(`${field} is not taken for list ${list}`);
		}
		const entries = listMap(state, { list, eventId });
		const inList =
			list === 'events'
				? state.events.get(id)?.communityId === communityId
				: entries?.has(id) === true;
		if (!inList) throw notFound(`No entry ${id} in that ${list} list`);
		const edit = { list, communityId, eventId, id, action, beforePage };
		armReadEdit(state, edit);
		res.status(201).json(edit);
	});

	router.get('/read-edits', (_req, res) => {
		res.json({ pending: pendingReadEdits(state) });
	});

	router.delete('/read-edits', (_req, res) => {
		clearReadEdits(state);
		res.json({ pending: [] });
	});

	return router;
}
