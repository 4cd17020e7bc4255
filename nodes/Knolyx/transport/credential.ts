import type { ICredentialDataDecryptedObject, ICredentialsDecrypted, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { baseUrlProblem, withoutTrailingSlashes } from './url';

/** Reading the credential: the API's base URL, the platform and project it works on, the key. */

export const CREDENTIAL_TYPE = 'knolyxApi';

export interface CredentialReading {
	/** The credential's base URL, checked, without surrounding spaces. */
	baseUrl: string;
	/**
	 * The platform and project the credential works on: what state shared across runs (a lock
	 * of a course's rules) is keyed by. "https://x/" and "https://x" are the same platform.
	 */
	scope: string;
	/** The API key: taken out of any error answer that echoes it back (none when too short to tell). */
	secrets: string[];
}

/**
 * The credential's base URL, scope and key; a base URL that cannot be the API's fails here,
 * before anything is sent.
 */
export async function readCredential(
	node: INode,
	given: ICredentialsDecrypted | undefined,
	load: () => Promise<ICredentialDataDecryptedObject>,
): Promise<CredentialReading> {
	const credentials = given?.data ?? (await load());
	const raw = String(credentials.baseUrl ?? '');
	const problem = baseUrlProblem(raw);
	if (problem) {
		throw new NodeOperationError(node, `Base URL of the Knolyx API credential ${problem}`, {
			description: `The credential's Base URL is "${raw.trim().slice(0, 120)}". Fix it in the credential, then run again.`,
		});
	}
	const baseUrl = raw.trim();
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	return {
		baseUrl,
		scope: `${withoutTrailingSlashes(baseUrl).toLowerCase()}|${String(credentials.projectId)}`,
		secrets: apiKey.length >= 6 ? [apiKey] : [],
	};
}
