// Stand-ins for the tools' APIs in an e2e run: the public ones the credentials fix
// (api.stripe.com, api-m.paypal.com, api.hubapi.com, api.pipedrive.com) and one host each for the
// tools whose credential names the host (a Shopify shop, a WooCommerce store; SHOPIFY_SHOP and
// WOOCOMMERCE_STORE below are what the test's credentials hold). n8n is started with HTTPS_PROXY pointing here
// (n8n installs a global proxy agent from the *_PROXY variables, see the templates test) and
// NODE_EXTRA_CA_CERTS naming this run's test CAs. The proxy terminates CONNECT for those hosts
// with leaf certificates of its own CAs (makeCertificates, as the registry proxy does) and
// answers from `routes`; every request is recorded with its headers, and a CONNECT to any other
// host is refused and recorded, so a test sees exactly where a credential went.

import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import tls from 'node:tls';

import { listenAsConnectProxy, makeCertificates } from '../../../scripts/registry/proxy.mjs';

/** The shop subdomain of the test's Shopify credential (`<shop>.myshopify.com`). */
export const SHOPIFY_SHOP = 'knolyx-demo';
/** The store URL of the test's WooCommerce credential. */
export const WOOCOMMERCE_STORE = 'https://shop.knolyx-demo.example';

export const TOOL_HOSTS = [
	'api.stripe.com',
	'api-m.paypal.com',
	'api.hubapi.com',
	'api.pipedrive.com',
	`${SHOPIFY_SHOP}.myshopify.com`,
	new URL(WOOCOMMERCE_STORE).hostname,
];

/**
 * Start the stand-in on a free 127.0.0.1 port, certificates made in `dir`.
 * `answer({ host, method, path, query, headers, body })` returns { status, body, headers? } or undefined
 * (then 404 with a JSON error, as the tools answer an unknown id).
 * Returns { proxyUrl, caBundle, requests, refused, setAnswer(fn), close() }.
 */
export async function startToolApis({ dir }) {
	const contexts = new Map();
	const caFiles = [];
	for (const host of TOOL_HOSTS) {
		const certs = makeCertificates({ dir: path.join(dir, host), host });
		caFiles.push(certs.caFile);
		contexts.set(
			host,
			tls.createSecureContext({
				cert: fs.readFileSync(certs.certFile),
				key: fs.readFileSync(certs.keyFile),
			}),
		);
	}
	const caBundle = path.join(dir, 'tool-apis-ca.pem');
	fs.writeFileSync(caBundle, caFiles.map((f) => fs.readFileSync(f, 'utf8')).join('\n'));

	const requests = [];
	const refused = [];
	let answer = () => undefined;

	const tlsServer = https.createServer(
		{
			SNICallback: (name, cb) => cb(null, contexts.get(name) ?? null),
			...(() => {
				// A default certificate is required by https.createServer; the first host's.
				const first = path.join(dir, TOOL_HOSTS[0]);
				return {
					cert: fs.readFileSync(path.join(first, 'leaf.pem')),
					key: fs.readFileSync(path.join(first, 'leaf.key')),
				};
			})(),
		},
		(req, res) => {
			const chunks = [];
			req.on('data', (c) => chunks.push(c));
			req.on('end', () => {
				const url = new URL(req.url, `https://${req.headers.host}`);
				const entry = {
					host: url.hostname,
					method: req.method,
					path: url.pathname,
					query: Object.fromEntries(url.searchParams),
					headers: req.headers,
					body: Buffer.concat(chunks).toString('utf8'),
				};
				requests.push(entry);
				let out;
				try {
					out = answer(entry);
				} catch (e) {
					out = { status: 500, body: { error: { message: e.message } } };
				}
				out ??= { status: 404, body: { error: { message: `No such object: ${url.pathname}` } } };
				entry.status = out.status;
				res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
				res.end(JSON.stringify(out.body));
			});
		},
	);

	const server = http.createServer((req, res) => {
		refused.push({ method: req.method, target: req.url, headers: req.headers });
		res.writeHead(403).end();
	});
	const { port, close } = await listenAsConnectProxy(server, {
		tlsServer,
		accepts: (host, p) => contexts.has(host) && p === 443,
		onRefused: (target) => refused.push({ method: 'CONNECT', target }),
	});
	return {
		proxyUrl: `http://127.0.0.1:${port}`,
		caBundle,
		requests,
		refused,
		setAnswer(fn) {
			answer = fn;
		},
		close,
	};
}

/**
 * Stripe's `GET /v1/events` over `events` (what the stand-in holds), as Stripe's API reference
 * describes the list: newest first (by `created`, then id), `created[gte]` / `created[gt]` /
 * `created[lte]` / `created[lt]` (Unix seconds), `types[<i>]` (any of them), `type`, `limit` (1 to
 * 100, default 10), `starting_after` (an event ID of the previous page); the answer is
 * `{ object: 'list', data, has_more, url }`. An unknown `starting_after` is Stripe's 400.
 */
export function listStripeEvents(events, query) {
	const bound = (op) =>
		query[`created[${op}]`] === undefined ? undefined : Number(query[`created[${op}]`]);
	const [gte, gt, lte, lt] = ['gte', 'gt', 'lte', 'lt'].map(bound);
	const types = Object.keys(query)
		.filter((k) => /^types\[\d*\]$/.test(k))
		.map((k) => query[k]);
	if (query.type) types.push(query.type);
	const matching = events
		.filter(
			(e) =>
				(gte === undefined || e.created >= gte) &&
				(gt === undefined || e.created > gt) &&
				(lte === undefined || e.created <= lte) &&
				(lt === undefined || e.created < lt) &&
				(types.length === 0 || types.includes(e.type)),
		)
		.sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
	let from = 0;
	if (query.starting_after !== undefined) {
		const at = matching.findIndex((e) => e.id === query.starting_after);
		if (at < 0)
			return {
				status: 400,
				body: {
					error: {
						type: 'invalid_request_error',
						message: `No such event: '${query.starting_after}'`,
					},
				},
			};
		from = at + 1;
	}
	const limit = Math.min(100, Math.max(1, Number(query.limit ?? 10)));
	const data = matching.slice(from, from + limit);
	return {
		status: 200,
		body: { object: 'list', data, has_more: from + limit < matching.length, url: '/v1/events' },
	};
}

/**
 * Shopify's `GET /admin/api/<version>/orders.json` over `orders` (what the shop holds), as the
 * Admin REST reference describes it: `status` open (the default: neither closed nor cancelled),
 * closed, cancelled or any; `updated_at_min` / `updated_at_max`, `created_at_min` (ISO 8601, the
 * bound included); `financial_status` (any, or one status); `ids`; `limit` (default 50, at most
 * 250). The answer is `{ orders }`. One page: the stand-in holds fewer orders than a page (Shopify's
 * next page, a `Link` header with `page_info`, is not made).
 */
export function listShopifyOrders(orders, query) {
	const time = (v) => (v === undefined ? undefined : Date.parse(v));
	const [updatedMin, updatedMax, createdMin] = [
		query.updated_at_min,
		query.updated_at_max,
		query.created_at_min,
	].map(time);
	const status = query.status ?? 'open';
	const ids = query.ids?.split(',').map(String);
	const limit = Math.min(250, Math.max(1, Number(query.limit ?? 50)));
	const listed = orders
		.filter(
			(o) =>
				(status === 'any' ||
					(status === 'open' && !o.closed_at && !o.cancelled_at) ||
					(status === 'closed' && o.closed_at) ||
					(status === 'cancelled' && o.cancelled_at)) &&
				(updatedMin === undefined || Date.parse(o.updated_at) >= updatedMin) &&
				(updatedMax === undefined || Date.parse(o.updated_at) <= updatedMax) &&
				(createdMin === undefined || Date.parse(o.created_at) >= createdMin) &&
				(!query.financial_status ||
					query.financial_status === 'any' ||
					o.financial_status === query.financial_status) &&
				(!ids || ids.includes(String(o.id))),
		)
		.sort((a, b) => a.id - b.id)
		.slice(0, limit);
	return { status: 200, body: { orders: listed } };
}

/** A Pipedrive time (`2026-11-25 13:00:00` in UTC, or ISO 8601) in milliseconds. */
const pipedriveTime = (t) =>
	Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(t) ? t : `${String(t).replace(' ', 'T')}Z`);

/**
 * Pipedrive's `GET /v1/recents` over `deals` (what Pipedrive holds), as its API reference describes
 * it: the items changed at or after `since_timestamp` (required, `YYYY-MM-DD HH:MM:SS` in UTC), of
 * the types in `items` (here `deal`), oldest change first, `start` and `limit` (default 100, at most
 * 500); the answer is `{ success, data: [{ item, id, data }], additional_data: { since_timestamp,
 * last_timestamp_on_page, pagination: { start, limit, more_items_in_collection, next_start } } }`.
 */
export function listPipedriveRecents(deals, query) {
	if (!query.since_timestamp)
		return {
			status: 400,
			body: { success: false, error: 'Parameter "since_timestamp" is required', errorCode: 400 },
		};
	const since = pipedriveTime(query.since_timestamp);
	const wanted = (query.items ?? 'deal').split(',');
	const changed = wanted.includes('deal')
		? deals
				.filter((d) => pipedriveTime(d.update_time) >= since)
				.sort((a, b) => pipedriveTime(a.update_time) - pipedriveTime(b.update_time) || a.id - b.id)
		: [];
	const start = Number(query.start ?? 0);
	const limit = Math.min(500, Math.max(1, Number(query.limit ?? 100)));
	const page = changed.slice(start, start + limit);
	const more = start + limit < changed.length;
	return {
		status: 200,
		body: {
			success: true,
			data: page.map((deal) => ({ item: 'deal', id: deal.id, data: deal })),
			additional_data: {
				since_timestamp: query.since_timestamp,
				last_timestamp_on_page: page.at(-1)?.update_time ?? query.since_timestamp,
				pagination: {
					start,
					limit,
					more_items_in_collection: more,
					...(more ? { next_start: start + limit } : {}),
				},
			},
		},
	};
}

/**
 * HubSpot's `POST /crm/v3/objects/deals/search` over `deals` (each `{ id, properties }` with plain
 * string values, as the v3 API gives them), as its CRM search reference describes it: `filterGroups`
 * (any group; in a group, every filter) with the operators EQ, NEQ, GT, GTE, LT, LTE on a property
 * (numbers and epoch milliseconds compared as numbers); `properties` (the ones to return, with
 * `hs_object_id`, `createdate`, `hs_lastmodifieddate`); `limit` (default 10, at most 200); `after`
 * (the paging cursor of the previous page). The answer is `{ total, results, paging? }`.
 */
export function searchHubSpotDeals(deals, body) {
	const request = JSON.parse(body || '{}');
	const compare = (value, operator, wanted) => {
		if (value === undefined || value === null) return operator === 'NEQ';
		const [a, b] =
			/^-?\d+(\.\d+)?$/.test(String(value)) && /^-?\d+(\.\d+)?$/.test(String(wanted))
				? [Number(value), Number(wanted)]
				: [String(value), String(wanted)];
		return { EQ: a === b, NEQ: a !== b, GT: a > b, GTE: a >= b, LT: a < b, LTE: a <= b }[operator];
	};
	const groups = request.filterGroups ?? [];
	const found = deals
		.filter(
			(deal) =>
				groups.length === 0 ||
				groups.some((g) =>
					(g.filters ?? []).every((f) =>
						compare(deal.properties[f.propertyName], f.operator, f.value),
					),
				),
		)
		.sort((a, b) => Number(a.id) - Number(b.id));
	const limit = Math.min(200, Math.max(1, Number(request.limit ?? 10)));
	const from = Number(request.after ?? 0);
	const page = found.slice(from, from + limit);
	const shown = [
		'hs_object_id',
		'createdate',
		'hs_lastmodifieddate',
		...(request.properties ?? []),
	];
	return {
		status: 200,
		body: {
			total: found.length,
			results: page.map((deal) => ({
				id: String(deal.id),
				properties: Object.fromEntries(shown.map((p) => [p, deal.properties[p] ?? null])),
				createdAt: new Date(Number(deal.properties.createdate ?? 0)).toISOString(),
				updatedAt: new Date(Number(deal.properties.hs_lastmodifieddate ?? 0)).toISOString(),
				archived: false,
			})),
			...(from + limit < found.length ? { paging: { next: { after: String(from + limit) } } } : {}),
		},
	};
}

/**
 * PayPal's `GET /v1/notifications/webhooks-events` (List event notifications) over `events` (what
 * PayPal holds: every event of the app's webhooks, delivered or not), as its Webhooks Management
 * reference describes it: `start_time` / `end_time` (RFC 3339, both bounds included, on
 * `create_time`), `event_type` (one type), `transaction_id` (the resource's ID), `page_size`
 * (default 10); newest first. The answer is `{ events, count, links }`, with a `next` link while
 * more remain (its query is the stand-in's own: the template follows the link as given).
 */
export function listPayPalEvents(events, query, base) {
	const time = (v) => (v === undefined ? undefined : Date.parse(v));
	const [start, end] = [time(query.start_time), time(query.end_time)];
	if (Number.isNaN(start) || Number.isNaN(end))
		return {
			status: 400,
			body: {
				name: 'INVALID_REQUEST',
				message: 'Request is not well-formed, syntactically incorrect, or violates schema.',
				details: [
					{
						field: Number.isNaN(start) ? 'start_time' : 'end_time',
						issue: 'INVALID_PARAMETER_SYNTAX',
					},
				],
			},
		};
	const matching = events
		.filter(
			(e) =>
				(start === undefined || Date.parse(e.create_time) >= start) &&
				(end === undefined || Date.parse(e.create_time) <= end) &&
				(!query.event_type || e.event_type === query.event_type) &&
				(!query.transaction_id || e.resource?.id === query.transaction_id),
		)
		.sort(
			(a, b) => Date.parse(b.create_time) - Date.parse(a.create_time) || (a.id < b.id ? 1 : -1),
		);
	const size = Math.max(1, Number(query.page_size ?? 10));
	const from = Number(query.start_index ?? 0);
	const page = matching.slice(from, from + size);
	const next = new URLSearchParams({ ...query, start_index: String(from + size) });
	return {
		status: 200,
		body: {
			events: page,
			count: page.length,
			links: [
				{ href: `${base}?${new URLSearchParams(query)}`, rel: 'self', method: 'GET' },
				...(from + size < matching.length
					? [{ href: `${base}?${next}`, rel: 'next', method: 'GET' }]
					: []),
			],
		},
	};
}

/**
 * WooCommerce's `GET /wp-json/wc/v3/orders` (REST API v3, List all orders) over `orders` (what the
 * store holds), as its reference describes it: `modified_after` / `modified_before` (ISO 8601;
 * after and before, the bound excluded) on `date_modified_gmt` when `dates_are_gmt` is true, else on
 * the site's `date_modified` (the stand-in's site runs on UTC); `status` (default `any`, or a list);
 * `orderby` `date` (default), `modified` or `id`, `order` `desc` (default) or `asc`; `per_page`
 * (default 10, 1 to 100) and `page` (from 1). The answer is the page's orders, with the headers
 * `X-WP-Total` and `X-WP-TotalPages` (and a `Link` to the next page while there is one).
 */
export function listWooCommerceOrders(orders, query, base) {
	const gmt = query.dates_are_gmt === 'true' || query.dates_are_gmt === '1';
	const at = (o, field) =>
		Date.parse(gmt ? `${o[`${field}_gmt`] ?? o[field]}Z` : `${o[field] ?? o[`${field}_gmt`]}Z`);
	const bound = (v) =>
		v === undefined ? undefined : Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`);
	const [after, before] = [bound(query.modified_after), bound(query.modified_before)];
	const perPage = Number(query.per_page ?? 10);
	if (Number.isNaN(after) || Number.isNaN(before) || !(perPage >= 1 && perPage <= 100))
		return {
			status: 400,
			body: { code: 'rest_invalid_param', message: 'Invalid parameter(s).', data: { status: 400 } },
		};
	const statuses = (query.status ?? 'any').split(',');
	const key = { date: 'date_created', modified: 'date_modified', id: 'id' }[
		query.orderby ?? 'date'
	];
	const value = (o) => (key === 'id' ? o.id : at(o, key));
	const sign = query.order === 'asc' ? 1 : -1;
	const matching = orders
		.filter(
			(o) =>
				(after === undefined || at(o, 'date_modified') > after) &&
				(before === undefined || at(o, 'date_modified') < before) &&
				(statuses.includes('any') || statuses.includes(o.status)),
		)
		.sort((a, b) => sign * (value(a) - value(b)) || sign * (a.id - b.id));
	const page = Math.max(1, Number(query.page ?? 1));
	const pages = Math.max(1, Math.ceil(matching.length / perPage));
	const next = new URLSearchParams({ ...query, page: String(page + 1) });
	return {
		status: 200,
		body: matching.slice((page - 1) * perPage, page * perPage),
		headers: {
			'x-wp-total': String(matching.length),
			'x-wp-totalpages': String(pages),
			...(page < pages ? { link: `<${base}?${next}>; rel="next"` } : {}),
		},
	};
}
