import type { KnolyxClient } from '../../transport';
import { asNodeError, getCourse, listWorkgroups } from '../../transport';
import { idText } from '../../helpers/json';
import type { AccessChange, Naming } from '../../helpers/rule-changes';
import type { Id } from '../../helpers/validation';

/**
 * Names for a preview's summary, so that a person approving it reads "Workgroup "Staff" (202)
 * gains course "Intro to n8n" (101)" rather than ids alone: the course's title (COURSE_GET) and
 * the workgroups' names (WORKGROUP_LIST), read once per run, whatever the number of items. A
 * name that cannot be read (a key without the permission: 403, a workgroup the list lacks, a
 * user: the API reads no user by id) leaves the id, and `namesNotRead` says why. The preview
 * itself needs only BUSINESS_RULE_MANAGE: these reads never make it fail.
 */

interface RunNames {
	workgroups?: Promise<Map<string, string> | { problem: string }>;
	courses: Map<Id, Promise<string | { problem: string }>>;
}

/** One cache per run (a run's client lives as long as the run). */
const runs = new WeakMap<KnolyxClient, RunNames>();

function namesOfRun(client: KnolyxClient): RunNames {
	let names = runs.get(client);
	if (!names) {
		names = { courses: new Map() };
		runs.set(client, names);
	}
	return names;
}

const problemOf = (client: KnolyxClient, error: unknown, itemIndex: number) => ({
	problem: asNodeError(client.node, error, itemIndex).message,
});

async function readWorkgroups(
	client: KnolyxClient,
	itemIndex: number,
): Promise<Map<string, string> | { problem: string }> {
	try {
		const list = await listWorkgroups(client, { returnAll: true, itemIndex });
		const byId = new Map<string, string>();
		for (const workgroup of list)
			if (typeof workgroup.name === 'string') byId.set(idText(workgroup.id), workgroup.name);
		return byId;
	} catch (error) {
		return problemOf(client, error, itemIndex);
	}
}

async function readTitle(
	client: KnolyxClient,
	courseId: Id,
	itemIndex: number,
): Promise<string | { problem: string }> {
	try {
		const { body } = await getCourse(client, courseId, itemIndex);
		const title = body?.title;
		return typeof title === 'string' && title.trim() !== ''
			? title
			: { problem: 'the course as read has no title' };
	} catch (error) {
		return problemOf(client, error, itemIndex);
	}
}

/** The names of the course and of whoever gains or loses it in `access`, with why any is missing. */
export async function namingOf(
	client: KnolyxClient,
	courseId: Id,
	access: AccessChange[],
	itemIndex: number,
): Promise<Naming> {
	const run = namesOfRun(client);
	const notRead: string[] = [];
	if (!run.courses.has(courseId)) run.courses.set(courseId, readTitle(client, courseId, itemIndex));
	const title = await (run.courses.get(courseId) as Promise<string | { problem: string }>);
	if (typeof title !== 'string') notRead.push(`course ${courseId}: ${title.problem}`);
	const who = new Map<string, string>();
	const workgroupIds = access.filter((a) => a.association === 'WORKGROUP').map((a) => String(a.id));
	if (workgroupIds.length > 0) {
		run.workgroups ??= readWorkgroups(client, itemIndex);
		const workgroups = await run.workgroups;
		if (workgroups instanceof Map) {
			const missing = workgroupIds.filter((id) => !workgroups.has(id));
			for (const id of workgroupIds)
				if (workgroups.has(id)) who.set(`WORKGROUP ${id}`, workgroups.get(id) as string);
			if (missing.length > 0)
				notRead.push(`workgroup ${missing.join(', ')}: not in the platform's workgroup list`);
		} else notRead.push(`workgroup names: ${workgroups.problem}`);
	}
	const unnamed = [
		...new Set(
			access
				.map((a) => a.association)
				.filter((association) => association !== 'WORKGROUP' && association !== 'EVERYONE'),
		),
	];
	for (const association of unnamed)
		notRead.push(
			`${association} ids: the Knolyx API has no read of a ${association.toLowerCase()} by id`,
		);
	return { course: typeof title === 'string' ? title : undefined, who, notRead };
}
