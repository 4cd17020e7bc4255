/** Demo data, the DEMO credentials, custom seeding (POST /sandbox/seed) and the bulk generator. */
import { badRequest } from './errors';
import { seedRules } from './rules';
import type { SandboxState } from './state';
import { GENDERS, PERMISSIONS, type Gender, type Permission, type SeedName } from './types';
import { formatDateTime, isObject } from './validation';

export const DEMO = {
	projectId: 'demo-project',
	/** All permissions. */
	apiKey: 'demo-api-key',
	/** Only COURSE_LIST, COURSE_GET, WORKGROUP_LIST. */
	readOnlyApiKey: 'demo-readonly-key',
	/** No permission at all (GET /key still works). */
	noPermissionApiKey: 'demo-no-permission-key',
} as const;

export const READ_ONLY_PERMISSIONS: Permission[] = ['COURSE_LIST', 'COURSE_GET', 'WORKGROUP_LIST'];

/** Key that has every permission except `permission`, e.g. "demo-key-without-workgroup_add_member". */
export function demoKeyWithout(permission: Permission): string {
	return `demo-key-without-${permission.toLowerCase()}`;
}

/** The DEMO keys exist in both seeds ('empty' means no business data, not no credentials). */
function seedKeys(state: SandboxState): void {
	state.addApiKey({
		apiKey: DEMO.apiKey,
		projectId: DEMO.projectId,
		permissions: [...PERMISSIONS],
	});
	state.addApiKey({
		apiKey: DEMO.readOnlyApiKey,
		projectId: DEMO.projectId,
		permissions: [...READ_ONLY_PERMISSIONS],
	});
	state.addApiKey({ apiKey: DEMO.noPermissionApiKey, projectId: DEMO.projectId, permissions: [] });
	for (const p of PERMISSIONS) {
		state.addApiKey({
			apiKey: demoKeyWithout(p),
			projectId: DEMO.projectId,
			permissions: PERMISSIONS.filter((q) => q !== p),
		});
	}
}

export interface DemoIds {
	courses: Record<string, number>;
	workgroups: Record<string, number>;
	communityId: number;
	eventId: number;
	users: Record<string, number>;
	bundleId: number;
	ruleId: number;
}

/** Empties the state and loads a seed; returns the demo ids (undefined for 'empty'). */
export function applySeed(state: SandboxState, seed: SeedName): DemoIds | undefined {
	state.reset();
	seedKeys(state);
	return seed === 'demo' ? seedDemo(state) : undefined;
}

function seedDemo(state: SandboxState): DemoIds {
	const titles = ['Intro to n8n', 'Advanced Automation', 'Data Literacy'];
	const courses = titles.map((title) => state.addCourse({ title }));
	const workgroups = [...titles, 'Community Members'].map((name) => state.addWorkgroup({ name }));
	const communityMembers = workgroups[3];
	const community = state.addCommunity({
		name: 'Knolyx Community',
		workgroupIds: [communityMembers.id],
	});
	const event = state.addEvent({ communityId: community.id, title: 'Monthly Automation Meetup' });
	const ada = state.addUser({
		firstName: 'Ada',
		lastName: 'Lovelace',
		email: 'ada@example.com',
		gender: 'FEMALE',
	});
	const alan = state.addUser({
		firstName: 'Alan',
		lastName: 'Turing',
		email: 'alan@example.com',
		gender: 'MALE',
	});
	state.setMembership(communityMembers.id, ada, null);
	const bundle = state.addBundle({ name: 'Automation Starter Pack' });
	const now = new Date();
	const [rule] = seedRules(state, courses[0].id, [
		{
			name: 'Staff early access',
			type: 'PRIVATE',
			startDateTime: formatDateTime(new Date(Date.UTC(now.getUTCFullYear(), 0, 1))),
			endDateTime: formatDateTime(new Date(Date.UTC(now.getUTCFullYear() + 50, 0, 1))),
			restrictions: { minimumTime: false, browseOrder: 'anyOrder' },
			associations: { USER: [alan.id], WORKGROUP: [] },
			action: 'STUDENTS',
			diplomaTemplateId: 7,
		},
	]);
	return {
		courses: Object.fromEntries(courses.map((c) => [c.title, c.id])),
		workgroups: Object.fromEntries(workgroups.map((w) => [w.name, w.id])),
		communityId: community.id,
		eventId: event.id,
		users: { [ada.email]: ada.id, [alan.email]: alan.id },
		bundleId: bundle.id,
		ruleId: rule.id as number,
	};
}

export interface SeedSpec {
	courses?: { title: string; description?: string }[];
	workgroups?: { name: string }[];
	bundles?: { name: string; slug?: string }[];
	users?: { firstName: string; lastName: string; email: string; gender?: Gender }[];
	/** workgroupNames are looked up among all workgroups (including those created by this call). */
	communities?: { name: string; workgroupIds?: number[]; workgroupNames?: string[] }[];
	/** communityName is looked up like workgroupNames. */
	events?: {
		communityId?: number;
		communityName?: string;
		title: string;
		startDateTime?: string;
		endDateTime?: string;
	}[];
	members?: { workgroupId: number; email: string; removalDate?: string | null }[];
	attendance?: { eventId: number; userId: number }[];
	/** courseId → rules appended as given (ids assigned when absent, no validation). */
	rules?: Record<string, Record<string, unknown>[]>;
	apiKeys?: { apiKey: string; projectId?: string; permissions: Permission[] }[];
	/** Bulk generator: counts of generated entities (events go to the first community, created if none). */
	generate?: { courses?: number; workgroups?: number; users?: number; events?: number };
}

export interface GeneratedRange {
	count: number;
	firstId: number | null;
	lastId: number | null;
}

export interface SeedResult {
	courses: number[];
	workgroups: number[];
	bundles: number[];
	users: number[];
	communities: number[];
	events: number[];
	rules: Record<string, number[]>;
	generated: Record<string, GeneratedRange>;
}

const MAX_GENERATED = 200_000;

function list<T>(value: T[] | undefined, field: string): T[] {
	if (value === undefined) return [];
	if (!Array.isArray(value)) throw badRequest(`${field} must be an array`);
	return value;
}

function byName<T extends { name: string }>(map: Map<number, T>, name: string, what: string): T {
	for (const item of map.values()) if (item.name === name) return item;
	throw badRequest(`${what} named "${name}" not found`);
}

/** Adds data on top of the current state. Throws ApiError(400) on a bad reference. */
export function applySeedSpec(state: SandboxState, spec: SeedSpec): SeedResult {
	if (!isObject(spec as unknown)) throw badRequest('Seed body must be a JSON object');
	const result: SeedResult = {
		courses: [],
		workgroups: [],
		bundles: [],
		users: [],
		communities: [],
		events: [],
		rules: {},
		generated: {},
	};
	for (const k of list(spec.apiKeys, 'apiKeys')) {
		const bad = k.permissions.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
		if (bad.length) throw badRequest(`apiKeys: unknown permission ${bad.join(', ')}`);
		state.addApiKey({
			apiKey: k.apiKey,
			projectId: k.projectId ?? DEMO.projectId,
			permissions: [...k.permissions],
		});
	}
	result.courses = list(spec.courses, 'courses').map((c) => state.addCourse(c).id);
	result.workgroups = list(spec.workgroups, 'workgroups').map((w) => state.addWorkgroup(w).id);
	result.bundles = list(spec.bundles, 'bundles').map((b) => state.addBundle(b).id);
	result.users = list(spec.users, 'users').map((u) => {
		if (state.findUserByEmail(u.email)) throw badRequest(`users: ${u.email} already exists`);
		if (u.gender !== undefined && !GENDERS.includes(u.gender))
			throw badRequest(`users: gender of ${u.email} must be one of ${GENDERS.join(', ')}`);
		return state.addUser(u).id;
	});
	result.communities = list(spec.communities, 'communities').map((c) => {
		const named = (c.workgroupNames ?? []).map((n) => byName(state.workgroups, n, 'Workgroup').id);
		return state.addCommunity({ name: c.name, workgroupIds: [...(c.workgroupIds ?? []), ...named] })
			.id;
	});
	result.events = list(spec.events, 'events').map((e) => {
		const communityId =
			e.communityName !== undefined
				? byName(state.communities, e.communityName, 'Community').id
				: e.communityId;
		if (communityId === undefined || !state.communities.has(communityId))
			throw badRequest(`events: community of "${e.title}" not found`);
		return state.addEvent({ ...e, communityId }).id;
	});
	for (const m of list(spec.members, 'members')) {
		const user = state.findUserByEmail(m.email);
		if (!user || !state.workgroups.has(m.workgroupId))
			throw badRequest(`members: workgroup ${m.workgroupId} or user ${m.email} not found`);
		state.setMembership(m.workgroupId, user, m.removalDate ?? null);
	}
	for (const a of list(spec.attendance, 'attendance')) {
		if (!state.events.has(a.eventId) || !state.users.has(a.userId))
			throw badRequest(`attendance: event ${a.eventId} or user ${a.userId} not found`);
		state.attendeesOf(a.eventId).set(a.userId, new Date().toISOString());
	}
	for (const [courseKey, rules] of Object.entries(spec.rules ?? {})) {
		const courseId = Number(courseKey);
		if (!state.courses.has(courseId)) throw badRequest(`rules: course ${courseKey} not found`);
		result.rules[courseKey] = seedRules(state, courseId, list(rules, `rules.${courseKey}`)).map(
			(r) => r.id as number,
		);
	}
	if (spec.generate) result.generated = generate(state, spec.generate);
	return result;
}

function generate(
	state: SandboxState,
	counts: NonNullable<SeedSpec['generate']>,
): Record<string, GeneratedRange> {
	const run = (
		kind: string,
		n: number | undefined,
		make: (i: number) => number,
	): GeneratedRange | undefined => {
		if (n === undefined) return undefined;
		if (!Number.isInteger(n) || n < 0 || n > MAX_GENERATED)
			throw badRequest(`generate.${kind} must be an integer between 0 and ${MAX_GENERATED}`);
		const ids = Array.from({ length: n }, (_, i) => make(i + 1));
		return { count: n, firstId: ids[0] ?? null, lastId: ids[ids.length - 1] ?? null };
	};
	const pad = (i: number) => String(i).padStart(6, '0');
	const out: Record<string, GeneratedRange | undefined> = {
		courses: run(
			'courses',
			counts.courses,
			(i) => state.addCourse({ title: `Generated Course ${pad(i)}` }).id,
		),
		workgroups: run(
			'workgroups',
			counts.workgroups,
			(i) => state.addWorkgroup({ name: `Generated Workgroup ${pad(i)}` }).id,
		),
		// Users are never deleted, so users.size + 1 gives a fresh, deterministic e-mail.
		users: run(
			'users',
			counts.users,
			(i) =>
				state.addUser({
					firstName: 'Generated',
					lastName: `User ${pad(i)}`,
					email: `user${state.users.size + 1}@generated.example`,
				}).id,
		),
		events: run('events', counts.events, (i) => {
			const community =
				state.communities.values().next().value ??
				state.addCommunity({ name: 'Generated Community' });
			return state.addEvent({ communityId: community.id, title: `Generated Event ${pad(i)}` }).id;
		}),
	};
	return Object.fromEntries(
		Object.entries(out).filter((e): e is [string, GeneratedRange] => e[1] !== undefined),
	);
}
