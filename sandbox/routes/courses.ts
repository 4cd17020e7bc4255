/** Courses (COURSE_LIST, COURSE_GET): paged list, one course, its image. */
import { Router } from 'express';
import { requirePermission } from '../auth';
import type { SandboxContext } from '../context';
import { notFound } from '../errors';
import { coursePng } from '../image';
import type { Course } from '../types';
import { parseId } from '../validation';

export function courseRoutes(ctx: SandboxContext): Router {
	const { state } = ctx;
	const router = Router();

	const find = (idText: unknown): Course => {
		const course = state.courses.get(parseId(idText, 'courseId'));
		if (!course) throw notFound();
		return course;
	};

	router.get('/course', requirePermission('COURSE_LIST'), (req, res) => {
		ctx.variants.sendPage(res, [...state.courses.values()], req.query, (c) => ({
			id: c.id,
			title: c.title,
		}));
	});

	router.get('/course/:id', requirePermission('COURSE_GET'), (req, res) => {
		res.json(find(req.params.id));
	});

	router.get('/course/:id/image', requirePermission('COURSE_GET'), (req, res) => {
		const course = find(req.params.id);
		if (state.coursesWithoutImage.has(course.id)) throw notFound();
		res.type('image/png').send(coursePng(course.id));
	});

	return router;
}
