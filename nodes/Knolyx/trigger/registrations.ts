/**
 * Where the trigger keeps what it registered on the platform.
 *
 * Static data (per node): one record per n8n webhook URL, so the test URL
 * (/webhook-test/…, "Listen for test event") and the production URL
 * (/webhook/…, active workflow) never share, overwrite or delete each other's
 * registration, even where both live in the same static data object.
 *
 * Pending registrations (process memory): the platform pings a new webhook at
 * once, often before n8n has stored the node's static data (n8n saves it only
 * after every webhook of the workflow is created, and a test listener gets its
 * static data only after creation). A registration is therefore announced here
 * before the POST, so that PING can be verified, and so that a test listener
 * stopped while the POST is still in flight deletes what it created.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { SeenStore } from './dedupe';
import { isRecord } from '../helpers/objects';

export type RegistrationKind = 'test' | 'production';

export interface StoredRegistration {
	webhookId: string;
	secret: string;
	kind: RegistrationKind;
	createdAt: string;
}

export interface TriggerStaticData {
	registrations: Record<string, StoredRegistration>;
	seen: Partial<Record<RegistrationKind, SeenStore>>;
}

/**
 * The trigger's view of the node's static data. The objects returned are the
 * ones inside static data: changing them changes what n8n saves.
 */
export function triggerData(staticData: IDataObject): TriggerStaticData {
	if (!isRecord(staticData.registrations)) staticData.registrations = {};
	if (!isRecord(staticData.seen)) staticData.seen = {};
	return staticData as unknown as TriggerStaticData;
}

/** Read-only view of the trigger's static data: adds no keys, so reading never marks it changed. */
export function peekTriggerData(staticData: IDataObject): {
	registrations: Record<string, Partial<StoredRegistration>>;
	seen: Partial<Record<RegistrationKind, unknown>>;
} {
	return {
		registrations: isRecord(staticData.registrations)
			? (staticData.registrations as Record<string, Partial<StoredRegistration>>)
			: {},
		seen: isRecord(staticData.seen)
			? (staticData.seen as Partial<Record<RegistrationKind, unknown>>)
			: {},
	};
}

/** A registration is usable only with both an id and a secret. */
export function isComplete(
	record: Partial<StoredRegistration> | undefined,
): record is StoredRegistration {
	return (
		!!record &&
		typeof record.webhookId === 'string' &&
		record.webhookId !== '' &&
		typeof record.secret === 'string' &&
		record.secret !== ''
	);
}

/**
 * Writes the trigger's objects back into static data. n8n tracks changes with a
 * proxy that only sees assignments to properties it wrapped; objects created
 * during this run are not wrapped, so the top-level keys are assigned again to
 * make sure n8n saves the change.
 */
export function commit(staticData: IDataObject, data: TriggerStaticData): void {
	staticData.registrations = data.registrations as unknown as IDataObject;
	staticData.seen = data.seen as unknown as IDataObject;
}

interface PendingRegistration {
	url: string;
	kind: RegistrationKind;
	secret: string;
	webhookId?: string;
	/** Set once the creation finished (successfully or not). */
	doneAt?: number;
	/** Resolves when the creation finished. */
	done: Promise<void>;
}

/** How long a finished registration stays known here: covers the platform's first PING retries. */
const PENDING_TTL_MS = 5 * 60 * 1000;

const pending = new Map<string, PendingRegistration & { finish: () => void }>();

const keyOf = (scope: string, url: string) => `${scope}\n${url}`;

function sweep(now: number): void {
	for (const [key, entry] of pending) {
		if (entry.doneAt !== undefined && now - entry.doneAt > PENDING_TTL_MS) pending.delete(key);
	}
}

/** Announces a registration about to be created. `scope` names the workflow and node. */
export function beginPending(
	scope: string,
	url: string,
	kind: RegistrationKind,
	secret: string,
): void {
	sweep(Date.now());
	let finish = () => {};
	const done = new Promise<void>((resolve) => {
		finish = resolve;
	});
	pending.set(keyOf(scope, url), { url, kind, secret, done, finish });
}

/** Records the outcome of a creation: its webhook id, or undefined when it failed (then forgotten). */
export function finishPending(scope: string, url: string, webhookId: string | undefined): void {
	const entry = pending.get(keyOf(scope, url));
	if (!entry) return;
	entry.webhookId = webhookId;
	entry.doneAt = Date.now();
	if (webhookId === undefined) pending.delete(keyOf(scope, url));
	entry.finish();
}

export function forgetPending(scope: string, url: string): void {
	pending.get(keyOf(scope, url))?.finish();
	pending.delete(keyOf(scope, url));
}

/** The pending registration of a URL, if any (a creation in flight or finished moments ago). */
export function pendingFor(scope: string, url: string): PendingRegistration | undefined {
	sweep(Date.now());
	return pending.get(keyOf(scope, url));
}

/** Pending registrations of a scope and kind (when the request's URL cannot be known). */
export function pendingOfKind(scope: string, kind: RegistrationKind): PendingRegistration[] {
	sweep(Date.now());
	const prefix = `${scope}\n`;
	return [...pending.entries()]
		.filter(([key, entry]) => key.startsWith(prefix) && entry.kind === kind)
		.map(([, entry]) => entry);
}

/**
 * Waits for a creation in flight to finish, at most `timeoutMs`. Polls in short
 * steps rather than racing one long timer, which would outlive the wait.
 */
export async function waitForPending(
	entry: PendingRegistration,
	timeoutMs: number,
	stepMs = 25,
): Promise<void> {
	let finished = entry.doneAt !== undefined;
	void entry.done.then(() => {
		finished = true;
	});
	for (let waited = 0; !finished && waited < timeoutMs; waited += stepMs) {
		await sleep(stepMs);
	}
}
