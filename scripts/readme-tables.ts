/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The README's tables that list the Knolyx node's operations, written from the operations' own
 * declarations (each `actions/<resource>/<operation>.operation.ts`) between markers:
 * - `operations`: one row per operation (`readme.does`; `readme.sameRowAs` joins a row), its
 *   permissions from the option's "Needs …";
 * - `permissions`: one row per permission an operation's option names, with the operations that
 *   need it and the other parts of the package that do (`ALSO_NEEDED_BY`, below);
 * - `agents`: one row per set of effects (`agent.effects`, actions/effects.ts).
 *
 *   npm run docs:tables            writes them into README.md
 *   test/description/readme-tables.test.ts fails when README.md is not what this writes
 *
 * Rows follow the node's lists as the editor shows them: resources, then operations, by name.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Effect } from '../nodes/Knolyx/actions/effects';
import { EFFECTS } from '../nodes/Knolyx/actions/effects';
import { resources } from '../nodes/Knolyx/actions/operations';
import type { KnolyxOperation } from '../nodes/Knolyx/actions/types';

export const README = join(__dirname, '..', 'README.md');

const byName = (a: string, b: string) => a.localeCompare(b);

/** Every resource with its operations ([value, operation]), each sorted by name. */
function editorOrder(): Array<{
	name: string;
	operations: Array<[string, KnolyxOperation<unknown>]>;
	defined: Record<string, KnolyxOperation<unknown>>;
}> {
	return Object.values(resources)
		.sort((a, b) => byName(a.name, b.name))
		.map(({ name, operations }) => ({
			name,
			defined: operations,
			operations: Object.entries(operations).sort(([, a], [, b]) =>
				byName(a.option.name, b.option.name),
			),
		}));
}

/** The permissions an operation's option names ("Needs USER_PROVISION and …"). */
const permissionsOf = (operation: KnolyxOperation<unknown>): string[] =>
	operation.option.description.match(/\b[A-Z]+(?:_[A-Z]+)+\b/g) ?? [];

export function operationsTable(): string[] {
	const rows = ['| Resource | Operation | What it does | Permission |', '|---|---|---|---|'];
	for (const { name, operations, defined } of editorOrder()) {
		// A shared row lists its operations as the resource declares them.
		const all = new Map(Object.entries(defined));
		for (const [value, operation] of operations) {
			const { readme } = operation;
			if (!('does' in readme)) {
				if (!all.has(readme.sameRowAs))
					throw new Error(`${name} → ${value}: sameRowAs names no operation of ${name}`);
				continue;
			}
			const members = [
				[value, operation] as const,
				...[...all].filter(([, o]) => 'sameRowAs' in o.readme && o.readme.sameRowAs === value),
			];
			const label =
				members.length === 1
					? `${operation.option.name} (\`${value}\`)`
					: members.map(([, o]) => o.option.name).join(' / ');
			const permissions = [...new Set(members.flatMap(([, o]) => permissionsOf(o)))];
			rows.push(`| ${name} | ${label} | ${readme.does} | ${permissions.join(', ') || 'none'} |`);
		}
	}
	return rows;
}

/**
 * Who else needs a permission: the parts of the package that are not operations of the Knolyx
 * node (its pickers, the triggers, the credential test), in the table's words.
 */
export const ALSO_NEEDED_BY: Record<string, string[]> = {
	WORKGROUP_LIST: ["the Workgroup picker's list"],
	COURSE_LIST: ["the Course picker's list", 'Poll Trigger *New Course*'],
	EVENT_READ: ["the Event picker's list", 'Poll Trigger *New Attendee* and *New Event*'],
	WEBHOOK_MANAGE: ['the Knolyx Trigger'],
	none: ['the credential test (API Key → Get lists the permissions the key has)'],
};

export function permissionsTable(): string[] {
	const users = new Map<string, Map<string, string[]>>();
	const order = editorOrder();
	for (const { name, operations } of order) {
		for (const [, operation] of operations) {
			for (const permission of permissionsOf(operation).concat(
				permissionsOf(operation).length ? [] : ['none'],
			)) {
				const byResource = users.get(permission) ?? new Map<string, string[]>();
				users.set(permission, byResource);
				byResource.set(name, [...(byResource.get(name) ?? []), operation.option.name]);
			}
		}
	}
	const count = new Map(order.map(({ name, operations }) => [name, operations.length]));
	const rows = [...users].sort(([a], [b]) => Number(a === 'none') - Number(b === 'none'));
	return [
		'| Permission | Needed by |',
		'|---|---|',
		...rows.map(([permission, byResource]) => {
			const operations = [...byResource].map(([resource, names]) =>
				names.length === count.get(resource) && names.length > 1
					? `every ${resource} operation`
					: `${resource} → ${names.join(', ')}`,
			);
			const also = ALSO_NEEDED_BY[permission] ?? [];
			return `| ${permission} | ${[operations.join('; '), ...also].join(', ')} |`;
		}),
	];
}

/** An operation's effects as the table lists them: those that need consent first, each in the order of EFFECTS. */
export const tableEffects = (operation: KnolyxOperation<unknown>): Effect[] =>
	(Object.keys(EFFECTS) as Effect[])
		.filter((e) => (operation.agent.effects as readonly Effect[]).includes(e))
		.sort((a, b) => Number(!EFFECTS[a].consent) - Number(!EFFECTS[b].consent));

export const labelsOf = (effects: Effect[]): string =>
	effects.map((e) => EFFECTS[e].label).join(', ');

/** The switches' names, in italics, of the effects that need one. */
export const switchesOf = (effects: Effect[]): string[] =>
	effects.flatMap((e) => {
		const consent = EFFECTS[e].consent as { displayName: string } | null;
		return consent ? [`*${consent.displayName}*`] : [];
	});

/** The AI agents table: one row per set of effects, the unattended ones first. */
export function agentsTable(): string[] {
	const rows = new Map<string, { effects: Effect[]; operations: Map<string, string[]> }>();
	for (const { name, operations } of editorOrder()) {
		for (const [, operation] of operations) {
			const effects = tableEffects(operation);
			const key = effects.join(',');
			const row = rows.get(key) ?? { effects, operations: new Map() };
			rows.set(key, row);
			row.operations.set(name, [...(row.operations.get(name) ?? []), operation.option.name]);
		}
	}
	return [
		'| Operations | What they can do | Switches an agent needs |',
		'|---|---|---|',
		...[...rows.values()]
			.sort((a, b) => switchesOf(a.effects).length - switchesOf(b.effects).length)
			.map(({ effects, operations }) => {
				const names = [...operations].map(([r, ops]) => `${r} → ${ops.join(', ')}`).join('; ');
				const switches = switchesOf(effects);
				return `| ${names} | ${labelsOf(effects)} | ${switches.length ? switches.join(' and ') : 'none (runs unattended)'} |`;
			}),
	];
}

export const TABLES: Record<string, () => string[]> = {
	operations: operationsTable,
	permissions: permissionsTable,
	agents: agentsTable,
};

/** `text` with each table written between `<!-- name:start -->` and `<!-- name:end -->`. */
export function withTables(text: string): string {
	let result = text;
	for (const [name, table] of Object.entries(TABLES)) {
		const start = `<!-- ${name}:start -->`;
		const end = `<!-- ${name}:end -->`;
		const from = result.indexOf(start);
		const to = result.indexOf(end);
		if (from === -1 || to < from) throw new Error(`README.md has no ${start} … ${end}`);
		result = `${result.slice(0, from + start.length)}\n${table().join('\n')}\n${result.slice(to)}`;
	}
	return result;
}

if (require.main === module) {
	const text = readFileSync(README, 'utf8');
	const written = withTables(text);
	if (written !== text) writeFileSync(README, written);
	process.stdout.write(
		written === text ? 'README.md tables are up to date\n' : 'README.md tables written\n',
	);
}
