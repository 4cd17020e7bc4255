import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';
import { objectAnswer } from './shape';

/** The API key of the credential. */

/** `key`: the calling key as Knolyx describes it (its project, its permissions); needs no permission. */
export async function getApiKey(
	client: KnolyxClient,
	itemIndex?: number,
): Promise<KnolyxResponse<IDataObject>> {
	return objectAnswer(client, await client.call(ENDPOINTS.key, { itemIndex }), itemIndex);
}
