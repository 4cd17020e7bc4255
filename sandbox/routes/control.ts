/**
 * /sandbox/* control endpoints (no auth): reset, seed, state, faults, stats, activity, deliveries,
 * config, keys. Each checks what it is sent against its own schema (sandbox/validation.ts): only
 * the schema's own names (never an inherited one such as `constructor` or `__proto__`), each value
 * of its type, a JSON body only; anything else is a 400 naming the field, and nothing is changed.
 */
import { Router, type Request } from 'express';
import { ACTIVITY_KINDS, recordActivity, type ActivityKind } from '../activity';
import type { SandboxContext } from '../context';
import { badRequest, notFound } from '../errors';
import { applySeedSpec, type SeedSpec } from '../seed';
import type { FaultConfig, SeedName } from '../types';
import { FAULT_SCHEMA } from '../faults';
import { PERMISSIONS } from '../types';
import { checkBody, checkQuery, is, type Schema } from '../validation';
import { stringifyBig } from '../bigjson';
import { matchesFilter, type DeliveryFilter } from '../deliveries';
import { parseVariants } from '../variants';

const MAX_WAIT_MS = 30_000;

const NONE: Schema = {};
const DIGITS = /^\d{1,15}$/;
const text = is.text({ pattern: /\S/, meaning: 'a non-empty text' });
const digits = is.text({ pattern: DIGITS, meaning: 'a non-negative integer' });

/** One API key, as POST /sandbox/keys and POST /sandbox/seed's apiKeys take it. */
const API_KEY_SCHEMA: Schema = {
	apiKey: text,
	projectId: text,
	permissions: is.listOf(is.oneOf(PERMISSIONS)),
};
const API_KEY_REQUIRED = ['apiKey', 'permissions'];

/** POST /sandbox/seed (SeedSpec): every list and every entry checked before anything is added. */
const SEED_SCHEMA: Schema = {
	courses: is.listOf(is.shape({ title: text, description: is.text() }, ['title'])),
	workgroups: is.listOf(is.shape({ name: text }, ['name'])),
	bundles: is.listOf(is.shape({ name: text, slug: text }, ['name'])),
	users: is.listOf(
		is.shape({ firstName: text, lastName: text, email: text, gender: text }, [
			'firstName',
			'lastName',
			'email',
		]),
	),
	communities: is.listOf(
		is.shape(
			{ name: text, workgroupIds: is.listOf(is.integer(1)), workgroupNames: is.listOf(text) },
			['name'],
		),
	),
	events: is.listOf(
		is.shape(
			{
				communityId: is.integer(1),
				communityName: text,
				title: text,
				startDateTime: text,
				endDateTime: text,
			},
			['title'],
		),
	),
	members: is.listOf(
		is.shape(
			{ workgroupId: is.integer(1), email: text, removalDate: is.text({ nullable: true }) },
			['workgroupId', 'email'],
		),
	),
	attendance: is.listOf(
		is.shape({ eventId: is.integer(1), userId: is.integer(1) }, ['eventId', 'userId']),
	),
	// Rules are stored as given (any fields): per course id, a list of objects.
	rules: (value, field) => {
		is.object(value, field);
		for (const [courseId, rules] of Object.entries(value as Record<string, unknown>)) {
			if (!DIGITS.test(courseId)) throw badRequest(`${field}.${courseId} is not a course id`);
			is.listOf(is.object)(rules, `${field}.${courseId}`);
		}
	},
	apiKeys: is.listOf(is.shape(API_KEY_SCHEMA, API_KEY_REQUIRED)),
	generate: is.shape({
		courses: is.integer(0),
		workgroups: is.integer(0),
		users: is.integer(0),
		events: is.integer(0),
	}),
};

const CONFIG_SCHEMA: Schema = {
	strict: is.boolean,
	deliveryRetries: is.integer(0),
	deliveryBackoffMs: is.integer(0),
	deliveryTimeoutMs: is.integer(0),
};

const ACTIVITY_SCHEMA: Schema = {
	userId: is.integer(1),
	email: text,
	courseId: is.integer(1),
	bundleId: is.integer(1),
};

const DELIVERIES_QUERY: Schema = {
	messageId: text,
	type: text,
	webhookId: digits,
	ok: is.oneOf(['', 'true', 'false']),
	waitFor: digits,
	timeoutMs: digits,
};

function deliveryFilter(req: Request): DeliveryFilter {
	const q = checkQuery(req.query, DELIVERIES_QUERY) as Record<string, string | undefined>;
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
		const body = checkBody(req, { seed: is.oneOf(['demo', 'empty']) });
		const seed = (body.seed ?? 'demo') as SeedName;
		res.json({ seed, demo: reset(seed) ?? null });
	});

	router.post('/seed', (req, res) => {
		res.status(201).json(applySeedSpec(ctx.state, checkBody(req, SEED_SCHEMA) as SeedSpec));
	});

	router.get('/state', (_req, res) => {
		res.type('json').send(stringifyBig(ctx.state.toJSON()));
	});

	router.get('/faults', (_req, res) => {
		res.json(ctx.faults.current);
	});

	router.post('/faults', (req, res) => {
		ctx.faults.set(checkBody(req, FAULT_SCHEMA, { noun: 'fault setting' }) as Partial<FaultConfig>);
		res.json(ctx.faults.current);
	});

	router.delete('/faults', (req, res) => {
		checkBody(req, NONE);
		ctx.faults.reset();
		res.json(ctx.faults.current);
	});

	/** The variants played (sandbox/variants.ts): read, set (replaces the list), back to none. */
	router.get('/variants', (_req, res) => {
		res.json(ctx.variants.describe());
	});

	router.post('/variants', (req, res) => {
		const body = checkBody(
			req,
			{ variants: (value, field) => void parseVariants(value, field) },
			{
				required: ['variants'],
			},
		);
		ctx.variants.set(parseVariants(body.variants));
		res.json(ctx.variants.describe());
	});

	router.delete('/variants', (req, res) => {
		checkBody(req, NONE);
		ctx.variants.set([]);
		res.json(ctx.variants.describe());
	});

	router.get('/stats', (_req, res) => {
		res.json(ctx.stats.snapshot());
	});

	router.post('/stats/reset', (req, res) => {
		checkBody(req, NONE);
		ctx.stats.reset();
		res.json(ctx.stats.snapshot());
	});

	router.get('/config', (_req, res) => {
		res.json(ctx.config);
	});

	/** Runtime settings: strict, deliveryRetries, deliveryBackoffMs, deliveryTimeoutMs. */
	router.post('/config', (req, res) => {
		const b = checkBody(req, CONFIG_SCHEMA);
		if (b.strict !== undefined) ctx.config.strict = b.strict as boolean;
		for (const k of ['deliveryRetries', 'deliveryBackoffMs', 'deliveryTimeoutMs'] as const) {
			if (b[k] !== undefined) ctx.config[k] = b[k] as number;
		}
		res.json(ctx.config);
	});

	router.post('/keys', (req, res) => {
		const spec = {
			apiKeys: [checkBody(req, API_KEY_SCHEMA, { required: API_KEY_REQUIRED })],
		} as SeedSpec;
		applySeedSpec(ctx.state, spec);
		res.status(201).json({ ok: true });
	});

	router.post('/activity/:kind', (req, res) => {
		const kind = req.params.kind as ActivityKind;
		if (!ACTIVITY_KINDS.includes(kind))
			throw notFound(`Unknown activity; use one of ${ACTIVITY_KINDS.join(', ')}`);
		res.json(recordActivity(ctx, kind, checkBody(req, ACTIVITY_SCHEMA)));
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
		checkBody(req, NONE);
		const sending = ctx.deliveries.resend(String(req.params.messageId));
		if (!sending) throw notFound('Unknown message id, or its webhook was deleted');
		res.json(await sending);
	});

	return router;
}
