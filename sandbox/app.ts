/* eslint-disable no-console -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/** Assembles the express application: /public/api/v1 (auth, faults, routes) and /sandbox (control). */
import express, {
	Router,
	type ErrorRequestHandler,
	type Express,
	type RequestHandler,
} from 'express';
import { authenticate } from './auth';
import type { SandboxContext } from './context';
import { Edges, edgeRoutes } from './edges';
import { ApiError, sendError } from './errors';
import { businessRuleRoutes } from './routes/business-rules';
import { communityRoutes } from './routes/communities';
import { controlRoutes } from './routes/control';
import { courseRoutes } from './routes/courses';
import { keyRoutes } from './routes/key';
import { createPageServices, pageRoutes } from './routes/page';
import { readEditsMiddleware } from './poll-edits';
import { pollControlRoutes } from './routes/poll-control';
import { userRoutes } from './routes/users';
import { webhookRoutes } from './routes/webhooks';
import { workgroupRoutes } from './routes/workgroups';
import { routeKey } from './stats';
import type { SeedName } from './types';

const JSON_LIMIT = '10mb';

/** Counts the request and keeps inFlight/maxInFlight; 'close' fires on answer and on a destroyed socket. */
function tracking(ctx: SandboxContext): RequestHandler {
	return (req, res, next) => {
		ctx.stats.requestStarted(routeKey(req.method, req.originalUrl.split('?')[0]));
		res.once('close', () => ctx.stats.requestEnded());
		next();
	};
}

/** One stdout line per answered (or dropped) API request. */
const requestLog: RequestHandler = (req, res, next) => {
	const started = Date.now();
	res.once('close', () => {
		const status = res.writableFinished ? String(res.statusCode) : 'dropped';
		console.log(
			`[knolyx-sandbox] ${req.method} ${req.originalUrl} -> ${status} (${Date.now() - started} ms)`,
		);
	});
	next();
};

const unknownEndpoint: RequestHandler = (req, res) => {
	sendError(res, 404, `No endpoint ${req.method} ${req.originalUrl.split('?')[0]}`);
};

const errorHandler: ErrorRequestHandler = (err: unknown, _req, res, next) => {
	// Express's own handler closes a response that has already started.
	if (res.headersSent) return next(err);
	if (err instanceof ApiError) return sendError(res, err.status, err.message);
	const e = err as { type?: string; status?: number; message?: string };
	if (e.type === 'entity.parse.failed') return sendError(res, 400, 'Malformed JSON request body');
	if (typeof e.status === 'number' && e.status >= 400 && e.status < 500)
		return sendError(res, e.status, e.message ?? 'Bad request');
	console.error('[knolyx-sandbox] unexpected error', err);
	sendError(res, 500, 'Internal server error');
};

export function createApp(
	ctx: SandboxContext,
	reset: (seed: SeedName) => unknown,
	log = false,
): Express {
	const app = express();
	app.disable('x-powered-by');
	app.set('etag', false);

	const v1 = Router();
	v1.use(keyRoutes(), webhookRoutes(ctx), courseRoutes(ctx), workgroupRoutes(ctx), userRoutes(ctx));
	v1.use(businessRuleRoutes(ctx), communityRoutes(ctx));

	const page = createPageServices(ctx);
	// Edge rules (redirects, odd answers, endless bodies) answer before everything else.
	const edges = new Edges();
	app.use(edges.middleware());
	if (log) app.use('/public/api', requestLog);
	app.use('/public/api', page.requests.middleware());
	// Edits a test armed to happen while a paged list is read (poll-edits.ts).
	app.use('/public/api', readEditsMiddleware(ctx.state));
	app.use(
		'/public/api',
		tracking(ctx),
		authenticate(ctx.state),
		page.burst.middleware(),
		ctx.faults.middleware(),
		ctx.variants.middleware(),
		// The raw text is kept for the rule endpoints, which read long ids exactly (bigjson.ts).
		express.json({
			limit: JSON_LIMIT,
			verify: (req, _res, buf) => {
				(req as { rawText?: string }).rawText = buf.toString('utf8');
			},
		}),
		Router().use('/v1', v1),
		unknownEndpoint,
	);
	app.use(pageRoutes(ctx, page));
	app.use('/sandbox', express.json({ limit: JSON_LIMIT }), controlRoutes(ctx, reset));
	app.use('/sandbox', express.json({ limit: JSON_LIMIT }), pollControlRoutes(ctx));
	app.use('/sandbox', express.json({ limit: JSON_LIMIT }), edgeRoutes(edges));
	app.use(unknownEndpoint);
	app.use(errorHandler);
	return app;
}
