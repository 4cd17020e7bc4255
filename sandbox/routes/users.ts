/** POST /user/provision (USER_PROVISION): create (201 + onboarding e-mail) or update (200). */
import { Router, type RequestHandler } from 'express';
import { requirePermission } from '../auth';
import type { SandboxContext } from '../context';
import { badRequest, sendError } from '../errors';
import { GENDERS, type Gender, type User } from '../types';
import { isEmail, requireNonEmptyString, requireObject } from '../validation';
import type { Variants } from '../variants';

const view = (u: User, variants: Variants) => ({
	id: u.id,
	firstName: u.firstName,
	lastName: u.lastName,
	email: u.email,
	gender: variants.genderOut(u.gender),
	role: u.role,
});

export function userRoutes(ctx: SandboxContext): Router {
	const { state, variants } = ctx;
	const router = Router();

	const provision: RequestHandler = (req, res) => {
		const body = requireObject(req.body, 'Request body');
		const firstName = requireNonEmptyString(body.firstName, 'firstName');
		const lastName = requireNonEmptyString(body.lastName, 'lastName');
		const email = requireNonEmptyString(body.email, 'email');
		if (!isEmail(email)) throw badRequest('email must be a valid e-mail address');
		let gender: Gender | undefined;
		const sentGender = variants.genderIn(body.gender);
		if (sentGender !== undefined && sentGender !== null) {
			if (typeof sentGender !== 'string' || !(GENDERS as readonly string[]).includes(sentGender)) {
				throw badRequest(
					`gender must be one of ${GENDERS.map((g) => variants.genderOut(g)).join(', ')}`,
				);
			}
			gender = sentGender as Gender;
		}
		const { disableWelcomeEmail } = body;
		if (disableWelcomeEmail !== undefined && typeof disableWelcomeEmail !== 'boolean')
			throw badRequest('disableWelcomeEmail must be true or false');
		state.provisionRequests.push(structuredClone(body));
		if (state.provisionRequests.length > 100) state.provisionRequests.shift();
		const writeKey = `provision:${email.toLowerCase()}`;
		const payload = { firstName, lastName, email: email.toLowerCase(), gender: gender ?? null };
		const existing = state.findUserByEmail(email);
		if (!existing) {
			const user = state.addUser({ firstName, lastName, email, gender });
			// The welcome (on-boarding) e-mail, unless the request turned it off.
			if (disableWelcomeEmail !== true)
				state.onboardingEmails.push({
					to: user.email,
					userId: user.id,
					at: new Date().toISOString(),
				});
			ctx.stats.write(writeKey, payload, true);
			res.status(201).json(view(user, variants));
			return;
		}
		// Existing user: persist the changed fields; an omitted gender keeps the stored one. No e-mail.
		const updated = { firstName, lastName, gender: gender ?? existing.gender };
		const changed = (Object.keys(updated) as (keyof typeof updated)[]).some(
			(k) => existing[k] !== updated[k],
		);
		Object.assign(existing, updated);
		ctx.stats.write(writeKey, payload, changed);
		const answer: Record<string, unknown> = view(existing, variants);
		if (variants.has('provisionNoIdOn200')) delete answer.id;
		res.status(200).json(answer);
	};

	router.post('/user/provision', requirePermission('USER_PROVISION'), (req, res, next) => {
		if (!variants.has('putProvisioning')) {
			provision(req, res, next);
			return;
		}
		res.setHeader('Allow', 'PUT');
		sendError(res, 405, "Request method 'POST' is not supported");
	});
	router.put('/user/provision', requirePermission('USER_PROVISION'), (req, res, next) => {
		if (variants.has('putProvisioning')) {
			provision(req, res, next);
			return;
		}
		sendError(res, 404, `No endpoint ${req.method} ${req.originalUrl.split('?')[0]}`);
	});

	return router;
}
