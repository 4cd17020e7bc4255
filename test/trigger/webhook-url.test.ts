import { judgeWebhookUrl, urlProblems } from '../../nodes/Knolyx/trigger/webhook-url';
import { findOurs, webhookList } from '../../nodes/Knolyx/transport';

describe('webhook URL problems', () => {
	it.each([
		['https://n8n.example.com/webhook/x/webhook', []],
		['http://n8n.example.com/webhook/x/webhook', ['http']],
		['http://localhost:5678/webhook/x/webhook', ['http', 'localhost']],
		['https://localhost/webhook/x', ['localhost']],
		['https://127.0.0.1/webhook/x', ['localhost']],
		['https://[::1]/webhook/x', ['localhost']],
		['https://app.localhost/webhook/x', ['localhost']],
		['https://192.168.1.20/webhook/x', ['private']],
		['https://10.0.0.5/webhook/x', ['private']],
		['https://n8n:5678/webhook/x', ['private']],
	])('%s → %j', (url, problems) => {
		expect(urlProblems(url)).toEqual(problems);
	});

	it('recognises the hosted platform (refused there), not a look-alike host nor a local base (warned)', () => {
		const local = 'http://localhost:5678/webhook/a/webhook';
		const verdict = (baseUrl: string) => judgeWebhookUrl(local, baseUrl).action;
		expect(verdict('https://api.knolyx.com')).toBe('refuse');
		expect(verdict('https://acme.knolyx.com/api/')).toBe('refuse');
		expect(verdict('https://knolyx.com.evil.io')).toBe('warn');
		expect(verdict('http://127.0.0.1:4010')).toBe('warn');
		expect(verdict('http://localhost:4010/')).toBe('warn');
	});
});

describe('judgeWebhookUrl', () => {
	it('accepts a public https URL', () => {
		expect(
			judgeWebhookUrl('https://n8n.example.com/webhook/a/webhook', 'https://api.knolyx.com'),
		).toEqual({ action: 'ok' });
	});

	it('refuses http or localhost before any request when the platform is Knolyx itself', () => {
		for (const url of [
			'http://localhost:5678/webhook/a/webhook',
			'http://n8n.example.com/webhook/a/webhook',
		]) {
			const verdict = judgeWebhookUrl(url, 'https://api.knolyx.com');
			expect(verdict.action).toBe('refuse');
			expect(verdict.action !== 'ok' && verdict.message).toContain(url);
		}
	});

	it('only warns against a local sandbox or another platform (which may refuse; that is explained then)', () => {
		expect(
			judgeWebhookUrl('http://127.0.0.1:5678/webhook/a/webhook', 'http://127.0.0.1:4010').action,
		).toBe('warn');
		expect(judgeWebhookUrl('http://n8n:5678/webhook/a/webhook', 'http://sandbox:4010').action).toBe(
			'warn',
		);
		expect(
			judgeWebhookUrl('https://10.0.0.5/webhook/a/webhook', 'https://api.knolyx.com').action,
		).toBe('warn');
	});
});

describe('creation answers and lists', () => {
	it('reads a list as an array or a page', () => {
		expect(webhookList([{ id: 1, url: 'u', name: 'n' }, { url: 'no id' }])).toEqual([
			{ id: '1', url: 'u', name: 'n' },
		]);
		expect(webhookList({ content: [{ id: 2 }] })).toEqual([
			{ id: '2', url: undefined, name: undefined },
		]);
		expect(webhookList('junk')).toEqual([]);
	});

	it('finds our webhook by URL and exact name, never someone else’s', () => {
		const list = [
			{ id: '1', url: 'https://a/webhook', name: 'n8n: W / K #old' },
			{ id: '2', url: 'https://a/webhook', name: 'n8n: W / K #new' },
			{ id: '3', url: 'https://b/webhook', name: 'n8n: W / K #new' },
		];
		expect(findOurs(list, 'https://a/webhook', 'n8n: W / K #new', true)).toBe('2');
		expect(findOurs(list, 'https://a/webhook', 'n8n: W / K #other', true)).toBeUndefined();
	});

	it('without names in the list, falls back to the newest with our URL only when allowed', () => {
		const list = [
			{ id: '9', url: 'https://a/webhook' },
			{ id: '10', url: 'https://a/webhook' },
		];
		expect(findOurs(list, 'https://a/webhook', 'x', true)).toBe('10');
		expect(findOurs(list, 'https://a/webhook', 'x', false)).toBeUndefined();
	});
});
