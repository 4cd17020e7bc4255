/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Outgoing webhook deliveries: HTTP PUT of `{id, type, data}` with X-Webhook-Security-Token.
 * A message that is not answered with a 2xx is sent again (same id) after a doubling backoff.
 * Every attempt is logged and can be awaited.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import axios from 'axios';
import type { DeliveryAttempt, EventMessage, EventType, SandboxConfig, Webhook } from './types';

export interface DeliveryFilter {
	messageId?: string;
	type?: string;
	webhookId?: number;
	ok?: boolean;
}

export type DeliveryPredicate = (attempt: DeliveryAttempt) => boolean;

interface SentMessage {
	webhookId: number;
	body: EventMessage;
}

export function matchesFilter(filter: DeliveryFilter): DeliveryPredicate {
	return (d) =>
		(filter.messageId === undefined || d.messageId === filter.messageId) &&
		(filter.type === undefined || d.type === filter.type) &&
		(filter.webhookId === undefined || d.webhookId === filter.webhookId) &&
		(filter.ok === undefined || d.ok === filter.ok);
}

export class DeliveryService {
	private readonly log: DeliveryAttempt[] = [];
	private readonly messages = new Map<string, SentMessage>();
	private readonly emitter = new EventEmitter();
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly aborts = new Set<AbortController>();
	private closed = false;

	constructor(
		private readonly config: SandboxConfig,
		/** Looks the webhook up at send time: a deleted webhook gets no more retries. */
		private readonly findWebhook: (id: number) => Webhook | undefined,
		/** Read at send time (a fault setting). */
		private readonly contentType: () => string | undefined,
	) {
		this.emitter.setMaxListeners(0);
	}

	/** Creates a new message (fresh uuid) for the webhook and starts delivering it in the background. */
	emit(webhook: Webhook, type: EventType, data: Record<string, unknown>): string {
		const body: EventMessage = { id: randomUUID(), type, data };
		this.messages.set(body.id, { webhookId: webhook.id, body });
		void this.deliver(body.id);
		return body.id;
	}

	/**
	 * Sends a known message again (same id, same body); resolves with the first attempt of this send.
	 * Undefined when the message or its webhook no longer exists.
	 */
	resend(messageId: string): Promise<DeliveryAttempt> | undefined {
		const message = this.messages.get(messageId);
		if (!message || !this.findWebhook(message.webhookId)) return undefined;
		return this.deliver(messageId);
	}

	/** Delivers with retries; resolves with the first attempt (retries go on in the background). */
	private async deliver(messageId: string): Promise<DeliveryAttempt> {
		const first = await this.attempt(messageId, 1);
		if (first && !first.ok) this.scheduleRetry(messageId, 2);
		return first ?? this.placeholderAttempt(messageId);
	}

	private scheduleRetry(messageId: string, attemptNo: number): void {
		if (this.closed || attemptNo > this.config.deliveryRetries + 1) return;
		const delay = this.config.deliveryBackoffMs * 2 ** (attemptNo - 2);
		const timer = setTimeout(async () => {
			this.timers.delete(timer);
			const result = await this.attempt(messageId, attemptNo);
			if (result && !result.ok) this.scheduleRetry(messageId, attemptNo + 1);
		}, delay);
		timer.unref();
		this.timers.add(timer);
	}

	private async attempt(
		messageId: string,
		attemptNo: number,
	): Promise<DeliveryAttempt | undefined> {
		const message = this.messages.get(messageId);
		const webhook = message && this.findWebhook(message.webhookId);
		if (this.closed || !message || !webhook) return undefined;
		const abort = new AbortController();
		this.aborts.add(abort);
		let status: number | null = null;
		let error: string | null = null;
		try {
			const contentType = this.contentType();
			// The JSON text as bytes, so that axios adds no Content-Type of its own.
			const res = await axios.put(webhook.url, Buffer.from(JSON.stringify(message.body)), {
				headers: {
					'Content-Type': contentType ?? false,
					'X-Webhook-Security-Token': webhook.securityToken,
				},
				timeout: this.config.deliveryTimeoutMs,
				signal: abort.signal,
				validateStatus: () => true,
				maxRedirects: 0,
				responseType: 'text',
				transformResponse: (raw: unknown) => raw,
			});
			status = res.status;
		} catch (err) {
			error =
				err instanceof Error
					? `${(err as { code?: string }).code ?? 'ERROR'}: ${err.message}`
					: String(err);
		} finally {
			this.aborts.delete(abort);
		}
		if (this.closed) return undefined;
		const record: DeliveryAttempt = {
			messageId,
			webhookId: webhook.id,
			url: webhook.url,
			type: message.body.type,
			attempt: attemptNo,
			status,
			error,
			ok: status !== null && status >= 200 && status < 300,
			at: new Date().toISOString(),
			body: message.body,
		};
		this.log.push(record);
		this.emitter.emit('attempt', record);
		return record;
	}

	private placeholderAttempt(messageId: string): DeliveryAttempt {
		const message = this.messages.get(messageId);
		if (!message) throw new Error(`Unknown message ${messageId}`);
		return {
			messageId,
			webhookId: message.webhookId,
			url: '',
			type: message.body.type,
			attempt: 0,
			status: null,
			error: 'Not sent (sandbox closing or webhook deleted)',
			ok: false,
			at: new Date().toISOString(),
			body: message.body,
		};
	}

	/** Calls `listener` for every logged attempt (used for console logging). */
	onAttempt(listener: (attempt: DeliveryAttempt) => void): void {
		this.emitter.on('attempt', listener);
	}

	list(filter: DeliveryFilter = {}): DeliveryAttempt[] {
		return this.log.filter(matchesFilter(filter));
	}

	/** The last `limit` logged attempts, oldest first (the sandbox page reads these without copying the whole log). */
	recent(limit: number): DeliveryAttempt[] {
		return this.log.slice(-limit);
	}

	/** Resolves once at least `count` logged attempts match; rejects after timeoutMs. */
	waitFor(predicate: DeliveryPredicate, timeoutMs = 5000, count = 1): Promise<DeliveryAttempt[]> {
		const matching = (): DeliveryAttempt[] => this.log.filter(predicate);
		const now = matching();
		if (now.length >= count) return Promise.resolve(now);
		return new Promise((resolve, reject) => {
			const onAttempt = (): void => {
				const found = matching();
				if (found.length >= count) {
					cleanup();
					resolve(found);
				}
			};
			const timer = setTimeout(() => {
				cleanup();
				reject(
					new Error(
						`Timed out after ${timeoutMs} ms waiting for ${count} matching deliveries (saw ${matching().length})`,
					),
				);
			}, timeoutMs);
			const onClose = (): void => {
				cleanup();
				reject(new Error('Sandbox closed while waiting for deliveries'));
			};
			const cleanup = (): void => {
				clearTimeout(timer);
				this.emitter.off('attempt', onAttempt);
				this.emitter.off('close', onClose);
			};
			this.emitter.on('attempt', onAttempt);
			this.emitter.on('close', onClose);
		});
	}

	/** Forgets the log and the known messages (state reset). Pending retries stop. */
	clear(): void {
		this.log.length = 0;
		this.messages.clear();
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
	}

	close(): void {
		this.closed = true;
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		for (const a of this.aborts) a.abort();
		this.emitter.emit('close');
	}
}
