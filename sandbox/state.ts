/**
 * The live in-memory state of the sandbox. One instance lives as long as the sandbox;
 * reset() empties it in place so references held by tests stay valid.
 */
import type {
	ApiKey,
	Gender,
	Bundle,
	Community,
	CommunityEvent,
	Course,
	Membership,
	OnboardingEmail,
	Rule,
	User,
	Webhook,
	Workgroup,
} from './types';
import { formatDateTime, parseDateTime } from './validation';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** First id of each kind: distinct ranges make a mixed-up id fail loudly (404) instead of hitting another entity. */
const FIRST_IDS = {
	webhook: 1,
	course: 101,
	workgroup: 201,
	community: 301,
	event: 401,
	rule: 501,
	bundle: 601,
	user: 1001,
} as const;
type IdKind = keyof typeof FIRST_IDS;

export class SandboxState {
	readonly apiKeys = new Map<string, ApiKey>();
	readonly users = new Map<number, User>();
	readonly courses = new Map<number, Course>();
	readonly workgroups = new Map<number, Workgroup>();
	/** workgroupId → lower-cased e-mail → membership */
	readonly memberships = new Map<number, Map<string, Membership>>();
	readonly communities = new Map<number, Community>();
	readonly events = new Map<number, CommunityEvent>();
	/** eventId → userId → registration time */
	readonly attendance = new Map<number, Map<number, string>>();
	readonly bundles = new Map<number, Bundle>();
	/** courseId → rules in saved order */
	readonly rules = new Map<number, Rule[]>();
	readonly webhooks = new Map<number, Webhook>();
	readonly onboardingEmails: OnboardingEmail[] = [];
	/**
	 * The bodies of the last 100 provisioning requests that were applied, oldest first (for tests;
	 * not in GET /sandbox/state, which shows what the platform holds).
	 */
	readonly provisionRequests: Array<Record<string, unknown>> = [];
	/** "userId:courseId" of completed courses (a second completion emits nothing). */
	readonly completions = new Set<string>();
	/** Courses that have no image: their image endpoint answers 404. */
	readonly coursesWithoutImage = new Set<number>();
	private readonly nextIds = new Map<IdKind, number>();

	reset(): void {
		for (const m of [
			this.apiKeys,
			this.users,
			this.courses,
			this.workgroups,
			this.memberships,
			this.communities,
			this.events,
			this.attendance,
			this.bundles,
			this.rules,
			this.webhooks,
		] as Map<unknown, unknown>[]) {
			m.clear();
		}
		this.onboardingEmails.length = 0;
		this.provisionRequests.length = 0;
		this.completions.clear();
		this.coursesWithoutImage.clear();
		this.nextIds.clear();
	}

	nextId(kind: IdKind): number {
		const id = this.nextIds.get(kind) ?? FIRST_IDS[kind];
		this.nextIds.set(kind, id + 1);
		return id;
	}

	addApiKey(key: ApiKey): ApiKey {
		this.apiKeys.set(key.apiKey, key);
		return key;
	}

	addCourse(input: { title: string; description?: string; image?: boolean }): Course {
		const course: Course = {
			id: this.nextId('course'),
			title: input.title,
			description: input.description ?? `${input.title}: a Knolyx course.`,
			createdAt: new Date().toISOString(),
		};
		this.courses.set(course.id, course);
		if (input.image === false) this.coursesWithoutImage.add(course.id);
		return course;
	}

	addWorkgroup(input: { name: string }): Workgroup {
		const workgroup: Workgroup = { id: this.nextId('workgroup'), name: input.name };
		this.workgroups.set(workgroup.id, workgroup);
		return workgroup;
	}

	addCommunity(input: { name: string; workgroupIds?: number[] }): Community {
		const community: Community = {
			id: this.nextId('community'),
			name: input.name,
			workgroupIds: [...(input.workgroupIds ?? [])],
		};
		this.communities.set(community.id, community);
		return community;
	}

	addEvent(input: {
		communityId: number;
		title: string;
		startDateTime?: string;
		endDateTime?: string;
	}): CommunityEvent {
		const start = input.startDateTime ?? formatDateTime(new Date(Date.now() + 7 * DAY_MS));
		const event: CommunityEvent = {
			id: this.nextId('event'),
			communityId: input.communityId,
			title: input.title,
			startDateTime: start,
			endDateTime:
				input.endDateTime ??
				formatDateTime(new Date((parseDateTime(start)?.getTime() ?? Date.now()) + 2 * HOUR_MS)),
		};
		this.events.set(event.id, event);
		return event;
	}

	addBundle(input: { name: string; slug?: string }): Bundle {
		const bundle: Bundle = {
			id: this.nextId('bundle'),
			name: input.name,
			slug:
				input.slug ??
				input.name
					.toLowerCase()
					.replace(/[^a-z0-9]+/g, '-')
					.replace(/^-|-$/g, ''),
		};
		this.bundles.set(bundle.id, bundle);
		return bundle;
	}

	addUser(input: { firstName: string; lastName: string; email: string; gender?: Gender }): User {
		const user: User = {
			id: this.nextId('user'),
			firstName: input.firstName,
			lastName: input.lastName,
			email: input.email,
			gender: input.gender ?? 'NON-BINARY',
			role: 'STUDENT',
			createdAt: new Date().toISOString(),
		};
		this.users.set(user.id, user);
		return user;
	}

	/** Adds or updates a membership; true when something changed. */
	setMembership(workgroupId: number, user: User, removalDate: string | null): boolean {
		const members = this.membersOf(workgroupId);
		const key = user.email.toLowerCase();
		const existing = members.get(key);
		if (existing && existing.removalDate === removalDate) return false;
		members.set(key, {
			userId: user.id,
			removalDate,
			addedAt: existing?.addedAt ?? new Date().toISOString(),
		});
		return true;
	}

	findUserByEmail(email: string): User | undefined {
		const wanted = email.toLowerCase();
		for (const user of this.users.values()) if (user.email.toLowerCase() === wanted) return user;
		return undefined;
	}

	membersOf(workgroupId: number): Map<string, Membership> {
		return innerMap(this.memberships, workgroupId);
	}

	attendeesOf(eventId: number): Map<number, string> {
		return innerMap(this.attendance, eventId);
	}

	/** True when the membership exists and its removalDate (UTC) is not reached at `now`. */
	isActiveMember(workgroupId: number, user: User, now = new Date()): boolean {
		const membership = this.memberships.get(workgroupId)?.get(user.email.toLowerCase());
		if (!membership) return false;
		if (membership.removalDate === null) return true;
		const removal = parseDateTime(membership.removalDate);
		return removal === undefined || removal.getTime() > now.getTime();
	}

	hasCommunityAccess(community: Community, user: User, now = new Date()): boolean {
		return community.workgroupIds.some((wgId) => this.isActiveMember(wgId, user, now));
	}

	/** Full dump for GET /sandbox/state: maps become arrays, webhook tokens are masked. */
	toJSON(): Record<string, unknown> {
		return {
			apiKeys: [...this.apiKeys.values()].map((k) => ({ ...k, apiKey: maskSecret(k.apiKey) })),
			users: [...this.users.values()],
			courses: [...this.courses.values()],
			workgroups: [...this.workgroups.values()].map((wg) => ({
				...wg,
				members: [...(this.memberships.get(wg.id)?.entries() ?? [])].map(([email, m]) => ({
					email,
					...m,
				})),
			})),
			communities: [...this.communities.values()],
			events: [...this.events.values()].map((e) => ({
				...e,
				attendeeIds: [...(this.attendance.get(e.id)?.keys() ?? [])],
			})),
			bundles: [...this.bundles.values()],
			rules: Object.fromEntries(this.rules.entries()),
			webhooks: [...this.webhooks.values()].map((w) => ({
				...w,
				securityToken: maskSecret(w.securityToken),
			})),
			onboardingEmails: this.onboardingEmails,
			completions: [...this.completions],
		};
	}
}

/** The map kept under `key` in `outer`, made (empty) and kept there if there was none yet. */
function innerMap<K, IK, IV>(outer: Map<K, Map<IK, IV>>, key: K): Map<IK, IV> {
	let inner = outer.get(key);
	if (!inner) {
		inner = new Map();
		outer.set(key, inner);
	}
	return inner;
}

/**
 * A secret as the page and the state dump show it: at most an eighth of it at each end (so at
 * most a quarter in all, and never more than 4 + 3 characters), the rest as ****.
 */
export function maskSecret(secret: string): string {
	const shown = Math.floor(secret.length / 8);
	if (shown === 0) return '****';
	return `${secret.slice(0, Math.min(4, shown))}****${secret.slice(-Math.min(3, shown))}`;
}
