/** Communities and events: event list/read and attendees (EVENT_READ), attend and cancel (EVENT_MANAGE). */
import { Router, type Request } from 'express';
import { requirePermission } from '../auth';
import type { SandboxContext } from '../context';
import { ApiError, notFound } from '../errors';
import type { Community, CommunityEvent } from '../types';
import { parseId, parsePage } from '../validation';

const EVENT_PATH = '/community/:communityId/event/:eventId';

export function communityRoutes(ctx: SandboxContext): Router {
	const { state } = ctx;
	const router = Router();
	router.use('/community', (req, res, next) =>
		requirePermission(req.method === 'GET' ? 'EVENT_READ' : 'EVENT_MANAGE')(req, res, next),
	);

	const communityOf = (req: Request): Community => {
		const community = state.communities.get(parseId(req.params.communityId, 'communityId'));
		if (!community) throw notFound();
		return community;
	};

	/** The event must exist and belong to the community of the path. */
	const eventOf = (req: Request): { community: Community; event: CommunityEvent } => {
		const community = communityOf(req);
		const event = state.events.get(parseId(req.params.eventId, 'eventId'));
		if (!event || event.communityId !== community.id) throw notFound();
		return { community, event };
	};

	const userIdOf = (req: Request): number => parseId(req.params.userId, 'userId');

	router.get('/community/:communityId/event/paged', (req, res) => {
		const community = communityOf(req);
		const events = [...state.events.values()].filter((e) => e.communityId === community.id);
		ctx.variants.sendPage(res, events, req.query);
	});

	router.get(EVENT_PATH, (req, res) => {
		res.json(eventOf(req).event);
	});

	router.get(`${EVENT_PATH}/attendees/paged`, (req, res) => {
		const { event } = eventOf(req);
		if (ctx.variants.pagingAltered) {
			const all = [...(state.attendance.get(event.id)?.keys() ?? [])].flatMap((id) => {
				const u = state.users.get(id);
				return u ? [{ id: u.id, name: `${u.firstName} ${u.lastName}`.trim(), email: u.email }] : [];
			});
			ctx.variants.sendPage(res, all, req.query);
			return;
		}
		// Only the page's own entries are looked at and built: a list of 25000 is read in 250 pages,
		// and copying it whole for each made the sandbox the slowest part of the poll tests.
		const { page, size } = parsePage(req.query);
		const attendees: Array<{ id: number; name: string; email: string }> = [];
		let skip = page * size;
		for (const id of state.attendance.get(event.id)?.keys() ?? []) {
			if (attendees.length >= size) break;
			const u = state.users.get(id);
			if (!u) continue;
			if (skip > 0) skip--;
			else
				attendees.push({ id: u.id, name: `${u.firstName} ${u.lastName}`.trim(), email: u.email });
		}
		res.json(attendees);
	});

	router.post(`${EVENT_PATH}/attend/:userId`, (req, res) => {
		const { community, event } = eventOf(req);
		const user = state.users.get(userIdOf(req));
		if (!user) throw notFound();
		if (!state.hasCommunityAccess(community, user)) {
			throw new ApiError(403, 'User has no access to the community of this event');
		}
		const attendees = state.attendeesOf(event.id);
		const already = attendees.has(user.id);
		ctx.stats.write(`attend:${event.id}:${user.id}`, null, !already);
		if (already) throw new ApiError(409, 'User is already registered for this event');
		attendees.set(user.id, new Date().toISOString());
		res.json({ eventId: event.id, userId: user.id, status: 'ATTENDING' });
	});

	router.delete(`${EVENT_PATH}/attend/:userId`, (req, res) => {
		const { event } = eventOf(req);
		const userId = userIdOf(req);
		const removed = state.attendance.get(event.id)?.delete(userId) ?? false;
		if (state.users.has(userId)) ctx.stats.write(`cancel:${event.id}:${userId}`, null, removed);
		if (!removed) throw notFound('User is not registered for this event');
		res.json({ eventId: event.id, userId, status: 'CANCELLED' });
	});

	return router;
}
