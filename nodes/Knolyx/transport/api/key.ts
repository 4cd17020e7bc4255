import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';

/** The API key of the credential. */

/** `key`: the calling key as Knolyx describes it (its project, its permissions); needs no permission. */
export async function getApiKey(
	client: KnolyxClient,
	itemIndex?: number,
): Promise<KnolyxResponse<IDataObject>> {
	return await client.call<IDataObject>(ENDPOINTS.key, { itemIndex });
}
