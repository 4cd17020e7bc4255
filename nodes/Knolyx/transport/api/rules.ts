import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';
import { listAnswer } from './shape';

/**
 * A course's access rules. The platform replaces the whole list on save; the safe edits that
 * build on these two calls are in actions/rule/.
 */

/**
 * `rulesRead`: the rule list of a course, as read (long ids kept exact). An answer that is not a
 * list fails: taken for "no rules", it would make Get name no rule and Replace All send a save
 * whose outcome was unknown again.
 */
export async function readRules(
	client: KnolyxClient,
	courseId: number,
	itemIndex?: number,
): Promise<KnolyxResponse<unknown[]>> {
	const response = await client.call(ENDPOINTS.rulesRead, { params: { courseId }, itemIndex });
	return listAnswer(client, response, itemIndex);
}

/** `rulesSave`: saves the complete list; every rule left out is deleted. */
export async function saveRules(
	client: KnolyxClient,
	courseId: number,
	rules: IDataObject[],
	itemIndex?: number,
): Promise<KnolyxResponse> {
	return await client.call(ENDPOINTS.rulesSave, { params: { courseId }, body: rules, itemIndex });
}
