import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';

/** The API key of the credential. */

/** `key`: the calling key as Knolyx describes it (its project, its permissions); needs no permission. */
export async function getApiKey(client: KnolyxClient, itemIndex?: number): Promise<KnolyxResponse> {
	return await client.call(ENDPOINTS.key, { itemIndex });
}
