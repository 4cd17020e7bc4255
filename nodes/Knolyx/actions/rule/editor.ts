import { NodeOperationError, sleep } from 'n8n-workflow';

import type { KnolyxClient } from '../../transport';
import {
	asNodeError,
	networkErrorCode,
	outcomeUnknown,
	readRules,
	saveRules,
} from '../../transport';
import { plainCopy } from '../../helpers/json';
import type { EditOutcome, Rule, RuleEdit } from '../../helpers/rules';
import { applyRuleEdit, asRuleList } from '../../helpers/rules';

/**
 * Applies rule edits of many items safely and cheaply.
 *
 * Edits for one course that arrive together are merged: one read, every edit
 * applied in item order, one save of the whole list, then one read to verify
 * that every edit holds. A save whose answer was lost (connection dropped, 5xx)
 * is never re-posted blindly: the list is read again and only what is still
 * missing is saved. An edit lost to a concurrent writer is detected by the
 * verifying read and redone. Edits of one course are also serialised
 * across executions of this n8n process (a lock per credential and course).
 */

export interface RuleEditResult {
	outcome: EditOutcome;
	/** The named rule as the platform holds it after the save (with its id). */
	rule?: Rule;
	/** Rules on the course after the edit. */
	ruleCount: number;
}

interface Entry {
	edit: RuleEdit;
	itemIndex: number;
	first?: EditOutcome;
	resolve: (result: RuleEditResult) => void;
	reject: (error: Error) => void;
	failed: boolean;
}

const MAX_ROUNDS = 5;

const TIMEOUT_CODES = new Set([
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'ECONNABORTED',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** Per-process chain of promises per course: one edit batch at a time. */
const courseLocks = new Map<string, Promise<void>>();

async function withLock(key: string, task: () => Promise<void>): Promise<void> {
	const previous = courseLocks.get(key) ?? Promise.resolve();
	const current = previous.then(task, task);
	const settled = current.then(
		() => undefined,
		() => undefined,
	);
	courseLocks.set(key, settled);
	try {
		await current;
	} finally {
		if (courseLocks.get(key) === settled) courseLocks.delete(key);
	}
}

/** One editor per run, created on the first edit: a run's client lives as long as the run. */
const editors = new WeakMap<KnolyxClient, RuleEditor>();

/** The rule editor of the run the client belongs to. */
export function ruleEditorOf(client: KnolyxClient): RuleEditor {
	let editor = editors.get(client);
	if (!editor) {
		editor = new RuleEditor(client);
		editors.set(client, editor);
	}
	return editor;
}

class RuleEditor {
	private readonly queued = new Map<number, Entry[]>();

	constructor(private readonly client: KnolyxClient) {}

	/** Queues an edit; all edits queued in the same tick for a course form one batch. */
	async edit(courseId: number, edit: RuleEdit, itemIndex: number): Promise<RuleEditResult> {
		return await new Promise<RuleEditResult>((resolve, reject) => {
			const entry: Entry = { edit, itemIndex, resolve, reject, failed: false };
			const batch = this.queued.get(courseId);
			if (batch) {
				batch.push(entry);
				return;
			}
			const entries = [entry];
			this.queued.set(courseId, entries);
			// Start on the next microtask turn so every item queued now joins this batch.
			void Promise.resolve().then(async () => {
				this.queued.delete(courseId);
				await this.runBatch(courseId, entries);
			});
		});
	}

	private async read(courseId: number, itemIndex: number): Promise<Rule[]> {
		const { body } = await readRules(this.client, courseId, itemIndex);
		return asRuleList(body);
	}

	private async runBatch(courseId: number, entries: Entry[]): Promise<void> {
		try {
			// One lock per platform, project and course, across the runs of this n8n process.
			const key = `${await this.client.credentialScope()}|${courseId}`;
			await withLock(key, async () => await this.rounds(courseId, entries));
		} catch (error) {
			for (const entry of entries) if (!entry.failed) entry.reject(error as Error);
		}
	}

	/**
	 * Applies every pending edit to `list`: when none changes it, every edit holds there and
	 * is resolved (true); otherwise the list the edits mean. Items whose edit cannot apply fail.
	 */
	private settle(list: Rule[], entries: Entry[]): true | Rule[] {
		let next = list;
		for (const entry of entries) {
			if (entry.failed) continue;
			try {
				const outcome = applyRuleEdit(next, entry.edit);
				next = outcome.rules;
				entry.first ??= outcome;
			} catch (error) {
				entry.failed = true;
				entry.reject(
					new NodeOperationError(this.client.node, (error as Error).message, {
						itemIndex: entry.itemIndex,
					}),
				);
			}
		}
		// By content, not identity: items that set the same rule to different values (upsert)
		// change it away and back, and the list they mean is then the one already saved.
		if (next !== list && !sameContent(next, list)) return next;
		for (const entry of entries) {
			if (entry.failed) continue;
			const rule = list.find((r) => r.name === entry.edit.ruleName);
			entry.resolve({
				outcome: entry.first as EditOutcome,
				rule: rule && plainCopy(rule),
				ruleCount: list.length,
			});
		}
		return true;
	}

	private async rounds(courseId: number, entries: Entry[]): Promise<void> {
		const firstItem = entries[0].itemIndex;
		for (let round = 1; round <= MAX_ROUNDS; round++) {
			// After a save this read is the check: it also sees a change another process saved over
			// this one since (the save's own answer could not show that).
			const next = this.settle(await this.read(courseId, firstItem), entries);
			if (next === true) return;
			try {
				await saveRules(this.client, courseId, next, firstItem);
			} catch (error) {
				// The save may or may not have been applied: read again and decide.
				if (!outcomeUnknown(error)) throw asNodeError(this.client.node, error, firstItem);
				// A save that timed out may still be in the platform's hands: give it the same time
				// again before reading, so that the read sees it rather than a list it then replaces
				// (with this batch's list, over whatever was saved in between).
				const code = networkErrorCode(error);
				if (code && TIMEOUT_CODES.has(code)) await sleep(this.client.policy.timeoutMs);
			}
		}
		throw new NodeOperationError(
			this.client.node,
			`The rules of course ${courseId} kept changing under this edit (${MAX_ROUNDS} rounds); another workflow or person is editing them. Retry later.`,
			{ itemIndex: firstItem },
		);
	}
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

export function sameContent(a: Rule[], b: Rule[]): boolean {
	return canonical(a) === canonical(b);
}
