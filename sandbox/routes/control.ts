/** /sandbox/* control endpoints (no auth): reset, seed, state, faults, stats, activity, deliveries, config, keys. */
import { Router, type Request } from 'express';
import { ACTIVITY_KINDS, recordActivity, type ActivityKind } from '../activity';
import type { SandboxContext } from '../context';
import { badRequest, notFound } from '../errors';
import { applySeedSpec, type SeedSpec } from '../seed';
import type { FaultConfig, SeedName } from '../types';
import { isObject } from '../validation';
import { stringifyBig } from '../bigjson';
import { matchesFilter, type DeliveryFilter } from '../deliveries';

const MAX_WAIT_MS = 30_000;

function deliveryFilter(req: Request): DeliveryFilter {
	const q = req.query as Record<string, string | undefined>;
	return {
		messageId: q.messageId || undefined,
		type: q.type || undefined,
		webhookId: q.webhookId ? Number(q.webhookId) : undefined,
		ok: q.ok === undefined || q.ok === '' ? undefined : q.ok === 'true',
	};
}

export function controlRoutes(ctx: SandboxContext, reset: (seed: SeedName) => unknown): Router {
	const router = Router();

	router.post('/reset', (req, res) => {
		const seed: unknown = isObject(req.body) && req.body.seed !== undefined ? req.body.seed : 'demo';
		if (seed !== 'demo' && seed !== 'empty') throw badRequest("seed must be 'demo' or 'empty'");
		res.json({ seed, demo: reset(seed) ?? null });
	});

	router.post('/seed', (req, res) => {
		res.status(201).json(applySeedSpec(ctx.state, req.body as SeedSpec));
	});

	router.get('/state', (_req, res) => {
		res.type('json').send(stringifyBig(ctx.state.toJSON()));
	});

	router.get('/faults', (_req, res) => {
		res.json(ctx.faults.current);
	});

	router.post('/faults', (req, res) => {
		if (!isObject(req.body)) throw badRequest('Body must be a partial FaultConfig object');
		ctx.faults.set(req.body as Partial<FaultConfig>);
		res.json(ctx.faults.current);
	});

	router.delete('/faults', (_req, res) => {
		ctx.faults.reset();
		res.json(ctx.faults.current);
	});

	router.get('/stats', (_req, res) => {
		res.json(ctx.stats.snapshot());
	});

	router.post('/stats/reset', (_req, res) => {
		ctx.stats.reset();
		res.json(ctx.stats.snapshot());
	});

	router.get('/config', (_req, res) => {
		res.json(ctx.config);
	});

	/** Runtime settings: strict, deliveryRetries, deliveryBackoffMs, deliveryTimeoutMs. */
	router.post('/config', (req, res) => {
		if (!isObject(req.body)) throw badRequest('Body must be a JSON object');
		const b = req.body;
		if (typeof b.strict === 'boolean') ctx.config.strict = b.strict;
		for (const k of ['deliveryRetries', 'deliveryBackoffMs', 'deliveryTimeoutMs'] as const) {
			if (typeof b[k] === 'number' && b[k] >= 0) ctx.config[k] = b[k];
		}
		res.json(ctx.config);
	});

	router.post('/keys', (req, res) => {
		const spec = { apiKeys: [req.body] } as SeedSpec;
		applySeedSpec(ctx.state, spec);
		res.status(201).json({ ok: true });
	});

	router.post('/activity/:kind', (req, res) => {
		const kind = req.params.kind as ActivityKind;
		if (!ACTIVITY_KINDS.includes(kind)) throw notFound(`Unknown activity; use one of ${ACTIVITY_KINDS.join(', ')}`);
		res.json(recordActivity(ctx, kind, req.body));
	});

	/** ?messageId=&type=&webhookId=&ok=true|false; &waitFor=N waits (timeoutMs, default 5000) for N matching attempts. */
	router.get('/deliveries', async (req, res) => {
		const filter = deliveryFilter(req);
		const waitFor = Number(req.query.waitFor ?? 0);
		if (waitFor > 0) {
			const timeoutMs = Math.min(Number(req.query.timeoutMs ?? 5000), MAX_WAIT_MS);
			try {
				await ctx.deliveries.waitFor(matchesFilter(filter), timeoutMs, waitFor);
			} catch {
				// Answer with what arrived so far; the caller checks the count.
			}
		}
		res.json(ctx.deliveries.list(filter));
	});

	router.post('/deliveries/:messageId/resend', async (req, res) => {
		const sending = ctx.deliveries.resend(String(req.params.messageId));
		if (!sending) throw notFound('Unknown message id, or its webhook was deleted');
		res.json(await sending);
	});

	return router;
}
