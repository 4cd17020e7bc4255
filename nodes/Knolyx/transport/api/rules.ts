import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';
import type { Id } from '../../helpers/validation';

/**
 * A course's access rules. The platform replaces the whole list on save; the safe edits that
 * build on these two calls are in actions/rule/.
 */

/** `rulesRead`: the rule list of a course, as read (long ids kept exact; always a list). */
export async function readRules(
	client: KnolyxClient,
	courseId: Id,
	itemIndex?: number,
): Promise<KnolyxResponse<unknown[]>> {
	return await client.call<unknown[]>(ENDPOINTS.rulesRead, { params: { courseId }, itemIndex });
}

/** `rulesSave`: saves the complete list; every rule left out is deleted. */
export async function saveRules(
	client: KnolyxClient,
	courseId: Id,
	rules: IDataObject[],
	itemIndex?: number,
): Promise<KnolyxResponse> {
	return await client.call(ENDPOINTS.rulesSave, { params: { courseId }, body: rules, itemIndex });
}
