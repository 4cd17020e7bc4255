/** X-Api-Key / X-Project-Id check (401) and per-route permission check (403). */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendError } from './errors';
import type { SandboxState } from './state';
import type { ApiKey, Permission } from './types';

export function authenticate(state: SandboxState): RequestHandler {
	return (req: Request, res: Response, next: NextFunction): void => {
		const apiKey = req.get('X-Api-Key');
		const projectId = req.get('X-Project-Id');
		if (!apiKey || !projectId) {
			sendError(res, 401, 'Missing X-Api-Key or X-Project-Id header');
			return;
		}
		const key = state.apiKeys.get(apiKey);
		if (!key || key.projectId !== projectId) {
			sendError(res, 401, 'Invalid API key or project id');
			return;
		}
		res.locals.apiKey = key;
		next();
	};
}

export function currentKey(res: Response): ApiKey {
	return res.locals.apiKey as ApiKey;
}

export function requirePermission(permission: Permission): RequestHandler {
	return (_req: Request, res: Response, next: NextFunction): void => {
		if (!currentKey(res).permissions.includes(permission)) {
			sendError(res, 403, `API key lacks permission ${permission}`);
			return;
		}
		next();
	};
}
