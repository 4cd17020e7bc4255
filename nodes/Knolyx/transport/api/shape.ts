import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { oddAnswer } from '../errors';
import { isRecord } from '../../helpers/objects';

/**
 * The shape a read's 2xx answer must have before anything acts on it: an answer of another
 * shape (a maintenance notice, `null`, a number) fails, never passes for an empty object or list.
 * Other statuses a caller accepted (a 404 it asked for) are handed back as they are.
 */

const accepted = (response: KnolyxResponse): boolean =>
	response.statusCode < 200 || response.statusCode >= 300;

/** An answer that must be a JSON object (one course, one event, one webhook, the key). */
export function objectAnswer(
	client: KnolyxClient,
	response: KnolyxResponse,
	itemIndex?: number,
): KnolyxResponse<IDataObject> {
	if (!accepted(response) && !isRecord(response.body))
		throw oddAnswer(client.node, 'object', response.statusCode, response.body, itemIndex);
	return response as KnolyxResponse<IDataObject>;
}

/** An answer that must be a plain list (a course's rules). */
export function listAnswer(
	client: KnolyxClient,
	response: KnolyxResponse,
	itemIndex?: number,
): KnolyxResponse<unknown[]> {
	if (!accepted(response) && !Array.isArray(response.body))
		throw oddAnswer(client.node, 'list', response.statusCode, response.body, itemIndex);
	return response as KnolyxResponse<unknown[]>;
}
