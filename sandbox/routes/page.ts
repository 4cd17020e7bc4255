/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The sandbox page (GET / and GET /sandbox): a read-only view of what the platform holds, with a
 * few forms for the control endpoints. Self-contained: its own CSS and script, no CDN, no fonts.
 * Also the endpoints it needs beyond routes/control.ts: GET /sandbox/overview (bounded snapshot),
 * POST /sandbox/ping (ping webhooks without an API key), POST|DELETE /sandbox/fault-burst.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type Response } from 'express';
import { sendPing } from '../activity';
import type { SandboxContext } from '../context';
import { notFound } from '../errors';
import { FaultBurst } from '../page/fault-burst';
import { buildOverview } from '../page/overview';
import { RecentRequests } from '../page/recent-requests';
import { checkBody, is } from '../validation';

const ASSETS_DIR = path.join(__dirname, '..', 'page', 'assets');
const ASSETS: Record<string, string> = {
	'index.html': 'text/html; charset=utf-8',
	'page.css': 'text/css; charset=utf-8',
	'page.js': 'text/javascript; charset=utf-8',
};
/** Nothing but this origin: the page works offline and cannot leak what it shows. */
const CONTENT_SECURITY_POLICY =
	"default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'";

/** What the page needs recorded while the sandbox runs; both bounded in memory. */
export interface PageServices {
	requests: RecentRequests;
	burst: FaultBurst;
}

export function createPageServices(ctx: SandboxContext): PageServices {
	return { requests: new RecentRequests(100), burst: new FaultBurst(ctx.faults) };
}

const cache = new Map<string, Buffer>();
function sendAsset(res: Response, name: string): void {
	let body = cache.get(name);
	if (!body) {
		body = fs.readFileSync(path.join(ASSETS_DIR, name));
		cache.set(name, body);
	}
	res.set({
		'Content-Type': ASSETS[name],
		'Cache-Control': 'no-cache',
		'Content-Security-Policy': CONTENT_SECURITY_POLICY,
	});
	res.send(body);
}

/** POST /sandbox/ping: {webhookId?}. */
const PING_SCHEMA = { webhookId: is.integer(1) };

export function pageRoutes(ctx: SandboxContext, services: PageServices): Router {
	const router = Router();
	const json = express.json({ limit: '100kb' });

	router.get(['/', '/sandbox'], (_req, res) => sendAsset(res, 'index.html'));
	router.get('/sandbox/page/:asset', (req, res) => {
		const name = String(req.params.asset);
		if (name === 'index.html' || !(name in ASSETS)) throw notFound(`No page asset ${name}`);
		sendAsset(res, name);
	});

	router.get('/sandbox/overview', (_req, res) => {
		res.set('Cache-Control', 'no-store');
		res.json(buildOverview(ctx, services.requests, services.burst.status()));
	});

	/** {webhookId?}: PING to that webhook, or to every webhook. Same messages as POST /public/api/v1/webhook/ping. */
	router.post('/sandbox/ping', json, (req, res) => {
		// A text or form body is refused, never read as "ping every webhook".
		const body = checkBody(req, PING_SCHEMA);
		let webhooks = [...ctx.state.webhooks.values()];
		if (body.webhookId !== undefined) {
			const webhook = ctx.state.webhooks.get(body.webhookId as number);
			if (!webhook) throw notFound(`Webhook ${String(body.webhookId)} not found`);
			webhooks = [webhook];
		}
		res.json(sendPing(ctx, webhooks));
	});

	/** {requests: N, faults: partial FaultConfig}: those faults for the next N API requests, then the previous ones. */
	router.post('/sandbox/fault-burst', json, (req, res) => {
		res.json({ burst: services.burst.start(req.body), faults: ctx.faults.current });
	});

	router.get('/sandbox/fault-burst', (_req, res) => {
		res.json({ burst: services.burst.status(), faults: ctx.faults.current });
	});

	router.delete('/sandbox/fault-burst', (_req, res) => {
		res.json({ stopped: services.burst.stop(), burst: null, faults: ctx.faults.current });
	});

	return router;
}
