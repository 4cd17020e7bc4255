import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';
import { readPages } from '../paging';
import type { KnolyxFile } from '../file';
import type { Paging } from './types';
import type { Id } from '../../helpers/validation';

/** Courses. */

/** `courseList`. */
export async function listCourses(client: KnolyxClient, paging: Paging): Promise<IDataObject[]> {
	return await readPages<IDataObject>(client, ENDPOINTS.courseList, paging);
}

/** `courseGet`. */
export async function getCourse(
	client: KnolyxClient,
	courseId: Id,
	itemIndex?: number,
): Promise<KnolyxResponse<IDataObject>> {
	return await client.call<IDataObject>(ENDPOINTS.courseGet, { params: { courseId }, itemIndex });
}

/** `courseImage`: the course's image file. */
export async function getCourseImage(
	client: KnolyxClient,
	courseId: Id,
	itemIndex?: number,
): Promise<KnolyxResponse<KnolyxFile>> {
	return await client.call<KnolyxFile>(ENDPOINTS.courseImage, {
		params: { courseId },
		subject: { notFound: `course ${courseId}, or its image: the course may have none` },
		itemIndex,
	});
}
