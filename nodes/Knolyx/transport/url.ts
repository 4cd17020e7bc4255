/** The API's address: the credential's base URL checked, and an API path joined to it. */

export const API_PREFIX = '/public/api/v1';

/** The text without the slashes it ends with (a loop: `/\/+$/` reads to the end from every slash). */
export function withoutTrailingSlashes(text: string): string {
	let end = text.length;
	while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end -= 1;
	return text.slice(0, end);
}

/** Joins the credential's base URL and an API path; tolerates trailing slashes and tenant URLs. */
export function joinUrl(baseUrl: string, path: string): string {
	const base = withoutTrailingSlashes(baseUrl.trim());
	return `${base}${API_PREFIX}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * Why a base URL cannot be the Knolyx API's, or undefined when it can be: a query or a
 * fragment would swallow every API path appended to it (the request would reach the web app or
 * a 404 blaming an id). Surrounding spaces are fine.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	const text = baseUrl.trim();
	if (text === '') return 'is empty';
	if (/[?#]/.test(text)) {
		return 'must not contain a query (?…) or a fragment (#…); use the address alone, e.g. https://api.knolyx.com, or the https address Knolyx gave your organisation, with its path (such as /api) when it has one';
	}
	try {
		const url = new URL(text);
		if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https://';
	} catch {
		return 'is not a valid URL; use e.g. https://api.knolyx.com';
	}
	return undefined;
}
