/**
 * Workgroups: paged list (WORKGROUP_LIST), add/update a member (WORKGROUP_ADD_MEMBER) and remove one
 * (WORKGROUP_REMOVE_MEMBER). Members are addressed by URL-encoded e-mail; the trailing slash is optional.
 */
import { Router, type Request } from 'express';
import { requirePermission } from '../auth';
import type { SandboxContext } from '../context';
import { badRequest, notFound } from '../errors';
import type { User, Workgroup } from '../types';
import { isObject, parseDateTime, parseId } from '../validation';

const MEMBER_PATH = '/workgroup/:workgroupId/member/:email';

export function workgroupRoutes(ctx: SandboxContext): Router {
	const { state } = ctx;
	// Express routing is not strict: MEMBER_PATH also matches with a trailing slash.
	const router = Router();

	/** Workgroup and user of a member path; 404 "Entity not found" when either is missing. */
	const resolve = (req: Request): { workgroup: Workgroup; user: User; email: string } => {
		const workgroupId = parseId(req.params.workgroupId, 'workgroupId');
		// req.params is already percent-decoded; %2F stays inside the parameter.
		const email = String(req.params.email);
		const workgroup = state.workgroups.get(workgroupId);
		const user = state.findUserByEmail(email);
		if (!workgroup || !user) throw notFound();
		return { workgroup, user, email: email.toLowerCase() };
	};

	router.get('/workgroup', requirePermission('WORKGROUP_LIST'), (req, res) => {
		// The guides show this list without paging parameters: largePages and the like leave it alone.
		ctx.variants.sendPage(
			res,
			[...state.workgroups.values()],
			req.query,
			(w) => ({ id: w.id, name: w.name }),
			false,
		);
	});

	router.put(MEMBER_PATH, requirePermission('WORKGROUP_ADD_MEMBER'), (req, res) => {
		const body: unknown = req.body ?? {};
		if (!isObject(body)) throw badRequest('Request body must be a JSON object with removalDate');
		const raw = body.removalDate ?? null;
		if (raw !== null && (typeof raw !== 'string' || !parseDateTime(raw))) {
			throw badRequest(
				'removalDate must be null or a date-time in format yyyy-MM-dd HH:mm:ss (UTC)',
			);
		}
		const { workgroup, user, email } = resolve(req);
		const changed = state.setMembership(workgroup.id, user, raw);
		ctx.stats.write(`member:${workgroup.id}:${email}`, { removalDate: raw }, changed);
		res.json({ email: user.email, workgroupId: workgroup.id, removalDate: raw });
	});

	router.delete(MEMBER_PATH, requirePermission('WORKGROUP_REMOVE_MEMBER'), (req, res) => {
		const { workgroup, user, email } = resolve(req);
		const removed = state.memberships.get(workgroup.id)?.delete(email) ?? false;
		ctx.stats.write(`member-remove:${workgroup.id}:${email}`, null, removed);
		if (!removed) throw notFound();
		res.json({ email: user.email, workgroupId: workgroup.id });
	});

	return router;
}
