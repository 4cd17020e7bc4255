import type { IDataObject } from 'n8n-workflow';

import { formatApiDate } from './dates';
import type { LongInteger } from './json';
import { idText } from './json';
import type { Id } from './validation';

/**
 * Pure edits of a course's rule list. The platform replaces the whole list on
 * save and deletes every rule left out, so each edit returns a new list in
 * which every rule but the one it names is the very object that was read, and
 * the named rule keeps every field and association key it does not change.
 */

export interface Rule extends IDataObject {
	/** A number, or a long integer kept exact (see helpers/json.ts). */
	id?: number | string | LongInteger;
	name: string;
	type: 'PUBLIC' | 'PRIVATE' | string;
	startDateTime: string;
	endDateTime: string;
	restrictions: IDataObject;
	associations: { [key: string]: number[] | unknown };
}

export type RuleEdit =
	| { kind: 'addWorkgroup'; ruleName: string; workgroupId: number; defaults: NewRuleDefaults }
	| { kind: 'removeWorkgroup'; ruleName: string; workgroupId: number }
	| { kind: 'upsert'; ruleName: string; fields: RuleFields; defaults: NewRuleDefaults }
	| { kind: 'delete'; ruleName: string };

export interface RuleFields {
	type?: string;
	startDateTime?: string;
	endDateTime?: string;
	/** Replaces the rule's WORKGROUP association when given. */
	workgroupIds?: number[];
}

export interface NewRuleDefaults {
	type: string;
	startDateTime: string;
	endDateTime: string;
}

export interface EditOutcome {
	rules: Rule[];
	changed: boolean;
	/** The named rule after the edit; undefined when it does not exist (deleted or never there). */
	rule?: Rule;
	/** Whether the named rule existed before the edit. */
	existed: boolean;
}

export class RuleEditError extends Error {}

const PAYMENT_RULE_PREFIX = 'PAYMENT_INTEGRATION_COURSE_';

export function defaultRuleName(courseId: Id): string {
	return `${PAYMENT_RULE_PREFIX}${courseId}`;
}

/** Defaults of a rule created for external payment enrolment: PRIVATE, from now, for 50 years. */
export function paymentRuleDefaults(now = Date.now()): NewRuleDefaults {
	const start = new Date(now);
	const end = new Date(now);
	end.setUTCFullYear(end.getUTCFullYear() + 50);
	return {
		type: 'PRIVATE',
		startDateTime: formatApiDate(start.getTime()),
		endDateTime: formatApiDate(end.getTime()),
	};
}

function findRule(rules: Rule[], ruleName: string): number {
	const matches: number[] = [];
	rules.forEach((rule, index) => {
		if (rule && rule.name === ruleName) matches.push(index);
	});
	if (matches.length > 1) {
		throw new RuleEditError(
			`The course has ${matches.length} rules named "${ruleName}"; the node will not guess which one to change. Rename one in Knolyx.`,
		);
	}
	return matches.length === 1 ? matches[0] : -1;
}

/** The rule's WORKGROUP ids as read: numbers, or ids the platform gave as text or as long integers. */
function workgroupsOf(rule: Rule): unknown[] {
	const list = rule.associations?.WORKGROUP;
	return Array.isArray(list) ? (list as unknown[]) : [];
}

/** Whether a WORKGROUP entry names the workgroup: 7, "7" and " 7" are the same workgroup. */
function isWorkgroup(entry: unknown, workgroupId: number): boolean {
	return idText(entry) === String(workgroupId);
}

function newRule(ruleName: string, defaults: NewRuleDefaults, fields: RuleFields = {}): Rule {
	return {
		name: ruleName,
		type: fields.type ?? defaults.type,
		startDateTime: fields.startDateTime ?? defaults.startDateTime,
		endDateTime: fields.endDateTime ?? defaults.endDateTime,
		restrictions: { minimumTime: false, browseOrder: 'anyOrder' },
		associations: { WORKGROUP: fields.workgroupIds ?? [] },
	};
}

function replaceAt(rules: Rule[], index: number, rule: Rule): Rule[] {
	const next = rules.slice();
	next[index] = rule;
	return next;
}

function withWorkgroups(rule: Rule, workgroupIds: unknown[]): Rule {
	return { ...rule, associations: { ...(rule.associations ?? {}), WORKGROUP: workgroupIds } };
}

function sameIds(a: unknown[], b: number[]): boolean {
	return a.length === b.length && a.every((id, index) => idText(id) === String(b[index]));
}

/** Applies one edit. Never mutates `rules` or any rule in it. */
export function applyRuleEdit(rules: Rule[], edit: RuleEdit): EditOutcome {
	const index = findRule(rules, edit.ruleName);
	const existing = index >= 0 ? rules[index] : undefined;
	const existed = existing !== undefined;

	switch (edit.kind) {
		case 'addWorkgroup': {
			if (!existing) {
				const rule = newRule(edit.ruleName, edit.defaults, { workgroupIds: [edit.workgroupId] });
				return { rules: [...rules, rule], changed: true, rule, existed };
			}
			const current = workgroupsOf(existing);
			if (current.some((entry) => isWorkgroup(entry, edit.workgroupId)))
				return { rules, changed: false, rule: existing, existed };
			const rule = withWorkgroups(existing, [...current, edit.workgroupId]);
			return { rules: replaceAt(rules, index, rule), changed: true, rule, existed };
		}
		case 'removeWorkgroup': {
			if (!existing) return { rules, changed: false, existed };
			const current = workgroupsOf(existing);
			if (!current.some((entry) => isWorkgroup(entry, edit.workgroupId)))
				return { rules, changed: false, rule: existing, existed };
			const rule = withWorkgroups(
				existing,
				current.filter((entry) => !isWorkgroup(entry, edit.workgroupId)),
			);
			return { rules: replaceAt(rules, index, rule), changed: true, rule, existed };
		}
		case 'upsert': {
			if (!existing) {
				const rule = newRule(edit.ruleName, edit.defaults, edit.fields);
				return { rules: [...rules, rule], changed: true, rule, existed };
			}
			let rule: Rule = existing;
			const { type, startDateTime, endDateTime, workgroupIds } = edit.fields;
			const scalar = { type, startDateTime, endDateTime };
			for (const [key, value] of Object.entries(scalar)) {
				if (value !== undefined && rule[key] !== value) rule = { ...rule, [key]: value };
			}
			if (workgroupIds !== undefined && !sameIds(workgroupsOf(rule), workgroupIds)) {
				rule = withWorkgroups(rule, workgroupIds);
			}
			if (rule === existing) return { rules, changed: false, rule, existed };
			return { rules: replaceAt(rules, index, rule), changed: true, rule, existed };
		}
		case 'delete': {
			if (!existing) return { rules, changed: false, existed };
			return { rules: rules.filter((_, i) => i !== index), changed: true, existed };
		}
	}
}

/** Checks that a value read from the API is a rule list this node can edit safely. */
export function asRuleList(value: unknown): Rule[] {
	if (!Array.isArray(value))
		throw new RuleEditError('The platform did not answer with a rule list.');
	for (const rule of value) {
		if (!rule || typeof rule !== 'object' || typeof (rule as IDataObject).name !== 'string') {
			throw new RuleEditError(
				'The platform answered with a rule that has no name; the node will not edit this list.',
			);
		}
	}
	return value as Rule[];
}

/** JSON with the keys of every object sorted, so that key order does not count. */
function canonical(value: unknown): string {
	return JSON.stringify(value, (_key, entry: unknown) =>
		entry && typeof entry === 'object' && !Array.isArray(entry)
			? Object.fromEntries(
					Object.entries(entry as Record<string, unknown>).sort(([a], [b]) =>
						a < b ? -1 : a > b ? 1 : 0,
					),
				)
			: entry,
	);
}

/** Whether two values (rule lists, rules, fields) hold the same content, whatever their key order. */
export function sameContent(a: unknown, b: unknown): boolean {
	return canonical(a) === canonical(b);
}

/** A rule as saved compared with one as sent: the platform adds an id to a new rule, and `action`. */
function asSent(read: Rule, sent: Rule): Rule {
	const copy: Rule = { ...read };
	if (sent.id === undefined) delete copy.id;
	if (sent.action === undefined) delete copy.action;
	return copy;
}

/** Whether the list read holds the list sent (in order, as the platform saves it). */
export function holdsList(read: Rule[], sent: Rule[]): boolean {
	return (
		read.length === sent.length &&
		sameContent(
			read.map((rule, i) => asSent(rule, sent[i])),
			sent,
		)
	);
}
