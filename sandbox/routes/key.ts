/** GET /key: the calling key, masked, with its permissions (needs no permission). */
import { Router } from 'express';
import { currentKey } from '../auth';
import { maskSecret } from '../state';

export function keyRoutes(): Router {
	const router = Router();
	router.get('/key', (_req, res) => {
		const key = currentKey(res);
		res.json({
			apiKey: maskSecret(key.apiKey),
			projectId: key.projectId,
			permissions: key.permissions,
		});
	});
	return router;
}
