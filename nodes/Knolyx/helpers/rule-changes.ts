import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { idText, isLongInteger, plainCopy, readJsonParameter, stringifyLossless } from './json';
import type { Rule } from './rules';
import { asRuleList, sameContent } from './rules';
import type { Id } from './validation';
import { parseLongId } from './validation';

/**
 * A change of a course's rule list: the difference a person reads (per rule added, removed or
 * changed, and who gains or loses the course) and the change itself, exactly, as text.
 */

/** One field of a rule that differs; `old` or `new` is absent where the field is. */
export interface FieldChange extends IDataObject {
	field: string;
}

export interface RuleChange extends IDataObject {
	rule: string;
	change: 'added' | 'removed' | 'changed';
}

/** A workgroup, user, department, job, or everyone (a PUBLIC rule), that gains or loses the course. */
export interface AccessChange extends IDataObject {
	association: string;
	courseId: Id;
	access: 'gains' | 'loses';
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value) && !isLongInteger(value);

/** The rules of two lists that are the same rule: by id, else by name; then the ones on one side. */
function pairRules(before: Rule[], after: Rule[]): Array<[Rule | undefined, Rule | undefined]> {
	const unused = new Set(before);
	const pairs: Array<[Rule | undefined, Rule | undefined]> = [];
	for (const rule of after) {
		const byId =
			rule.id === undefined
				? undefined
				: before.find(
						(old) => unused.has(old) && old.id !== undefined && idText(old.id) === idText(rule.id),
					);
		const match = byId ?? before.find((old) => unused.has(old) && old.name === rule.name);
		if (match) unused.delete(match);
		pairs.push([match, rule]);
	}
	for (const rule of before) if (unused.has(rule)) pairs.push([rule, undefined]);
	return pairs;
}

function fieldChanges(
	old: Record<string, unknown>,
	now: Record<string, unknown>,
	prefix = '',
): FieldChange[] {
	const keys = [...new Set([...Object.keys(old), ...Object.keys(now)])];
	return keys.flatMap((key): FieldChange[] => {
		const [a, b] = [old[key], now[key]];
		if (sameContent(a, b)) return [];
		if (isPlainObject(a) && isPlainObject(b)) return fieldChanges(a, b, `${prefix}${key}.`);
		const change: FieldChange = { field: `${prefix}${key}` };
		if (a !== undefined) change.old = plainCopy(a) as IDataObject;
		if (b !== undefined) change.new = plainCopy(b) as IDataObject;
		return [change];
	});
}

/** Per rule: added, removed, or changed with the fields that differ. Rules alike are left out. */
export function ruleChanges(before: Rule[], after: Rule[]): RuleChange[] {
	return pairRules(before, after).flatMap(([old, now]): RuleChange[] => {
		if (!old) return [{ rule: (now as Rule).name, change: 'added' }];
		if (!now) return [{ rule: old.name, change: 'removed' }];
		const fields = fieldChanges(old, now);
		return fields.length ? [{ rule: now.name, change: 'changed', fields }] : [];
	});
}

const EVERYONE = 'EVERYONE';

/** Who a list of rules names, whatever each rule's period: "WORKGROUP 7", and EVERYONE for a PUBLIC rule. */
function whoHasAccess(rules: Rule[]): Map<string, { association: string; id?: string }> {
	const who = new Map<string, { association: string; id?: string }>();
	for (const rule of rules) {
		if (rule.type === 'PUBLIC') who.set(EVERYONE, { association: EVERYONE });
		for (const [association, ids] of Object.entries(rule.associations ?? {})) {
			if (!Array.isArray(ids)) continue;
			for (const entry of ids) {
				const id = idText(entry);
				who.set(`${association} ${id}`, { association, id });
			}
		}
	}
	return who;
}

/** Who gains and who loses the course between the two lists. */
export function accessChanges(courseId: Id, before: Rule[], after: Rule[]): AccessChange[] {
	const had = whoHasAccess(before);
	const has = whoHasAccess(after);
	const changes: AccessChange[] = [];
	for (const [key, who] of new Map([...had, ...has])) {
		const access = had.has(key) ? (has.has(key) ? undefined : 'loses') : 'gains';
		if (access) changes.push({ ...who, courseId, access });
	}
	return changes;
}

/** How long a value may be in a sentence of the summary. */
const VALUE_SHOWN = 120;

function valueText(value: unknown): string {
	if (value === undefined) return '(none)';
	const text = JSON.stringify(value) ?? String(value);
	return text.length > VALUE_SHOWN ? `${text.slice(0, VALUE_SHOWN)}…` : text;
}

/** How many sentences of one kind a summary or a message shows; the arrays hold every change. */
export const SENTENCES_SHOWN = 20;

/** The sentences, the ones past SENTENCES_SHOWN counted as "… and N more <what>." */
function sentences(list: string[], what: string): string[] {
	if (list.length <= SENTENCES_SHOWN) return list;
	return [
		...list.slice(0, SENTENCES_SHOWN),
		`… and ${list.length - SENTENCES_SHOWN} more ${what}.`,
	];
}

/** The rule changes as sentences: 'Rule "Access" changed: type "PRIVATE" → "PUBLIC".' */
export function describeRuleChanges(changes: RuleChange[]): string {
	if (changes.length === 0) return 'No rule changes.';
	const each = changes.map(({ rule, change, fields }) => {
		if (change !== 'changed') return `Rule "${rule}" ${change}.`;
		const list = (fields as FieldChange[])
			.map((field) => `${field.field} ${valueText(field.old)} → ${valueText(field.new)}`)
			.join(', ');
		return `Rule "${rule}" changed: ${list}.`;
	});
	return sentences(each, 'rule changes').join(' ');
}

/**
 * Names for the sentences of a difference (a preview's): the course's title, and per
 * "WORKGROUP 7" the workgroup's name; and why a name could not be read.
 */
export interface Naming {
	course?: string;
	who: Map<string, string>;
	notRead: string[];
}

const quoted = (name: string) => JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);

/** The whole difference as sentences, for a glance in n8n's table view (or an approval form). */
export function describeDifference(
	rules: RuleChange[],
	access: AccessChange[],
	naming?: Naming,
): string {
	const who = access.map(({ association, id, courseId, access: gainsOrLoses }) => {
		const named = naming?.who.get(`${association} ${id}`);
		const name =
			association === EVERYONE
				? 'Everyone on the platform'
				: named !== undefined
					? `${association.charAt(0)}${association.slice(1).toLowerCase()} ${quoted(named)} (${id})`
					: `${association} ${id}`;
		const course =
			naming?.course !== undefined ? `${quoted(naming.course)} (${courseId})` : `${courseId}`;
		return `${name} ${gainsOrLoses} course ${course}.`;
	});
	return [describeRuleChanges(rules), ...sentences(who, 'access changes')].join(' ');
}

// ---------------------------------------------------------------------------------------------
// A change of a course's list, exactly (long ids as the digits they were read as): what a rule
// write outputs as `change`, what Restore puts back and what applying a preview saves. It names
// the platform and project it was made on (`tenant`) and carries a check of its content, so that
// a change applied with another tenant's credential, edited (its courseId), or whose long ids were
// rounded (passed through JSON.parse) is refused before anything is sent.

export interface RuleListChange {
	courseId: Id;
	/** The operation that made (or previewed) it: "addWorkgroup", "replaceAll", "restore"… */
	operation: string;
	/** The platform and project of the credential it was made with ("<base URL>|<project id>"). */
	tenant: string;
	/** The course's list before the change, as read. */
	before: Rule[];
	/** The list the change left (a save: as read back), or would leave (a preview: as it would be sent). */
	after: Rule[];
}

/** A copy with the keys of every object sorted (long integers kept as they are). */
function sortedKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortedKeys);
	if (!isPlainObject(value)) return value;
	return Object.fromEntries(
		Object.keys(value)
			.sort()
			.map((key) => [key, sortedKeys(value[key])]),
	);
}

/** The check of a change: SHA-256 of its content, exactly (long ids as their digits), key order aside. */
function checkOf({ courseId, operation, tenant, before, after }: RuleListChange): string {
	const content = stringifyLossless(sortedKeys({ courseId, operation, tenant, before, after }));
	return createHash('sha256').update(content).digest('hex');
}

/** The change as JSON text that keeps every value exactly, with its check. */
export function changeText(change: RuleListChange): string {
	const { courseId, operation, tenant, before, after } = change;
	return stringifyLossless({
		courseId,
		operation,
		tenant,
		before,
		after,
		check: checkOf(change),
	});
}

/** The first number in `value` that is an integer a JavaScript number does not hold exactly. */
function inexactNumber(value: unknown): number | undefined {
	const pending: unknown[] = [value];
	while (pending.length > 0) {
		const current = pending.pop();
		if (typeof current === 'number' && Number.isInteger(current) && !Number.isSafeInteger(current))
			return current;
		if (typeof current === 'object' && current !== null && !isLongInteger(current))
			pending.push(...Object.values(current));
	}
	return undefined;
}

const AS_GIVEN = "Give the output item's change as it is, e.g. {{ $json.change }}.";

/**
 * A change read back from its text (or from the value an expression gave), its check verified;
 * else what is wrong with it. Whether it belongs to the credential's tenant is the caller's to
 * check (tenantProblem), which needs the credential.
 */
export function readChange(value: unknown): RuleListChange | { problem: string } {
	const read = readJsonParameter(value);
	if (!read.ok) return { problem: read.problem };
	const change = read.value as (Partial<RuleListChange> & { check?: unknown }) | null;
	const problem = {
		problem:
			'is not the "change" of an output item of a Course Access Rule write (it holds courseId, operation, tenant, before, after and check)',
	};
	if (!isPlainObject(change)) return problem;
	const { courseId, operation, tenant, before, after, check } = change;
	const inexact = inexactNumber([courseId, before, after]);
	if (inexact !== undefined)
		return {
			problem: `holds ${inexact}, a number beyond 2^53: its ids are not exact (JSON.parse rounds long ids). ${AS_GIVEN}`,
		};
	// An id as the nodes output it: a number up to 2^53 - 1, its digits above (docs/api.md "Ids").
	const id = parseLongId(courseId);
	if (
		id === undefined ||
		id !== courseId ||
		typeof operation !== 'string' ||
		typeof tenant !== 'string' ||
		typeof check !== 'string'
	)
		return problem;
	let exact: RuleListChange;
	try {
		exact = {
			courseId: id,
			operation,
			tenant,
			before: asRuleList(before),
			after: asRuleList(after),
		};
	} catch {
		return problem;
	}
	if (checkOf(exact) !== check)
		return {
			problem: `does not match its check: it was changed after the write that made it (its courseId, tenant or lists, or ids rounded). ${AS_GIVEN}`,
		};
	return exact;
}

/** A tenant as a person reads it: 'project "p" at https://…'. */
function tenantText(tenant: string): string {
	const bar = tenant.lastIndexOf('|');
	return `project "${tenant.slice(bar + 1)}" at ${tenant.slice(0, bar)}`;
}

/** Why a change made on `tenant` may not be used with a credential of `scope`, or undefined. */
export function tenantProblem(tenant: string, scope: string): string | undefined {
	if (tenant === scope) return undefined;
	return `is a change of ${tenantText(tenant)}, not of this credential's ${tenantText(scope)}`;
}
