/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/** Webhook management (WEBHOOK_MANAGE): create (+ PING), list, read, delete, ping. */
import { Router } from 'express';
import { sendPing } from '../activity';
import { requirePermission } from '../auth';
import type { SandboxContext } from '../context';
import { badRequest, notFound } from '../errors';
import type { Webhook } from '../types';
import { parseId, requireNonEmptyString, requireObject } from '../validation';

const LOCAL_HOSTS = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|\[::1\]|::1|0\.0\.0\.0)$/i;

/** http(s) URL always; in strict mode https only and never a loopback host. */
export function validateWebhookUrl(value: unknown, strict: boolean): string {
	const text = requireNonEmptyString(value, 'url');
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw badRequest('url must be an absolute http(s) URL');
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		throw badRequest('url must be an absolute http(s) URL');
	if (strict && (url.protocol !== 'https:' || LOCAL_HOSTS.test(url.hostname))) {
		throw badRequest('Webhook URL must use https and must not point to localhost');
	}
	return text;
}

const publicView = (w: Webhook) => ({ id: w.id, name: w.name, url: w.url, createdAt: w.createdAt });

export function webhookRoutes(ctx: SandboxContext): Router {
	const { state } = ctx;
	const router = Router();
	router.use('/webhook', requirePermission('WEBHOOK_MANAGE'));

	const find = (idText: unknown): Webhook => {
		const webhook = state.webhooks.get(parseId(idText, 'webhookId'));
		if (!webhook) throw notFound();
		return webhook;
	};

	router.post('/webhook', (req, res) => {
		const body = requireObject(req.body, 'Request body');
		const name = requireNonEmptyString(body.name, 'name');
		const url = validateWebhookUrl(body.url, ctx.config.strict);
		const securityToken = requireNonEmptyString(body.securityToken, 'securityToken');
		const duplicateUrl = [...state.webhooks.values()].some((w) => w.url === url);
		const webhook: Webhook = {
			id: state.nextId('webhook'),
			name,
			url,
			securityToken,
			createdAt: new Date().toISOString(),
		};
		state.webhooks.set(webhook.id, webhook);
		// The platform does not de-duplicate; a second registration of the same URL is counted as a duplicate write.
		ctx.stats.write(`webhook-create:${url}`, { name, url, securityToken }, !duplicateUrl);
		if (ctx.faults.webhookCreateReturnsNoId()) res.status(201).json({});
		else ctx.variants.sendWebhookCreated(res, publicView(webhook));
		setImmediate(() => sendPing(ctx, [webhook]));
	});

	router.get('/webhook', (req, res) => {
		const webhooks = [...state.webhooks.values()];
		const view = (w: Webhook) => ctx.variants.webhookView(publicView(w));
		if (ctx.variants.has('pagedWebhooks'))
			ctx.variants.sendPage(res, webhooks, req.query, view, false);
		else res.json(webhooks.map(view));
	});

	// Registered before /webhook/:id so that "ping" is never read as an id.
	router.post('/webhook/ping', (_req, res) => {
		const result = sendPing(ctx, state.webhooks.values());
		res.json({
			delivered: result.messages.length,
			messageIds: result.messages.map((m) => m.messageId),
		});
	});

	router.get('/webhook/:id', (req, res) => {
		res.json(ctx.variants.webhookView(publicView(find(req.params.id))));
	});

	router.delete('/webhook/:id', (req, res) => {
		const webhook = find(req.params.id);
		state.webhooks.delete(webhook.id);
		res.json(publicView(webhook));
	});

	router.post('/webhook/:id/ping', (req, res) => {
		const result = sendPing(ctx, [find(req.params.id)]);
		res.json({ delivered: 1, messageIds: result.messages.map((m) => m.messageId) });
	});

	return router;
}
