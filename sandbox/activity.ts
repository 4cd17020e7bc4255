/** Student activity and pings: builds event payloads and hands them to the delivery service. */
import type { SandboxContext } from './context';
import { ApiError, notFound } from './errors';
import type { Bundle, Course, EventType, User, Webhook } from './types';
import { isObject } from './validation';

export interface EmitResult {
	type: EventType;
	/** False when nothing was emitted (a course completed a second time). */
	emitted: boolean;
	messages: { messageId: string; webhookId: number }[];
}

export type ActivityKind =
	| 'course-started'
	| 'course-completed'
	| 'course-payment'
	| 'bundle-payment';

export const ACTIVITY_KINDS: readonly ActivityKind[] = [
	'course-started',
	'course-completed',
	'course-payment',
	'bundle-payment',
];

export function sendPing(ctx: SandboxContext, webhooks: Iterable<Webhook>): EmitResult {
	return emitTo(ctx, webhooks, 'PING', { message: 'PING' });
}

function emitTo(
	ctx: SandboxContext,
	webhooks: Iterable<Webhook>,
	type: EventType,
	data: Record<string, unknown>,
): EmitResult {
	const messages = [...webhooks].map((w) => ({
		messageId: ctx.deliveries.emit(w, type, data),
		webhookId: w.id,
	}));
	return { type, emitted: true, messages };
}

const userRef = (u: User) => ({
	id: u.id,
	name: `${u.firstName} ${u.lastName}`.trim(),
	email: u.email,
});
const courseRef = (c: Course) => ({ id: c.id, name: c.title });
const bundleRef = (b: Bundle) => ({ id: b.id, slug: b.slug, name: b.name });

function resolveUser(ctx: SandboxContext, input: Record<string, unknown>): User {
	const user =
		typeof input.userId === 'number'
			? ctx.state.users.get(input.userId)
			: typeof input.email === 'string'
				? ctx.state.findUserByEmail(input.email)
				: undefined;
	if (!user) throw notFound('User not found (give an existing email or userId)');
	return user;
}

function resolve<T>(map: Map<number, T>, id: unknown, what: string): T {
	const found = typeof id === 'number' ? map.get(id) : undefined;
	if (!found) throw notFound(`${what} not found`);
	return found;
}

/** Simulates a student action and sends the matching event to every webhook. */
export function recordActivity(
	ctx: SandboxContext,
	kind: ActivityKind,
	input: unknown,
): EmitResult {
	if (!isObject(input)) throw new ApiError(400, 'Body must be a JSON object');
	const user = resolveUser(ctx, input);
	const all = ctx.state.webhooks.values();
	if (kind === 'bundle-payment') {
		const bundle = resolve(ctx.state.bundles, input.bundleId, 'Bundle');
		return emitTo(ctx, all, 'BUNDLE_PAYMENT_RECEIVED', {
			user: userRef(user),
			bundle: bundleRef(bundle),
		});
	}
	const course = resolve(ctx.state.courses, input.courseId, 'Course');
	const data = { user: userRef(user), course: courseRef(course) };
	if (kind === 'course-started') return emitTo(ctx, all, 'COURSE_STARTED', data);
	if (kind === 'course-payment') return emitTo(ctx, all, 'COURSE_PAYMENT_RECEIVED', data);
	const key = `${user.id}:${course.id}`;
	if (ctx.state.completions.has(key))
		return { type: 'COURSE_COMPLETED', emitted: false, messages: [] };
	ctx.state.completions.add(key);
	return emitTo(ctx, all, 'COURSE_COMPLETED', data);
}
