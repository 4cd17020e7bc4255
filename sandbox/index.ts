/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Knolyx sandbox: an in-memory stand-in for the Knolyx public API, used by tests, benchmarks and `npm run dev`.
 * `startSandbox()` starts it on 127.0.0.1 (port 0 = a free port) and returns a handle; see sandbox/README.md.
 */
import type { AddressInfo } from 'node:net';
import { recordActivity, type ActivityKind, type EmitResult } from './activity';
import { createApp } from './app';
import type { SandboxContext } from './context';
import {
	DeliveryService,
	matchesFilter,
	type DeliveryFilter,
	type DeliveryPredicate,
} from './deliveries';
import { FaultInjector } from './faults';
import { applySeed, applySeedSpec, type DemoIds, type SeedResult, type SeedSpec } from './seed';
import { SandboxState } from './state';
import { StatsTracker } from './stats';
import { parseVariants, Variants, VARIANTS_ENV, type VariantName } from './variants';
import type {
	DeliveryAttempt,
	FaultConfig,
	SandboxConfig,
	SandboxOptions,
	SandboxStats,
	SeedName,
} from './types';

export { DEMO, demoKeyWithout, READ_ONLY_PERMISSIONS } from './seed';
export type { DemoIds, SeedResult, SeedSpec } from './seed';
export { DEFAULT_FAULTS } from './faults';
export { SandboxState } from './state';
export type { ActivityKind, EmitResult } from './activity';
export type { DeliveryFilter, DeliveryPredicate } from './deliveries';
export * from './types';
export { VARIANTS, VARIANT_NAMES, VARIANTS_ENV } from './variants';
export type { VariantName } from './variants';

export interface Sandbox {
	/** http://127.0.0.1:PORT, no trailing slash. */
	url: string;
	port: number;
	/** Live in-memory state (read it in tests; prefer the API or seed() to change it). */
	state: SandboxState;
	/** Ids of the demo seed (undefined after an 'empty' seed). */
	demo: DemoIds | undefined;
	setFaults(f: Partial<FaultConfig>): void;
	resetFaults(): void;
	stats(): SandboxStats;
	resetStats(): void;
	/** Empties the state and loads a seed (default 'demo'); also clears the delivery log. */
	reset(seed?: SeedName): DemoIds | undefined;
	/** Adds data on top of the current state (same as POST /sandbox/seed). */
	seed(spec: SeedSpec): SeedResult;
	/** Student activity that emits an event to every webhook (same as POST /sandbox/activity/{kind}). */
	activity(
		kind: ActivityKind,
		input: { email?: string; userId?: number; courseId?: number; bundleId?: number },
	): EmitResult;
	/** Logged delivery attempts, optionally filtered. */
	deliveries(filter?: DeliveryFilter): DeliveryAttempt[];
	/** Resolves with all matching attempts once at least `count` match; rejects after timeoutMs. */
	waitForDeliveries(
		predicate: DeliveryPredicate | DeliveryFilter,
		timeoutMs?: number,
		count?: number,
	): Promise<DeliveryAttempt[]>;
	/** Sends a known message again, same id and body; resolves with the first attempt. */
	resend(messageId: string): Promise<DeliveryAttempt>;
	/** Runtime settings (strict, delivery retries/backoff/timeout); mutable. */
	config: SandboxConfig;
	/** The variants played now (sandbox/variants.ts). */
	variants(): VariantName[];
	/** Plays these variants from now on (none: the default answers). */
	setVariants(names: VariantName[]): void;
	close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
	const state = new SandboxState();
	const stats = new StatsTracker();
	const config: SandboxConfig = {
		strict: opts.strict ?? false,
		deliveryRetries: opts.deliveryRetries ?? 3,
		deliveryBackoffMs: opts.deliveryBackoffMs ?? 200,
		deliveryTimeoutMs: opts.deliveryTimeoutMs ?? 5000,
	};
	const faults = new FaultInjector(stats, opts.faults);
	const deliveries = new DeliveryService(
		config,
		(id) => state.webhooks.get(id),
		() => faults.deliveryContentType(),
	);
	const variants = new Variants(
		parseVariants(opts.variants ?? process.env[VARIANTS_ENV] ?? [], VARIANTS_ENV),
	);
	const ctx: SandboxContext = { state, stats, faults, deliveries, config, variants };

	let demo: DemoIds | undefined;
	const reset = (seed: SeedName = 'demo'): DemoIds | undefined => {
		deliveries.clear();
		demo = applySeed(state, seed);
		return demo;
	};
	reset(opts.seed ?? 'demo');

	if (opts.log) {
		deliveries.onAttempt((d) =>
			console.log(
				`[knolyx-sandbox] delivery ${d.type} ${d.messageId} -> webhook ${d.webhookId} ${d.url} attempt ${d.attempt}: ${d.status ?? d.error}`,
			),
		);
	}
	const app = createApp(ctx, reset, opts.log);
	const host = opts.host ?? '127.0.0.1';
	const server = await new Promise<import('node:http').Server>((resolve, reject) => {
		const s = app.listen(opts.port ?? 0, host, (err?: Error) => (err ? reject(err) : resolve(s)));
		s.once('error', reject);
	});
	const port = (server.address() as AddressInfo).port;
	const urlHost =
		host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

	return {
		url: `http://${urlHost}:${port}`,
		port,
		state,
		get demo() {
			return demo;
		},
		config,
		setFaults: (f) => faults.set(f),
		resetFaults: () => faults.reset(),
		stats: () => stats.snapshot(),
		resetStats: () => stats.reset(),
		variants: () => variants.list,
		setVariants: (names) => variants.set(names),
		reset,
		seed: (spec) => applySeedSpec(state, spec),
		activity: (kind, input) => recordActivity(ctx, kind, input),
		deliveries: (filter) => deliveries.list(filter),
		waitForDeliveries: (predicate, timeoutMs, count) =>
			deliveries.waitFor(
				typeof predicate === 'function' ? predicate : matchesFilter(predicate),
				timeoutMs,
				count,
			),
		resend: (messageId) =>
			deliveries.resend(messageId) ?? Promise.reject(new Error(`Unknown message ${messageId}`)),
		close: () =>
			new Promise<void>((resolve, reject) => {
				deliveries.close();
				server.close((err) => (err ? reject(err) : resolve()));
				server.closeAllConnections();
			}),
	};
}
