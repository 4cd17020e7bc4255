/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Whether a node's parameters still read every saved workflow the way they did: each parameter
 * of a saved description (the fixture) is found in the current one, by its name and the
 * conditions under which it is shown, with every one of its fields as saved. A list may grow
 * (a new parameter, a new option of a list, a new field of a collection) and nothing else may
 * change: what was there stays, in the same order, word for word.
 */
import { isDeepStrictEqual } from 'node:util';

type Json = Record<string, unknown>;

/** Deep equality of two JSON values, whichever realm made them (jest loads the fixture in its own). */
const same = (a: unknown, b: unknown): boolean =>
	isDeepStrictEqual(JSON.parse(JSON.stringify(a ?? null)), JSON.parse(JSON.stringify(b ?? null)));

/** A parameter's identity: its name and where it is shown (the same name is shown per operation). */
const keyOf = (parameter: Json): string =>
	`${String(parameter.name)} ${JSON.stringify(sortedKeys(parameter.displayOptions ?? null))}`;

/** A JSON value with every object's keys in order (conditions are the same in any order). */
const sortedKeys = (value: unknown): unknown =>
	Array.isArray(value)
		? value.map(sortedKeys)
		: value && typeof value === 'object'
			? Object.fromEntries(
					Object.keys(value)
						.sort()
						.map((key) => [key, sortedKeys((value as Json)[key])]),
				)
			: value;

/** What `saved` lost or changed in `current`, one line each (none: compatible). */
export function incompatibilities(saved: Json[], current: Json[], where = ''): string[] {
	const problems: string[] = [];
	const byKey = new Map(
		current.map((parameter, index) => [keyOf(parameter), { parameter, index }]),
	);
	let previous = -1;
	for (const old of saved) {
		const at = `${where}${keyOf(old)}`;
		const found = byKey.get(keyOf(old)) ?? shownWider(old, current);
		if (!found) {
			problems.push(`${at}: gone (renamed, removed or shown elsewhere)`);
			continue;
		}
		if (found.index < previous) problems.push(`${at}: moved before a parameter it followed`);
		previous = Math.max(previous, found.index);
		problems.push(...changedFields(old, found.parameter, at));
	}
	return problems;
}

/**
 * The same parameter shown now in more places (an operation added to its conditions): where it
 * was shown, it still is, so what was saved there means the same.
 */
function shownWider(old: Json, current: Json[]): { parameter: Json; index: number } | undefined {
	const show = (parameter: Json) =>
		(parameter.displayOptions as { show?: Record<string, unknown[]> } | undefined)?.show;
	const was = show(old);
	if (!was || Object.keys(old.displayOptions as Json).length !== 1) return undefined;
	const index = current.findIndex((parameter) => {
		const now = show(parameter);
		return (
			parameter.name === old.name &&
			now !== undefined &&
			Object.keys(parameter.displayOptions as Json).length === 1 &&
			same(Object.keys(now), Object.keys(was)) &&
			Object.entries(was).every(([field, values]) =>
				values.every((value) => now[field].some((v) => same(v, value))),
			)
		);
	});
	return index === -1 ? undefined : { parameter: current[index], index };
}

function changedFields(old: Json, now: Json, at: string): string[] {
	const problems: string[] = [];
	for (const [field, value] of Object.entries(old)) {
		if (field === 'displayOptions') continue; // part of the identity (or shown wider)
		if (field === 'options' && Array.isArray(value) && Array.isArray(now.options)) {
			problems.push(...changedOptions(old.type, value as Json[], now.options as Json[], at));
		} else if (!(field in now) || !same(value, now[field])) {
			problems.push(
				`${at}: ${field} was ${JSON.stringify(value)}, is ${JSON.stringify(now[field])}`,
			);
		}
	}
	for (const field of Object.keys(now)) {
		// A condition or constraint added to a saved parameter changes what it accepts.
		if (
			!(field in old) &&
			['displayOptions', 'required', 'typeOptions', 'noDataExpression'].includes(field)
		)
			problems.push(`${at}: ${field} added`);
	}
	return problems;
}

/** A list of options, the fields of a collection or the groups of a fixed collection: saved entries kept, in order. */
function changedOptions(type: unknown, saved: Json[], current: Json[], at: string): string[] {
	if (type === 'collection') return incompatibilities(saved, current, `${at} → `);
	const problems: string[] = [];
	const identity = (entry: Json) => String(type === 'fixedCollection' ? entry.name : entry.value);
	let previous = -1;
	for (const old of saved) {
		const index = current.findIndex((entry) => identity(entry) === identity(old));
		const name = `${at} → ${identity(old)}`;
		if (index === -1) {
			problems.push(`${name}: option gone`);
			continue;
		}
		if (index < previous) problems.push(`${name}: option moved before one it followed`);
		previous = Math.max(previous, index);
		if (type === 'fixedCollection') {
			const { values, ...group } = old;
			const { values: nowValues, ...nowGroup } = current[index];
			problems.push(...changedFields(group, nowGroup, name));
			problems.push(...incompatibilities(values as Json[], nowValues as Json[], `${name} → `));
		} else {
			problems.push(...changedFields(old, current[index], name));
		}
	}
	return problems;
}
