/**
 * Course access rules: validation and the save semantics of POST /business-rule/course/{id}
 * (id present → replaced as sent, no id → created, absent → deleted; all or nothing).
 */
import { badRequest } from './errors';
import type { SandboxState } from './state';
import type { Rule, RuleId } from './types';
import { canonical, isObject, requireDateTime } from './validation';

const RULE_TYPES = ['PUBLIC', 'PRIVATE'];

/** An integer id: a number, a long (BigInt, see bigjson.ts) or, in associations, its digits as text. */
function isIntegerId(id: unknown, textAllowed = false): boolean {
	if (typeof id === 'bigint') return true;
	if (typeof id === 'number') return Number.isInteger(id);
	return textAllowed && typeof id === 'string' && /^\d+$/.test(id);
}

/** Checks one posted rule; `at` names it in messages, e.g. "rules[2].name". */
function validateRule(value: unknown, at: string, ownIds: Set<RuleId>): Record<string, unknown> {
	if (!isObject(value)) throw badRequest(`${at} must be a JSON object`);
	if (value.id !== undefined && value.id !== null) {
		if (!isIntegerId(value.id)) throw badRequest(`${at}.id must be an integer`);
		if (!ownIds.has(value.id as RuleId))
			throw badRequest(`${at}.id ${String(value.id)} is not a rule of this course`);
	}
	if (typeof value.name !== 'string' || value.name.trim() === '')
		throw badRequest(`${at}.name is required and must be a non-empty string`);
	if (typeof value.type !== 'string' || !RULE_TYPES.includes(value.type))
		throw badRequest(`${at}.type must be one of PUBLIC, PRIVATE`);
	const start = requireDateTime(value.startDateTime, `${at}.startDateTime`);
	const end = requireDateTime(value.endDateTime, `${at}.endDateTime`);
	if (end.getTime() < start.getTime())
		throw badRequest(`${at}.endDateTime must not be before startDateTime`);
	const restrictions = value.restrictions;
	if (!isObject(restrictions))
		throw badRequest(`${at}.restrictions is required and must be an object`);
	if (typeof restrictions.minimumTime !== 'boolean')
		throw badRequest(`${at}.restrictions.minimumTime must be a boolean`);
	if (typeof restrictions.browseOrder !== 'string')
		throw badRequest(`${at}.restrictions.browseOrder must be a string`);
	const associations = value.associations;
	if (!isObject(associations))
		throw badRequest(`${at}.associations is required and must be an object`);
	for (const [key, ids] of Object.entries(associations)) {
		if (!Array.isArray(ids) || !ids.every((id) => isIntegerId(id, true))) {
			throw badRequest(`${at}.associations.${key} must be an array of integer ids`);
		}
	}
	if (value.action !== undefined && value.action !== null && typeof value.action !== 'string') {
		throw badRequest(`${at}.action must be a string`);
	}
	return value;
}

/** Read shape: each rule as stored, with action WORKGROUP when it has none (absent or null). */
export function readRules(state: SandboxState, courseId: number): Rule[] {
	return (state.rules.get(courseId) ?? []).map((rule) =>
		rule.action != null ? rule : { ...rule, action: 'WORKGROUP' },
	);
}

export interface SaveResult {
	rules: Rule[];
	changed: boolean;
}

/** Validates the whole list first, then replaces the course's rules atomically. */
export function saveRules(state: SandboxState, courseId: number, body: unknown): SaveResult {
	if (!Array.isArray(body)) throw badRequest('Request body must be a JSON array of rules');
	const previous = state.rules.get(courseId) ?? [];
	const previousRead = canonical(readRules(state, courseId));
	const ownIds = new Set(previous.map((r) => r.id));
	const seen = new Set<RuleId>();
	const validated = body.map((value, i) => {
		const rule = validateRule(value, `rules[${i}]`, ownIds);
		if (isIntegerId(rule.id)) {
			const id = rule.id as RuleId;
			if (seen.has(id)) throw badRequest(`rules[${i}].id ${String(id)} appears more than once`);
			seen.add(id);
		}
		return rule;
	});
	const next: Rule[] = validated.map((rule) => {
		const { id, ...rest } = rule;
		return { id: isIntegerId(id) ? (id as RuleId) : state.nextId('rule'), ...rest };
	});
	state.rules.set(courseId, next);
	const rules = readRules(state, courseId);
	return { rules, changed: canonical(rules) !== previousRead };
}

/** Seeding: appends rules as given (no validation), assigning ids to those without one. */
export function seedRules(
	state: SandboxState,
	courseId: number,
	rules: Record<string, unknown>[],
): Rule[] {
	const added = rules.map(
		({ id, ...rest }) => ({ id: isIntegerId(id) ? id : state.nextId('rule'), ...rest }) as Rule,
	);
	state.rules.set(courseId, [...(state.rules.get(courseId) ?? []), ...added]);
	return added;
}
