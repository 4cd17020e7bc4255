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
 */
import { Router, type Request } from 'express';
import type { SandboxContext } from '../context';
import { ApiError, badRequest, notFound } from '../errors';
import type { CommunityEvent, User } from '../types';
import { isEmail, isObject, parseId, requireDateTime } from '../validation';

const MAX_COUNT = 100_000;

function bodyOf(req: Request): Record<string, unknown> {
	if (req.body === undefined) return {};
	if (!isObject(req.body)) throw badRequest('Body must be a JSON object');
	return req.body;
}

/** `count` (default 1): how many entries to add in one call. */
function countOf(body: Record<string, unknown>): number {
	const count = body.count ?? 1;
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_COUNT) {
		throw badRequest(`count must be an integer between 1 and ${MAX_COUNT}`);
	}
	return count;
}

function optionalText(body: Record<string, unknown>, field: string): string | undefined {
	const value = body[field];
	if (value === undefined) return undefined;
	if (typeof value !== 'string' || value.trim() === '') throw badRequest(`${field} must be a non-empty string`);
	return value.trim();
}

const attendeeView = (user: User) => ({ id: user.id, name: `${user.firstName} ${user.lastName}`.trim(), email: user.email });

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
		if (body.userId !== undefined) {
			const user = typeof body.userId === 'number' ? state.users.get(body.userId) : undefined;
			if (!user) throw notFound(`No user ${String(body.userId)}`);
			return [user];
		}
		const email = optionalText(body, 'email');
		if (email !== undefined) {
			if (!isEmail(email)) throw badRequest('email must be an e-mail address');
			const local = email.split('@')[0];
			return [
				state.findUserByEmail(email) ??
					state.addUser({ firstName: optionalText(body, 'firstName') ?? local, lastName: optionalText(body, 'lastName') ?? 'Attendee', email }),
			];
		}
		return Array.from({ length: countOf(body) }, () => {
			// Users are never deleted, so users.size + 1 gives a fresh e-mail.
			const n = state.users.size + 1;
			return state.addUser({ firstName: 'Attendee', lastName: String(n), email: `attendee${n}@poll.example` });
		});
	};

	router.post('/events/:eventId/attendees', (req, res) => {
		const event = eventOf(req);
		const users = usersFor(bodyOf(req));
		const attendees = state.attendeesOf(event.id);
		if (users.length === 1 && attendees.has(users[0].id)) throw new ApiError(409, 'User is already registered for this event');
		const now = new Date().toISOString();
		for (const user of users) attendees.set(user.id, now);
		res.status(201).json({ eventId: event.id, attendees: users.map(attendeeView) });
	});

	router.delete('/events/:eventId/attendees/:userId', (req, res) => {
		const event = eventOf(req);
		const userId = parseId(req.params.userId, 'userId');
		if (!state.attendance.get(event.id)?.delete(userId)) throw notFound('User is not registered for this event');
		res.json({ eventId: event.id, userId, status: 'CANCELLED' });
	});

	router.post('/communities/:communityId/events', (req, res) => {
		const community = state.communities.get(parseId(req.params.communityId, 'communityId'));
		if (!community) throw notFound(`No community ${req.params.communityId}`);
		const body = bodyOf(req);
		const title = optionalText(body, 'title');
		const startDateTime = body.startDateTime === undefined ? undefined : String(body.startDateTime);
		const endDateTime = body.endDateTime === undefined ? undefined : String(body.endDateTime);
		if (startDateTime !== undefined) requireDateTime(startDateTime, 'startDateTime');
		if (endDateTime !== undefined) requireDateTime(endDateTime, 'endDateTime');
		const events = Array.from({ length: countOf(body) }, () => {
			const n = state.events.size + 1;
			return state.addEvent({ communityId: community.id, title: title ?? `Event ${n}`, startDateTime, endDateTime });
		});
		res.status(201).json({ events });
	});

	router.post('/courses', (req, res) => {
		const body = bodyOf(req);
		const title = optionalText(body, 'title');
		const description = optionalText(body, 'description');
		if (body.image !== undefined && typeof body.image !== 'boolean') throw badRequest('image must be true or false');
		const image = body.image as boolean | undefined;
		const courses = Array.from({ length: countOf(body) }, () =>
			state.addCourse({ title: title ?? `Course ${state.courses.size + 1}`, description, image }),
		);
		res.status(201).json({ courses });
	});

	return router;
}
