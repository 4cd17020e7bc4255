/**
 * GET /sandbox/overview: what the sandbox page shows, in one bounded answer. Every list is cut
 * (newest first where it matters) and the totals tell how much more there is, so a sandbox
 * holding 200 000 generated users still answers a small page. Secrets are masked as in
 * GET /sandbox/state.
 */
import type { SandboxContext } from '../context';
import { maskSecret } from '../state';
import type { DeliveryAttempt, FaultConfig, User } from '../types';
import type { BurstStatus } from './fault-burst';
import type { RecentRequests, RecordedRequest } from './recent-requests';

export const LIMITS = {
	users: 200,
	workgroups: 200,
	membersPerWorkgroup: 100,
	courses: 200,
	rulesPerCourse: 50,
	communities: 50,
	eventsPerCommunity: 50,
	attendeesPerEvent: 100,
	webhooks: 50,
	/** Attempts read from the end of the delivery log to summarise messages. */
	deliveryAttempts: 1000,
	messagesPerWebhook: 20,
	requests: 50,
} as const;

interface Ref {
	id: number;
	name: string | null;
}

export interface DeliverySummary {
	messageId: string;
	webhookId: number;
	type: string;
	/** Who and what the event is about, e.g. "Ada Lovelace · Intro to n8n". */
	about: string | null;
	/** Attempts of all sends (first send, its retries, resends and their retries). */
	attempts: number;
	/** Times the message was sent again with its id (POST /sandbox/deliveries/{id}/resend). */
	resends: number;
	/** Answer of the newest attempt. */
	status: number | null;
	error: string | null;
	ok: boolean;
	firstAt: string;
	lastAt: string;
}

export interface Overview {
	generatedAt: string;
	counts: Record<
		| 'users'
		| 'workgroups'
		| 'memberships'
		| 'courses'
		| 'rules'
		| 'communities'
		| 'events'
		| 'webhooks'
		| 'requests',
		number
	>;
	users: (Omit<User, 'role'> & { workgroups: Ref[] })[];
	workgroups: {
		id: number;
		name: string;
		memberCount: number;
		members: {
			userId: number;
			name: string | null;
			email: string;
			removalDate: string | null;
			active: boolean;
			addedAt: string;
		}[];
	}[];
	courses: {
		id: number;
		title: string;
		createdAt: string;
		ruleCount: number;
		rules: {
			/** Digit text for an id above 2^53 (kept exactly by the sandbox, not representable in JSON numbers). */
			id: number | string;
			name: string | null;
			type: string | null;
			action: string;
			startDateTime: string | null;
			endDateTime: string | null;
			workgroups: Ref[];
			/** Other associations (USER, DEPARTMENT, JOB): kind → number of ids. */
			otherAssociations: Record<string, number>;
		}[];
	}[];
	communities: {
		id: number;
		name: string;
		workgroups: Ref[];
		events: {
			id: number;
			title: string;
			startDateTime: string;
			endDateTime: string;
			attendeeCount: number;
			attendees: { id: number; name: string | null; email: string | null; at: string }[];
		}[];
	}[];
	webhooks: {
		id: number;
		name: string;
		url: string;
		securityToken: string;
		createdAt: string;
		deliveries: DeliverySummary[];
	}[];
	/** Deliveries whose webhook has been deleted since. */
	removedWebhookDeliveries: DeliverySummary[];
	requests: RecordedRequest[];
	faults: { current: FaultConfig; burst: BurstStatus | null };
	/** The variants played, with what each changes (sandbox/variants.ts). */
	variants: Array<{ name: string; description: string }>;
	/** For the activity form. */
	bundles: { id: number; name: string }[];
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const fullName = (u: User | undefined): string | null =>
	u ? `${u.firstName} ${u.lastName}`.trim() : null;

/** Newest-last iteration order of a Map, cut to the last `limit` values. */
function lastValues<T>(map: Map<unknown, T>, limit: number): T[] {
	const all = [...map.values()];
	return all.slice(Math.max(0, all.length - limit));
}

function firstValues<T>(iterable: Iterable<T>, limit: number): T[] {
	const out: T[] = [];
	for (const v of iterable) {
		if (out.length >= limit) break;
		out.push(v);
	}
	return out;
}

/** Groups the newest attempts by message, newest message first. */
export function summariseDeliveries(attempts: DeliveryAttempt[]): DeliverySummary[] {
	const byMessage = new Map<string, DeliverySummary>();
	for (const a of attempts) {
		let s = byMessage.get(a.messageId);
		if (!s) {
			const data = a.body.data as {
				user?: { name?: unknown };
				course?: { name?: unknown };
				bundle?: { name?: unknown };
			};
			const parts = [str(data.user?.name), str(data.course?.name) ?? str(data.bundle?.name)].filter(
				(p): p is string => !!p,
			);
			s = {
				messageId: a.messageId,
				webhookId: a.webhookId,
				type: a.type,
				about: parts.length ? parts.join(' · ') : null,
				attempts: 0,
				resends: -1,
				status: null,
				error: null,
				ok: false,
				firstAt: a.at,
				lastAt: a.at,
			};
			byMessage.set(a.messageId, s);
		}
		s.attempts++;
		if (a.attempt === 1) s.resends++;
		Object.assign(s, { status: a.status, error: a.error, ok: a.ok, lastAt: a.at });
	}
	// A message whose first send fell out of the window still shows its later attempts.
	for (const s of byMessage.values()) s.resends = Math.max(0, s.resends);
	return [...byMessage.values()].sort((x, y) =>
		x.lastAt < y.lastAt ? 1 : x.lastAt > y.lastAt ? -1 : 0,
	);
}

export function buildOverview(
	ctx: SandboxContext,
	requests: RecentRequests,
	burst: BurstStatus | null,
): Overview {
	const { state } = ctx;
	const wgRef = (id: number): Ref => ({ id, name: state.workgroups.get(id)?.name ?? null });

	const users = lastValues(state.users, LIMITS.users).reverse();
	const shownUsers = new Map(users.map((u) => [u.id, [] as Ref[]]));
	let memberships = 0;
	for (const [wgId, members] of state.memberships) {
		memberships += members.size;
		for (const m of members.values()) shownUsers.get(m.userId)?.push(wgRef(wgId));
	}

	const now = new Date();
	const workgroups = firstValues(state.workgroups.values(), LIMITS.workgroups).map((wg) => {
		const members = state.memberships.get(wg.id) ?? new Map();
		return {
			id: wg.id,
			name: wg.name,
			memberCount: members.size,
			members: lastValues(members, LIMITS.membersPerWorkgroup)
				.reverse()
				.map((m) => {
					const user = state.users.get(m.userId);
					return {
						userId: m.userId,
						name: fullName(user),
						email: user?.email ?? '',
						removalDate: m.removalDate,
						active: user ? state.isActiveMember(wg.id, user, now) : false,
						addedAt: m.addedAt,
					};
				}),
		};
	});

	let ruleTotal = 0;
	for (const rules of state.rules.values()) ruleTotal += rules.length;
	const courses = firstValues(state.courses.values(), LIMITS.courses).map((c) => {
		const rules = state.rules.get(c.id) ?? [];
		return {
			id: c.id,
			title: c.title,
			createdAt: c.createdAt,
			ruleCount: rules.length,
			rules: rules.slice(0, LIMITS.rulesPerCourse).map((r) => {
				const assoc = (
					r.associations && typeof r.associations === 'object' ? r.associations : {}
				) as Record<string, unknown>;
				const ids = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
				const otherAssociations = Object.fromEntries(
					Object.entries(assoc)
						.filter(([k, v]) => k !== 'WORKGROUP' && ids(v).length > 0)
						.map(([k, v]) => [k, ids(v).length]),
				);
				return {
					id: typeof r.id === 'bigint' ? r.id.toString() : r.id,
					name: str(r.name),
					type: str(r.type),
					action: str(r.action) ?? 'WORKGROUP',
					startDateTime: str(r.startDateTime),
					endDateTime: str(r.endDateTime),
					workgroups: ids(assoc.WORKGROUP).map((id) => wgRef(Number(id))),
					otherAssociations,
				};
			}),
		};
	});

	const eventsByCommunity = new Map<number, Overview['communities'][number]['events']>();
	for (const e of state.events.values()) {
		const list = eventsByCommunity.get(e.communityId) ?? [];
		if (!eventsByCommunity.has(e.communityId)) eventsByCommunity.set(e.communityId, list);
		if (list.length >= LIMITS.eventsPerCommunity) continue;
		const attendance = state.attendance.get(e.id) ?? new Map<number, string>();
		list.push({
			id: e.id,
			title: e.title,
			startDateTime: e.startDateTime,
			endDateTime: e.endDateTime,
			attendeeCount: attendance.size,
			attendees: firstValues(attendance.entries(), LIMITS.attendeesPerEvent).map(([userId, at]) => {
				const user = state.users.get(userId);
				return { id: userId, name: fullName(user), email: user?.email ?? null, at };
			}),
		});
	}
	const communities = firstValues(state.communities.values(), LIMITS.communities).map((c) => ({
		id: c.id,
		name: c.name,
		workgroups: c.workgroupIds.map(wgRef),
		events: eventsByCommunity.get(c.id) ?? [],
	}));

	const summaries = summariseDeliveries(ctx.deliveries.recent(LIMITS.deliveryAttempts));
	const webhooks = lastValues(state.webhooks, LIMITS.webhooks)
		.reverse()
		.map((w) => ({
			id: w.id,
			name: w.name,
			url: w.url,
			securityToken: maskSecret(w.securityToken),
			createdAt: w.createdAt,
			deliveries: summaries.filter((s) => s.webhookId === w.id).slice(0, LIMITS.messagesPerWebhook),
		}));

	return {
		generatedAt: now.toISOString(),
		counts: {
			users: state.users.size,
			workgroups: state.workgroups.size,
			memberships,
			courses: state.courses.size,
			rules: ruleTotal,
			communities: state.communities.size,
			events: state.events.size,
			webhooks: state.webhooks.size,
			requests: requests.count,
		},
		users: users.map((user) => ({
			...withoutRole(user),
			workgroups: shownUsers.get(user.id) ?? [],
		})),
		workgroups,
		courses,
		communities,
		webhooks,
		removedWebhookDeliveries: summaries
			.filter((s) => !state.webhooks.has(s.webhookId))
			.slice(0, LIMITS.messagesPerWebhook),
		requests: requests.newest(LIMITS.requests),
		faults: { current: ctx.faults.current, burst },
		variants: ctx.variants.describe().available.filter((v) => ctx.variants.has(v.name)),
		bundles: firstValues(state.bundles.values(), 50).map((b) => ({ id: b.id, name: b.name })),
	};
}

/** A user as the page shows it: every field but the role (always STUDENT). */
function withoutRole<T extends { role?: unknown }>(user: T): Omit<T, 'role'> {
	const shown: Partial<T> = { ...user };
	delete shown.role;
	return shown as Omit<T, 'role'>;
}
