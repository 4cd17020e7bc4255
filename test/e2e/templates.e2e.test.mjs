// The templates of examples/template-*.json (issues 24, 29) in a real n8n (2.41.1, or 1.123.81
// with `--n8n 1.123.81`) against the Knolyx sandbox.
//
// Each template is imported with n8n's CLI as the file is, plus what the user sets up: the
// Knolyx credential on its Knolyx nodes, its one mapping node edited, and a webhook ID per
// trigger as the editor's import gives it. Each trigger gets pinned data in its tool's payload
// shape (test/e2e/fixtures/<tool>.json, each naming its source). The templates read each object
// back from the tool's API: for Stripe and HubSpot those reads go to local stand-ins for
// api.stripe.com and api.hubapi.com (lib/tool-apis.mjs, reached through n8n's HTTPS_PROXY
// support), which record every request with its headers; the other tools' reads get pinned
// answers. n8n runs every other node for real, and the Knolyx side is checked in the sandbox.
//
//   0. every example: no fixed webhookId, a gallery-style note; template names; Pipedrive's auth.
//   1. every template imports; no credentials, no demo ids, fixed API hosts.
//   2-7. payment and CRM templates: paid enrols, forged or unpaid does not, refunds remove,
//        unmapped ids stop with a message, resends change nothing.
//   4b. a failed Knolyx write, then the tool's resend: enrolled once.
//   8. completion → HubSpot / Google Sheets / Slack: the items each tool node gets.
//   9. form → event registration.
//   10. the editor's own import, twice, in Chromium: two URLs.
//   11. Stripe published (its endpoint on the stand-in, signed deliveries): a failed Knolyx write,
//       the resend enrols once, the next resend stops before any request (static data).

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import {
	CREDENTIAL,
	execution,
	executionsOf,
	N8N_VERSION,
	nodeOutput,
	OWNER,
	readExample,
	startTestFile,
	waitForExecutions,
} from './lib/n8n.mjs';
import { launchBrowser, screenshot, signIn } from './lib/browser.mjs';
import { endTestFile, REPO_ROOT, RUN_DIR, sleep, waitFor } from './lib/processes.mjs';
import { startToolApis } from './lib/tool-apis.mjs';
import {
	demoFor,
	fixture,
	isKnolyxType,
	membersOf,
	prepareTemplate,
	runPinned,
	setUpTemplate,
	tagWorkflow,
	TEMPLATE_FILES,
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
};

let sandbox;
let sb;
let n8n;
let rest;

let apis;
const STRIPE_KEY = { secretKey: 'sk_test_51StandInKeyForTheTemplatesE2eRunOnly' };
/** Objects the stand-in for api.stripe.com holds, by path. */
const stripeObjects = new Map();
const stripeHas = (pathname, body) => stripeObjects.set(pathname, body);
/** The same for api.hubapi.com (the HubSpot node's v1 deal and contact reads, the v3 pipelines). */
const hubspotObjects = new Map();
const hubspotHas = (pathname, body) => hubspotObjects.set(pathname, body);

/** The stand-in's answers: HubSpot's and Stripe's reads by path, and Stripe's session list by payment_intent. */
function answerAsTools({ host, method, path: pathname, query }) {
	if (host === 'api.hubapi.com' && method === 'GET') {
		const body = hubspotObjects.get(pathname);
		return body ? { status: 200, body } : undefined;
	}
	if (host === 'api.stripe.com' && pathname.startsWith('/v1/webhook_endpoints'))
		return stripeWebhookEndpoint(method, pathname);
	if (host !== 'api.stripe.com' || method !== 'GET') return undefined;
	if (pathname === '/v1/checkout/sessions') {
		const list =
			query.payment_intent === STRIPE.chargeRead.payment_intent
				? STRIPE.refundedCheckoutSessions
				: { object: 'list', data: [], has_more: false, url: pathname };
		return { status: 200, body: list };
	}
	const body = stripeObjects.get(pathname);
	return body ? { status: 200, body } : undefined;
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

/** Every request that carried `secret` (more than `atLeast`) went to `host`; nothing was refused. */
function expectSecretOnlyTo(secret, host, atLeast) {
	const carrying = apis.requests.filter((r) => JSON.stringify(r.headers).includes(secret));
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
	const wf = await rest.request('GET', `/rest/workflows/${encodeURIComponent(id)}`);
	for (const node of wf.nodes.filter(pick))
		node.credentials = { ...node.credentials, [type]: { id: created.id, name: created.name } };
	await rest.request('PATCH', `/rest/workflows/${encodeURIComponent(id)}`, wf);
}

beforeAll(async () => {
	let timings;
	// n8n reaches the tools' API hosts through the stand-in: its global proxy agent follows
	// HTTPS_PROXY (127.0.0.1 stays direct), and it trusts the stand-in's CAs.
	apis = await startToolApis({ dir: path.join(RUN_DIR, 'tool-apis') });
	apis.setAnswer(answerAsTools);
	const saved = { ...process.env };
	Object.assign(process.env, {
		HTTPS_PROXY: apis.proxyUrl,
		NO_PROXY: '127.0.0.1,localhost',
		NODE_EXTRA_CA_CERTS: apis.caBundle,
	});
	try {
		({ sandbox, sb, n8n, rest, timings } = await startTestFile({
			workflows: Object.values(WF).map(withoutTags),
		}));
	} finally {
		for (const key of ['HTTPS_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS'])
			if (saved[key] === undefined) delete process.env[key];
			else process.env[key] = saved[key];
	}
	for (const wf of Object.values(WF))
		await tagWorkflow(
			rest,
			wf.id,
			wf.tags.map((t) => t.name),
		);
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
			// The "(edit me)" mappings ship empty; Knolyx nodes hold no literal IDs.
			for (const node of file.nodes.filter((n) => n.name.endsWith('(edit me)')))
				expect(node.parameters.assignments.assignments.map((a) => a.value)).toEqual(['{}']);
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
			const HOSTS = ['api.stripe.com', 'api-m.paypal.com', 'api.hubapi.com'];
			for (const node of readExample(name).nodes.filter(
				(n) => n.type === 'n8n-nodes-base.httpRequest',
			)) {
				const url = node.parameters.url.replace(/^=/, '');
				const m = /^https:\/\/([a-z0-9.-]+)\/[^{]*/.exec(url);
				expect({ node: node.name, host: HOSTS.includes(m?.[1]) }).toEqual({
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
	const event = (e) => ({ [TRIGGER]: e });

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
		// The session was read from api.stripe.com with the credential's key, by its id.
		expect(
			apis.requests.slice(sent).map((r) => [r.host, r.method, r.path, r.headers.authorization]),
		).toEqual([
			[
				'api.stripe.com',
				'GET',
				`/v1/checkout/sessions/${SESSION}`,
				`Bearer ${STRIPE_KEY.secretKey}`,
			],
		]);
	});

	test('the same event again (Stripe resends): the business state is unchanged', async () => {
		await expectReplayChangesNothing('stripe', TRIGGER, event(STRIPE.checkoutSessionCompleted));
	});

	test('forged events: a session Stripe does not have; a body that says paid, names another host, for a session Stripe reports unpaid: nobody enrolled, the key went to api.stripe.com only', async () => {
		const sent = apis.requests.length;
		const before = await sb.businessState();
		const unknown = structuredClone(STRIPE.checkoutSessionCompleted);
		unknown.data.object.id = 'cs_test_forged0000000000000000';
		unknown.data.object.customer_details.email = 'forger@example.com';
		const failed = await runPinned(rest, WF.stripe.id, TRIGGER, event(unknown));
		expect(failed.status).toBe('error');

		const saysPaid = structuredClone(STRIPE.asyncCheckoutCompleted);
		saysPaid.data.object.payment_status = 'paid';
		saysPaid.data.object.url = 'https://attacker.example.net/v1/checkout/sessions';
		saysPaid.request = { id: null, idempotency_key: null, url: 'https://attacker.example.net/' };
		const { knolyxRequests } = await run('stripe', TRIGGER, event(saysPaid));
		expect(knolyxRequests).toBe(0);
		expect(await sb.businessState()).toEqual(before);
		expect(apis.requests.slice(sent).map((r) => [r.host, r.path, r.status])).toEqual([
			['api.stripe.com', '/v1/checkout/sessions/cs_test_forged0000000000000000', 404],
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

	test('an unmapped price: the execution stops with a message naming the price and the node to edit; nobody enrolled', async () => {
		const read = structuredClone(STRIPE.checkoutSessionRead);
		read.id = 'cs_test_unmapped';
		read.customer_details.email = 'unmapped.buyer@example.com';
		read.line_items.data[0].price.id = 'price_1QNotInTheMapping';
		stripeHas('/v1/checkout/sessions/cs_test_unmapped', read);
		const e = structuredClone(STRIPE.checkoutSessionCompleted);
		e.data.object.id = 'cs_test_unmapped';
		await expectStop(
			'stripe',
			TRIGGER,
			event(e),
			/Stripe price price_1QNotInTheMapping is not in the node "Price → workgroup \(edit me\)"/,
		);
	});

	test('invoice.paid: the customer (one-word name: last name "-") is enrolled in the workgroup of the invoice line\'s price', async () => {
		const { state } = await run('stripe', TRIGGER, event(STRIPE.invoicePaid));
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

describe("3. Shopify: what the shop's API says is paid enrols per course product; a refund removes its own lines", () => {
	const PAID = 'On Shopify order paid';
	const REFUND = 'On Shopify refund';
	const READ = 'Read order from Shopify';
	const MARGARET = 'margaret.hamilton@example.com';

	test('orders/paid: enrolled in the workgroup of each mapped product (the mug is mapped to null: no course)', async () => {
		const { state, ex } = await run('shopify', PAID, {
			[PAID]: SHOPIFY.ordersPaid,
			[READ]: SHOPIFY.orderRead,
		});
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
		await expectReplayChangesNothing('shopify', PAID, {
			[PAID]: SHOPIFY.ordersPaid,
			[READ]: SHOPIFY.orderRead,
		});
	});

	test('a body for an order the shop reports pending (not paid): nobody enrolled', async () => {
		const { knolyxRequests } = await run('shopify', PAID, {
			[PAID]: { ...SHOPIFY.ordersPaid, email: 'someone.else@example.com' },
			[READ]: { ...SHOPIFY.orderRead, financial_status: 'pending' },
		});
		expect(knolyxRequests).toBe(0);
	});

	test('a product not in the mapping: stops naming the product and the node; nobody enrolled', async () => {
		const read = structuredClone(SHOPIFY.orderRead);
		read.line_items[0].product_id = 9999000111222;
		await expectStop(
			'shopify',
			PAID,
			{ [PAID]: SHOPIFY.ordersPaid, [READ]: read },
			/Shopify product 9999000111222 is not in the node "Product → workgroup \(edit me\)"/,
		);
	});

	const refund = {
		[REFUND]: SHOPIFY.refundsCreate,
		'Read refunded order from Shopify': SHOPIFY.refundedOrderRead,
	};

	test('refunds/create: removed from the course of the refunded line only; again: nothing changes', async () => {
		const { state } = await run('shopify', REFUND, refund);
		expect(membersOf(state, 203)).not.toContain(MARGARET);
		expect(membersOf(state, 201)).toContain(MARGARET);
		await expectReplayChangesNothing('shopify', REFUND, refund);
	});

	test('a refund the order read back does not list: stops, nobody removed', async () => {
		await expectStop(
			'shopify',
			REFUND,
			{ ...refund, [REFUND]: { ...SHOPIFY.refundsCreate, id: 1 } },
			/Shopify order 5837204873512 has no refund 1/,
		);
	});
});

// ----------------------------------------------------------------- 4.

describe('4. WooCommerce: an order the store reports processing or completed enrols once; refunded removes', () => {
	const TRIGGER = 'On WooCommerce order updated';
	const READ = 'Read order from WooCommerce';
	const DOROTHY = 'dorothy.vaughan@example.com';
	const processing = { ...WOO.orderCompleted, status: 'processing', date_completed: null };

	test('processing (paid): enrolled; the same order completed later: nothing changes', async () => {
		const { state, ex } = await run('woo', TRIGGER, { [TRIGGER]: processing, [READ]: processing });
		expect(membersOf(state, 202).filter((e) => e === DOROTHY)).toEqual([DOROTHY]);
		expect(userByEmail(state, DOROTHY)).toMatchObject({
			firstName: 'Dorothy',
			lastName: 'Vaughan',
		});
		expect(nodeOutput(ex, 'Enrol buyer in course workgroup')).toHaveLength(1);
		await expectReplayChangesNothing('woo', TRIGGER, {
			[TRIGGER]: WOO.orderCompleted,
			[READ]: WOO.orderCompleted,
		});
	});

	test('a body that says completed for an order the store reports on-hold: nobody enrolled', async () => {
		const order = {
			...WOO.orderCompleted,
			id: 1188,
			billing: { ...WOO.orderCompleted.billing, email: 'not.paid@example.com' },
		};
		const { knolyxRequests } = await run('woo', TRIGGER, {
			[TRIGGER]: order,
			[READ]: { ...order, status: 'on-hold' },
		});
		expect(knolyxRequests).toBe(0);
	});

	test('refunded: removed; again: nothing changes', async () => {
		const refunded = { ...WOO.orderCompleted, ...WOO.refundedChanges };
		const { state } = await run('woo', TRIGGER, { [TRIGGER]: refunded, [READ]: refunded });
		expect(membersOf(state, 202)).not.toContain(DOROTHY);
		await expectReplayChangesNothing('woo', TRIGGER, { [TRIGGER]: refunded, [READ]: refunded });
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
	const pins = { [TRIGGER]: order, 'Read order from WooCommerce': order };

	test('Knolyx refuses the first request: the execution fails; the same event resent enrols, once', async () => {
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

describe("5. PayPal: a capture PayPal's API reports COMPLETED enrols; one it reports REFUNDED removes", () => {
	const TRIGGER = 'On PayPal payment captured or refunded';
	const ANNIE = 'annie.easley@example.com';
	const captured = {
		[TRIGGER]: PAYPAL.captureCompleted,
		'Read capture from PayPal': PAYPAL.captureRead,
		'Read order from PayPal': PAYPAL.order,
	};
	const refunded = {
		[TRIGGER]: PAYPAL.captureRefunded,
		'Read refund from PayPal': PAYPAL.refundRead,
		'Read refunded capture from PayPal': PAYPAL.refundedCapture,
		'Read refunded order from PayPal': PAYPAL.order,
	};

	test('a body that says COMPLETED for a capture PayPal reports PENDING: nobody enrolled', async () => {
		const { knolyxRequests } = await run('paypal', TRIGGER, {
			...captured,
			'Read capture from PayPal': { ...PAYPAL.captureRead, status: 'PENDING' },
		});
		expect(knolyxRequests).toBe(0);
	});

	test('PAYMENT.CAPTURE.COMPLETED: enrolled by item SKU; resent: nothing changes', async () => {
		const { state } = await run('paypal', TRIGGER, captured);
		expect(membersOf(state, 201)).toContain(ANNIE);
		expect(userByEmail(state, ANNIE)).toMatchObject({ firstName: 'Annie', lastName: 'Easley' });
		await expectReplayChangesNothing('paypal', TRIGGER, captured);
	});

	test('a partial refund (capture PARTIALLY_REFUNDED) removes nobody', async () => {
		const { knolyxRequests } = await run('paypal', TRIGGER, {
			...refunded,
			'Read refunded capture from PayPal': {
				...PAYPAL.refundedCapture,
				status: 'PARTIALLY_REFUNDED',
			},
		});
		expect(knolyxRequests).toBe(0);
	});

	test('PAYMENT.CAPTURE.REFUNDED (capture REFUNDED): removed; resent: nothing changes', async () => {
		const { state } = await run('paypal', TRIGGER, refunded);
		expect(membersOf(state, 201)).not.toContain(ANNIE);
		await expectReplayChangesNothing('paypal', TRIGGER, refunded);
	});
});

// ----------------------------------------------------------------- 6.

describe("6. HubSpot: a deal in a stage HubSpot's pipeline marks won enrols its contact, in every pipeline (a local stand-in for api.hubapi.com)", () => {
	const TRIGGER = 'On HubSpot deal stage changed';
	const MARY = 'mary.jackson@example.com';
	const TOKEN = { appToken: 'pat-na1-standin-token-for-the-templates-e2e' };
	const deal = (d) => hubspotHas(`/deals/v1/deal/${d.dealId}`, d);
	const events = (dealId, stage) =>
		HUBSPOT.triggerOutput.map((e) => ({
			...e,
			eventId: e.eventId + (dealId % 1000),
			dealId,
			propertyValue: stage,
		}));

	beforeAll(async () => {
		await useCredential(WF.hubspot.id, 'hubspotAppToken', TOKEN, (n) =>
			n.name.endsWith('from HubSpot'),
		);
		deal(HUBSPOT.deal);
		deal(HUBSPOT.dealRenewals);
		hubspotHas('/crm/v3/pipelines/deals/default', HUBSPOT.pipelineDefault);
		hubspotHas('/crm/v3/pipelines/deals/18765432', HUBSPOT.pipelineRenewals);
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
				['api.hubapi.com', `/deals/v1/deal/${HUBSPOT.deal.dealId}`, `Bearer ${TOKEN.appToken}`],
				['api.hubapi.com', '/crm/v3/pipelines/deals/default', `Bearer ${TOKEN.appToken}`],
				['api.hubapi.com', '/contacts/v1/contact/vid/701/profile', `Bearer ${TOKEN.appToken}`],
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
		expectSecretOnlyTo(TOKEN.appToken, 'api.hubapi.com', 5);
	});
});

// ----------------------------------------------------------------- 7.

describe("7. Pipedrive: a deal Pipedrive's API reports won enrols its person (webhooks v2 and v1 bodies)", () => {
	const TRIGGER = 'On Pipedrive deal changed';
	const v2 = {
		[TRIGGER]: PIPEDRIVE.dealWonV2,
		'Read deal from Pipedrive': PIPEDRIVE.dealReadV2,
		'Read person from Pipedrive': PIPEDRIVE.personV2Deal,
	};

	test("v2 body: the person's primary e-mail is enrolled in the pipeline's workgroup; resent: nothing changes", async () => {
		const { state } = await run('pipedrive', TRIGGER, v2);
		expect(membersOf(state, 202)).toContain('evelyn.granville@example.com');
		expect(userByEmail(state, 'evelyn.granville@example.com')).toMatchObject({
			firstName: 'Evelyn',
			lastName: 'Boyd Granville',
		});
		expect(userByEmail(state, 'evelyn.private@example.com')).toBeUndefined();
		await expectReplayChangesNothing('pipedrive', TRIGGER, v2);
	});

	test('v1 body: enrolled in the workgroup of pipeline 3', async () => {
		const { state } = await run('pipedrive', TRIGGER, {
			[TRIGGER]: PIPEDRIVE.dealWonV1,
			'Read deal from Pipedrive': PIPEDRIVE.dealReadV1,
			'Read person from Pipedrive': PIPEDRIVE.personV1Deal,
		});
		expect(membersOf(state, 203)).toContain('christine.darden@example.com');
	});

	test('a body that says won for a deal Pipedrive reports open, and a later edit of a won deal: nothing sent', async () => {
		const edit = structuredClone(PIPEDRIVE.dealWonV2);
		edit.meta.id = '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
		edit.previous = { title: 'Advanced Automation' };
		for (const p of [
			{ ...v2, 'Read deal from Pipedrive': { ...PIPEDRIVE.dealReadV2, status: 'open' } },
			{ ...v2, [TRIGGER]: edit },
		]) {
			const { knolyxRequests } = await run('pipedrive', TRIGGER, p);
			expect(knolyxRequests).toBe(0);
		}
	});

	test('a won deal without a person (person_id null): stops with a message naming the deal', async () => {
		await expectStop(
			'pipedrive',
			TRIGGER,
			{ ...v2, 'Read deal from Pipedrive': { ...PIPEDRIVE.dealReadV2, person_id: null } },
			/Pipedrive deal 318 has no person/,
		);
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

	beforeAll(async () => {
		({ page, ...browser } = await launchBrowser());
		// Leaving a workflow with unsaved changes asks first (beforeunload): leave.
		page.on('dialog', (dialog) => dialog.accept().catch(() => undefined));
		await signIn(page, n8n.url, OWNER);
	}, 120_000);

	afterAll(async () => {
		await browser?.close();
	});

	/** Import `file` as a user does (*⋯ → Import from File* in a new workflow), save; returns the stored workflow. */
	async function importInEditor(file, label) {
		await page.goto(`${n8n.url}/workflow/new`);
		await page
			.locator('[data-test-id=canvas-add-button], [data-test-id=canvas-plus-button]')
			.first()
			.waitFor();
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
				if (!id || id === 'new') return undefined;
				const wf = await rest.request('GET', `/rest/workflows/${id}`).catch(() => undefined);
				return wf?.nodes?.length === expected ? wf : undefined;
			},
			{ what: `the editor to save the imported ${file}` },
		);
		await screenshot(page, `templates-import-${label}`);
		return saved;
	}

	const hookIds = (wf) => wf.nodes.filter((n) => /Trigger$/.test(n.type)).map((n) => n.webhookId);

	test('the Stripe template twice: each trigger has its own webhook ID (its URL path)', async () => {
		const first = await importInEditor('template-stripe-enrolment.json', 'stripe-1');
		const second = await importInEditor('template-stripe-enrolment.json', 'stripe-2');
		const [a] = hookIds(first);
		const [b] = hookIds(second);
		expect(a).toMatch(/^[0-9a-f-]{36}$/);
		expect(b).toMatch(/^[0-9a-f-]{36}$/);
		expect(a).not.toBe(b);
	});

	test('the form template twice, both published: two different form URLs, each serving its form', async () => {
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
	});
});

// Every template has a describe above.
test('every examples/template-*.json is covered', () => {
	expect(TEMPLATE_FILES.sort()).toEqual(Object.values(FILE_OF).sort());
	for (const wf of Object.values(WF))
		expect(wf.nodes.filter((n) => isKnolyxType(n.type)).length).toBeGreaterThan(0);
});

// ----------------------------------------------------------------- 11.

describe('11. published (Stripe): a resend after a failed Knolyx write enrols once; a resend after success stops before any request', () => {
	const TRIGGER = 'On Stripe payment, refund or cancellation';
	const EVELYN = 'evelyn.granville@example.com';
	const SESSION = 'cs_test_resendAfterFailure000000000001';
	const event = structuredClone(STRIPE.checkoutSessionCompleted);
	event.id = 'evt_test_resendAfterFailure0000000001';
	event.data.object.id = SESSION;
	event.data.object.customer_details = {
		...event.data.object.customer_details,
		email: EVELYN,
		name: 'Evelyn Boyd Granville',
	};
	const session = {
		...structuredClone(STRIPE.checkoutSessionRead),
		id: SESSION,
		customer_details: {
			...STRIPE.checkoutSessionRead.customer_details,
			email: EVELYN,
			name: 'Evelyn Boyd Granville',
		},
	};
	let url;

	/** Stripe's delivery: the event, signed with the endpoint's secret as Stripe signs (t, v1). */
	async function deliver() {
		const before = (await executionsOf(rest, WF.stripe.id)).length;
		const body = JSON.stringify(event);
		const t = Math.floor(Date.now() / 1000);
		const v1 = crypto
			.createHmac('sha256', STRIPE_ENDPOINT.secret)
			.update(`${t}.${body}`)
			.digest('hex');
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` },
			body,
		});
		expect(res.status).toBe(200);
		const [latest] = await waitForExecutions(rest, WF.stripe.id, before + 1);
		return execution(rest, latest.id);
	}

	beforeAll(async () => {
		// The Stripe credential, with the endpoint's secret (the trigger checks deliveries with it).
		await useCredential(
			WF.stripe.id,
			'stripeApi',
			{ ...STRIPE_KEY, signatureSecret: STRIPE_ENDPOINT.secret },
			(n) => n.type === 'n8n-nodes-base.stripeTrigger' || n.type === 'n8n-nodes-base.httpRequest',
		);
		stripeHas(`/v1/checkout/sessions/${SESSION}`, session);
		await rest.activateWorkflow(WF.stripe.id);
		const trigger = WF.stripe.nodes.find((n) => n.name === TRIGGER);
		url = `${n8n.url}/webhook/${trigger.webhookId}/webhook`;
	}, 60_000);

	afterAll(async () => {
		await rest.deactivateWorkflow(WF.stripe.id);
	}, 60_000);

	test('Knolyx refuses the first request: failed; the resend enrols once; the next resend sends nothing to Stripe or Knolyx', async () => {
		await sb.request('POST', '/sandbox/fault-burst', {
			requests: 1,
			faults: { errorRate: 1, errorStatuses: [400] },
		});
		const failed = await deliver();
		expect(failed.mode).not.toBe('manual');
		expect(failed.status).toBe('error');
		expect(membersOf(await sb.state(), 201)).not.toContain(EVELYN);
		await sb.request('DELETE', '/sandbox/fault-burst');

		const redone = await deliver();
		expect(redone.status).toBe('success');
		const state = await sb.state();
		expect(membersOf(state, 201).filter((e) => e === EVELYN)).toHaveLength(1);
		expect(nodeOutput(redone, 'Remember the event as handled')).toEqual([
			expect.objectContaining({ email: EVELYN, workgroupId: 201 }),
		]);

		const knolyxBefore = (await sb.stats()).requests;
		const stripeBefore = apis.requests.length;
		const businessBefore = await sb.businessState();
		const replay = await deliver();
		expect(replay.status).toBe('success');
		expect(nodeOutput(replay, 'Skip events already handled')).toEqual([]);
		expect((await sb.stats()).requests - knolyxBefore).toBe(0);
		expect(apis.requests.slice(stripeBefore)).toEqual([]);
		expect(await sb.businessState()).toEqual(businessBefore);
	});
});
