/**
 * Whether the platform can deliver to n8n's webhook URL. Knolyx accepts only
 * https URLs that do not point to localhost (docs/api.md, Webhook deliveries); n8n
 * running on a laptop gives http://localhost:5678/… unless WEBHOOK_URL is set.
 */

type UrlProblem = 'http' | 'localhost' | 'private';

const LOOPBACK = /^(localhost|.+\.localhost|127(?:\.\d{1,3}){3}|::1|0\.0\.0\.0|::)$/i;
const PRIVATE_V4 =
	/^(10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2})$/;

function hostnameOf(url: string): string | undefined {
	try {
		return new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
	} catch {
		return undefined;
	}
}

function isLoopbackHost(hostname: string): boolean {
	return LOOPBACK.test(hostname.replace(/^\[|\]$/g, ''));
}

/** What is wrong with a webhook URL for a platform on the internet (empty: nothing). */
export function urlProblems(url: string): UrlProblem[] {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return ['localhost'];
	}
	const problems: UrlProblem[] = [];
	if (parsed.protocol !== 'https:') problems.push('http');
	const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
	if (isLoopbackHost(host)) problems.push('localhost');
	else if (PRIVATE_V4.test(host) || /^(fc|fd)[0-9a-f]{2}:/i.test(host) || !host.includes('.'))
		problems.push('private');
	return problems;
}

/** The hosted Knolyx platform (api.knolyx.com, {tenant}.knolyx.com): known to refuse such URLs. */
function isKnolyxCloud(baseUrl: string): boolean {
	const host = hostnameOf(baseUrl.trim());
	return host !== undefined && (host === 'knolyx.com' || host.endsWith('.knolyx.com'));
}

export type UrlVerdict =
	| { action: 'ok' }
	/** Register anyway (a local sandbox accepts it) but say so in the log. */
	| { action: 'warn'; message: string }
	/** Do not even try: the platform refuses it. */
	| { action: 'refuse'; message: string };

export const WEBHOOK_URL_HINT =
	"Knolyx delivers events only to public https addresses. Set n8n's WEBHOOK_URL environment variable to the public https address of this n8n (for example https://n8n.example.com/) and restart n8n, or, for a local n8n, start a tunnel (for example cloudflared or ngrok) and set WEBHOOK_URL to the tunnel's https address.";

function describeProblems(url: string, problems: UrlProblem[]): string {
	const reasons: string[] = [];
	if (problems.includes('http')) reasons.push('it is plain http, not https');
	if (problems.includes('localhost')) reasons.push('it points to this machine (localhost)');
	if (problems.includes('private'))
		reasons.push('it is a private network address the internet cannot reach');
	return `n8n's webhook URL ${url} cannot receive Knolyx events: ${reasons.join(' and ')}`;
}

/**
 * The decision for a webhook URL and the credential's base URL:
 * - a public https URL: ok;
 * - http or localhost with the hosted platform: refuse before any request;
 * - otherwise (a sandbox on 127.0.0.1, a self-hosted platform): warn and try;
 *   a refusal of the platform is then explained with the same hint.
 */
export function judgeWebhookUrl(webhookUrl: string, baseUrl: string): UrlVerdict {
	const problems = urlProblems(webhookUrl);
	if (problems.length === 0) return { action: 'ok' };
	const message = describeProblems(webhookUrl, problems);
	const refused = problems.includes('http') || problems.includes('localhost');
	if (refused && isKnolyxCloud(baseUrl)) return { action: 'refuse', message };
	return { action: 'warn', message };
}
