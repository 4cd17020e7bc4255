/** GET/POST /business-rule/course/{courseId} (BUSINESS_RULE_MANAGE). Semantics live in ../rules.ts. */
import { Router, type Request } from 'express';
import { requirePermission } from '../auth';
import type { SandboxContext } from '../context';
import { notFound } from '../errors';
import { parseBig, stringifyBig } from '../bigjson';
import { readRules, saveRules } from '../rules';
import { parseId } from '../validation';

export function businessRuleRoutes(ctx: SandboxContext): Router {
	const { state } = ctx;
	const router = Router();
	router.use('/business-rule', requirePermission('BUSINESS_RULE_MANAGE'));

	const courseIdOf = (req: Request): number => {
		const courseId = parseId(req.params.courseId, 'courseId');
		if (!state.courses.has(courseId)) throw notFound();
		return courseId;
	};

	router.get('/business-rule/course/:courseId', (req, res) => {
		res.type('json').send(stringifyBig(readRules(state, courseIdOf(req))));
	});

	router.post('/business-rule/course/:courseId', (req, res) => {
		const courseId = courseIdOf(req);
		// Parsed again from the text, so that ids above 2^53 stay exact.
		const raw = (req as { rawText?: string }).rawText;
		const { rules, changed } = saveRules(state, courseId, raw ? parseBig(raw) : req.body);
		ctx.stats.write(`rules:${courseId}`, rules, changed);
		res.type('json').send(stringifyBig(rules));
	});

	return router;
}
