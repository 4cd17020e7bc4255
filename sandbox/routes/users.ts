/** POST /user/provision (USER_PROVISION): create (201 + onboarding e-mail) or update (200). */
import { Router } from 'express';
import { requirePermission } from '../auth';
import type { SandboxContext } from '../context';
import { badRequest } from '../errors';
import { GENDERS, type Gender, type User } from '../types';
import { isEmail, requireNonEmptyString, requireObject } from '../validation';

const view = (u: User) => ({
	id: u.id,
	firstName: u.firstName,
	lastName: u.lastName,
	email: u.email,
	gender: u.gender,
	role: u.role,
});

export function userRoutes(ctx: SandboxContext): Router {
	const { state } = ctx;
	const router = Router();

	router.post('/user/provision', requirePermission('USER_PROVISION'), (req, res) => {
		const body = requireObject(req.body, 'Request body');
		const firstName = requireNonEmptyString(body.firstName, 'firstName');
		const lastName = requireNonEmptyString(body.lastName, 'lastName');
		const email = requireNonEmptyString(body.email, 'email');
		if (!isEmail(email)) throw badRequest('email must be a valid e-mail address');
		let gender: Gender | undefined;
		if (body.gender !== undefined && body.gender !== null) {
			if (
				typeof body.gender !== 'string' ||
				!(GENDERS as readonly string[]).includes(body.gender)
			) {
				throw badRequest(`gender must be one of ${GENDERS.join(', ')}`);
			}
			gender = body.gender as Gender;
		}
		const writeKey = `provision:${email.toLowerCase()}`;
		const payload = { firstName, lastName, email: email.toLowerCase(), gender: gender ?? null };
		const existing = state.findUserByEmail(email);
		if (!existing) {
			const user = state.addUser({ firstName, lastName, email, gender });
			state.onboardingEmails.push({
				to: user.email,
				userId: user.id,
				at: new Date().toISOString(),
			});
			ctx.stats.write(writeKey, payload, true);
			res.status(201).json(view(user));
			return;
		}
		// Existing user: persist the changed fields; an omitted gender keeps the stored one. No e-mail.
		const updated = { firstName, lastName, gender: gender ?? existing.gender };
		const changed = (Object.keys(updated) as (keyof typeof updated)[]).some(
			(k) => existing[k] !== updated[k],
		);
		Object.assign(existing, updated);
		ctx.stats.write(writeKey, payload, changed);
		res.status(200).json(view(existing));
	});

	return router;
}
