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
 * Every body is checked against its schema (sandbox/validation.ts) before anything is changed: a
 * field the endpoint does not take, of the wrong type, or not taken with another, is a 400 naming it.
 */
import { Router, type Request } from 'express';
import type { SandboxContext } from '../context';
import { ApiError, notFound } from '../errors';
import {
	armReadEdit,
	clearReadEdits,
	listMap,
	pendingReadEdits,
	type ReadEdit,
	type ReadEditAction,
	type ReadEditList,
} from '../poll-edits';
import type { CommunityEvent, User } from '../types';
import { checkBody, is, parseId, type CheckOptions, type Schema } from '../validation';

const MAX_COUNT = 100_000;

const positive = is.integer(1);
/** How many entries to add in one call (default 1). */
const howMany = is.integer(1, MAX_COUNT);
const nonEmpty = is.text({ pattern: /\S/, meaning: 'a non-empty text' });

const ATTENDEE_SCHEMA: Schema = {
	userId: positive,
	email: is.email,
	firstName: nonEmpty,
	lastName: nonEmpty,
	count: howMany,
};
const ATTENDEE_OPTIONS: CheckOptions = {
	oneOf: [{ names: ['userId', 'email', 'count'] }],
	when: { firstName: { field: 'email' }, lastName: { field: 'email' } },
};

const EVENT_SCHEMA: Schema = {
	title: nonEmpty,
	startDateTime: is.dateTime,
	endDateTime: is.dateTime,
	count: howMany,
};

const COURSE_SCHEMA: Schema = {
	title: nonEmpty,
	description: nonEmpty,
	image: is.boolean,
	count: howMany,
};

const CANCELLATION_SCHEMA: Schema = { count: howMany, from: is.oneOf(['first', 'last']) };

const READ_EDIT_SCHEMA: Schema = {
	list: is.oneOf(['events', 'attendees', 'courses'] satisfies ReadEditList[]),
	communityId: positive,
	eventId: positive,
	id: positive,
	action: is.oneOf(['delete', 'moveToFront', 'moveToEnd'] satisfies ReadEditAction[]),
	beforePage: positive,
};
const READ_EDIT_OPTIONS: CheckOptions = {
	required: ['list', 'id', 'action', 'beforePage'],
	// The list's own owner: the community of an events list, the event of an attendees list.
	when: {
		communityId: { field: 'list', is: ['events'], required: true },
		eventId: { field: 'list', is: ['attendees'], required: true },
	},
};

/** A text field that was checked non-empty, trimmed; undefined when absent. */
function trimmed(value: unknown): string | undefined {
	return typeof value === 'string' ? value.trim() : undefined;
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

	/** The users to register: an existing one by id, one found or created by e-mail, or `count` new ones. */
	const usersFor = (body: Record<string, unknown>): User[] => {
		if (body.userId !== undefined) {
			const user = state.users.get(body.userId as number);
			if (!user) throw notFound(`No user ${body.userId}`);
			return [user];
		}
		const email = trimmed(body.email);
		if (email !== undefined) {
			const local = email.split('@')[0];
			return [
				state.findUserByEmail(email) ??
					state.addUser({
						firstName: trimmed(body.firstName) ?? local,
						lastName: trimmed(body.lastName) ?? 'Attendee',
						email,
					}),
			];
		}
		return Array.from({ length: (body.count as number | undefined) ?? 1 }, () => {
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
		const users = usersFor(checkBody(req, ATTENDEE_SCHEMA, ATTENDEE_OPTIONS));
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
		const body = checkBody(req, EVENT_SCHEMA);
		const title = trimmed(body.title);
		const { startDateTime, endDateTime } = body as { startDateTime?: string; endDateTime?: string };
		const events = Array.from({ length: (body.count as number | undefined) ?? 1 }, () => {
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
		const body = checkBody(req, COURSE_SCHEMA);
		const title = trimmed(body.title);
		const description = trimmed(body.description);
		const image = body.image as boolean | undefined;
		const courses = Array.from({ length: (body.count as number | undefined) ?? 1 }, () =>
			state.addCourse({ title: title ?? `Course ${state.courses.size + 1}`, description, image }),
		);
		res.status(201).json({ courses });
	});

	router.post('/events/:eventId/cancellations', (req, res) => {
		const event = eventOf(req);
		const body = checkBody(req, CANCELLATION_SCHEMA, { required: ['count'] });
		const count = body.count as number;
		const from = (body.from ?? 'first') as 'first' | 'last';
		const attendees = state.attendeesOf(event.id);
		const listed = [...attendees.keys()];
		const userIds = from === 'first' ? listed.slice(0, count) : listed.slice(-count);
		for (const userId of userIds) attendees.delete(userId);
		res.json({ eventId: event.id, cancelled: userIds.length, attendees: attendees.size });
	});

	router.post('/read-edits', (req, res) => {
		const { list, communityId, eventId, id, action, beforePage } = checkBody(
			req,
			READ_EDIT_SCHEMA,
			READ_EDIT_OPTIONS,
		) as unknown as ReadEdit;
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
