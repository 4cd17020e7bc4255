import { NodeOperationError, sleep } from 'n8n-workflow';

import type { KnolyxClient } from '../../transport';
import {
	asNodeError,
	backoff,
	networkErrorCode,
	outcomeUnknown,
	readRules,
	saveRules,
} from '../../transport';
import { plainCopy } from '../../helpers/json';
import type { EditOutcome, Rule, RuleEdit } from '../../helpers/rules';
import { applyRuleEdit, asRuleList, holdsList, sameContent } from '../../helpers/rules';
import { describeRuleChanges, ruleChanges } from '../../helpers/rule-changes';
import { changedSince, checkTenant, replaceRules } from './replace';
import type { Id } from '../../helpers/validation';

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
	/** The course's list as read before the save (the last save, after a round lost to another writer). */
	before: Rule[];
	/** The list after the edit: as read back after the save; in a preview, the list it would save. */
	after: Rule[];
	/** Applying a preview whose list the course held already: nothing was sent. */
	alreadyApplied?: boolean;
}

/**
 * How a batch runs: saved; previewed (read, nothing sent); or applying a preview's lists, which
 * the course must still hold (`before`), and which the batch's edits must make (`after`).
 */
export type EditMode =
	| { kind: 'save' }
	| { kind: 'preview' }
	| { kind: 'apply'; before: Rule[]; after: Rule[]; tenant: string; text: string };

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
	private readonly queued = new Map<string, Entry[]>();

	constructor(private readonly client: KnolyxClient) {}

	/**
	 * Queues an edit; all edits queued in the same tick for a course in the same mode form one
	 * batch (items applying one preview together are one batch; two previews, two batches).
	 */
	async edit(
		courseId: Id,
		edit: RuleEdit,
		itemIndex: number,
		mode: EditMode = { kind: 'save' },
	): Promise<RuleEditResult> {
		const key = `${courseId}|${mode.kind}|${mode.kind === 'apply' ? mode.text : ''}`;
		return await new Promise<RuleEditResult>((resolve, reject) => {
			const entry: Entry = { edit, itemIndex, resolve, reject, failed: false };
			const batch = this.queued.get(key);
			if (batch) {
				batch.push(entry);
				return;
			}
			const entries = [entry];
			this.queued.set(key, entries);
			// Start on the next microtask turn so every item queued now joins this batch.
			void Promise.resolve().then(async () => {
				this.queued.delete(key);
				await this.runBatch(courseId, entries, mode);
			});
		});
	}

	private async read(courseId: Id, itemIndex: number): Promise<Rule[]> {
		const { body } = await readRules(this.client, courseId, itemIndex);
		return asRuleList(body);
	}

	private async runBatch(courseId: Id, entries: Entry[], mode: EditMode): Promise<void> {
		try {
			if (mode.kind === 'preview') {
				await this.preview(courseId, entries);
				return;
			}
			// One lock per platform, project and course, across the runs of this n8n process.
			const key = `${await this.client.credentialScope()}|${courseId}`;
			await withLock(
				key,
				async () =>
					await (mode.kind === 'apply'
						? this.applyPreviewed(courseId, entries, mode)
						: this.rounds(courseId, entries)),
			);
		} catch (error) {
			for (const entry of entries) if (!entry.failed) entry.reject(error as Error);
		}
	}

	/** Applies every pending edit to `list`, in item order; items whose edit cannot apply fail. */
	private applyAll(list: Rule[], entries: Entry[]): Rule[] {
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
		return next;
	}

	private resolveAll(
		entries: Entry[],
		before: Rule[],
		after: Rule[],
		alreadyApplied = false,
	): void {
		for (const entry of entries) {
			if (entry.failed) continue;
			const rule = after.find((r) => r.name === entry.edit.ruleName);
			entry.resolve({
				outcome: entry.first as EditOutcome,
				rule: rule && plainCopy(rule),
				ruleCount: after.length,
				before,
				after,
				alreadyApplied,
			});
		}
	}

	/** A preview: one read, every edit applied in item order, nothing sent. */
	private async preview(courseId: Id, entries: Entry[]): Promise<void> {
		const list = await this.read(courseId, entries[0].itemIndex);
		this.resolveAll(entries, list, this.applyAll(list, entries));
	}

	/**
	 * Applying a preview saves exactly the list it showed, or nothing. The course holds that list
	 * already (an earlier run applied it): nothing is sent, whatever this node's edits would make.
	 * Else the course must still hold the list the preview read, and the batch's edits must make the
	 * list it showed; that list is saved once (never recomputed over someone else's save), and a
	 * read must then show it, or the items fail naming what the course holds instead.
	 */
	private async applyPreviewed(
		courseId: Id,
		entries: Entry[],
		mode: Extract<EditMode, { kind: 'apply' }>,
	): Promise<void> {
		const itemIndex = entries[0].itemIndex;
		await checkTenant(this.client, itemIndex, 'Apply Previewed Change', mode.tenant);
		const list = await this.read(courseId, itemIndex);
		if (holdsList(list, mode.after)) {
			for (const entry of entries) entry.first = { rules: list, changed: false, existed: true };
			this.resolveAll(entries, list, list, true);
			return;
		}
		if (!sameContent(list, mode.before)) {
			throw changedSince(
				this.client,
				courseId,
				'the preview',
				mode.before,
				list,
				itemIndex,
				'Someone else saved rules of this course after the preview. Preview the change again, check it, and apply the new preview.',
			);
		}
		const next = this.applyAll(list, entries);
		if (!sameContent(next, mode.after))
			throw new NodeOperationError(
				this.client.node,
				`The previewed change of course ${courseId} is not the change this node makes: ${describeRuleChanges(ruleChanges(mode.after, next))} Nothing was sent`,
				{
					itemIndex,
					description:
						"Apply a preview with the same operation and parameters (course, rule name, workgroup, fields) as the node that previewed it: Apply Previewed Change takes the 'change' of that node's output item.",
				},
			);
		const saved = await replaceRules(this.client, courseId, next, itemIndex, list, true);
		this.resolveAll(entries, list, saved);
	}

	private async rounds(courseId: Id, entries: Entry[]): Promise<void> {
		const firstItem = entries[0].itemIndex;
		const policy = this.client.policy;
		let before: Rule[] | undefined;
		/** The read that decides a failed save, made right after it; the next round starts from it. */
		let decided: Rule[] | undefined;
		/** Saves Knolyx did not take (they failed and the course still held the list they started from). */
		let notTaken = 0;
		// Done when the batch changes nothing on `list`: by content, not identity, as items that set
		// the same rule to different values (upsert) change it away and back, and the list they mean
		// is then the one already saved.
		const settled = (list: Rule[], next: Rule[]): boolean => {
			if (next !== list && !sameContent(next, list)) return false;
			this.resolveAll(entries, before ?? list, list);
			return true;
		};
		for (let round = 1; round <= MAX_ROUNDS; round++) {
			// After a save this read is the check: it also sees a change another process saved over
			// this one since (the save's own answer could not show that).
			const list = decided ?? (await this.read(courseId, firstItem));
			decided = undefined;
			const next = this.applyAll(list, entries);
			if (settled(list, next)) return;
			before = list;
			try {
				await saveRules(this.client, courseId, next, firstItem);
			} catch (error) {
				// The save may or may not have been applied: read again and decide.
				if (!outcomeUnknown(error)) throw asNodeError(this.client.node, error, firstItem);
				// A save that timed out may still be in the platform's hands: give it the same time
				// again before reading, so that the read sees it rather than a list it then replaces
				// (with this batch's list, over whatever was saved in between).
				const code = networkErrorCode(error);
				if (code && TIMEOUT_CODES.has(code)) await sleep(policy.timeoutMs);
				decided = await this.read(courseId, firstItem);
				// The course still holds the list this save started from: Knolyx did not take it, and
				// nobody saved meanwhile. That is not a conflict (no round is spent): the save is made
				// again from a fresh read after a pause, as the transport retries a request, and after
				// the policy's attempts the save's own error is the item's.
				if (sameContent(decided, list)) {
					notTaken++;
					if (notTaken >= policy.maxAttempts) throw asNodeError(this.client.node, error, firstItem);
					decided = undefined;
					await sleep(backoff(notTaken, policy));
					round--;
				}
			}
		}
		// The read after a last save that failed may show it applied after all.
		if (decided && settled(decided, this.applyAll(decided, entries))) return;
		throw new NodeOperationError(
			this.client.node,
			`The rules of course ${courseId} kept changing under this edit (${MAX_ROUNDS} rounds); another workflow or person is editing them. Retry later.`,
			{ itemIndex: firstItem },
		);
	}
}
