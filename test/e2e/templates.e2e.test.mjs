// The templates of examples/template-*.json (issue 24) in a real n8n (2.41.1, or 1.123.81
// with `--n8n 1.123.81`) against the Knolyx sandbox.
//
// Each template is imported with n8n's CLI as the file is, plus what the user sets up: the
// Knolyx credential on its Knolyx nodes and its one mapping node edited. The other tool
// cannot be reached from here (no internet, and it would need the user's account), so its
// trigger, and the nodes that read more from that tool's API, get pinned data in the tool's
// documented payload shape (test/e2e/fixtures/<tool>.json, each naming its source); n8n
// runs every other node for real, and the Knolyx side is checked in the sandbox's state:
// the right person in the right workgroup, refunds removing access, and a replayed event
// sending nothing at all to Knolyx. The completion template is published and fed by a real
// sandbox delivery with its three tool nodes switched off (the template's documented way to
// drop a branch); the form template is published and its form submitted over HTTP.
//
//   1. every template imports: node types and versions exist in this n8n, connections are
//      whole, no credentials in the file, tags, a set-up note of five steps or fewer.
//   2-7. payment and CRM templates: enrol, replay, refund, replay.
//   8. completion → HubSpot / Google Sheets / Slack: the items each tool node gets.
//   9. form → event registration.

import {
	execution,
	executionsOf,
	N8N_VERSION,
	nodeOutput,
	readExample,
	startTestFile,
	waitForExecutions,
} from './lib/n8n.mjs';
import { endTestFile, RUN_DIR } from './lib/processes.mjs';
import {
	fixture,
	isKnolyxType,
	membersOf,
	prepareTemplate,
	runPinned,
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

// Demo seed (sandbox/seed.ts): workgroups 201 Intro to n8n, 202 Advanced Automation,
// 203 Data Literacy, 204 Community Members (community 301, event 401); course 101.
// The mapping each template gets (its one "(edit me)" node) is the `demo` block of its
// tool's fixture, which `npm run dev` uses too.
const WF = {
	stripe: prepareTemplate('template-stripe-enrolment.json', 'tplStripeEnrol001'),
	shopify: prepareTemplate('template-shopify-enrolment.json', 'tplShopifyEnrol01'),
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

beforeAll(async () => {
	let timings;
	({ sandbox, sb, n8n, rest, timings } = await startTestFile({
		workflows: Object.values(WF).map(withoutTags),
	}));
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

/** A replayed event: the execution succeeds and Knolyx receives nothing; the business state is unchanged. */
async function expectReplayIgnored(key, trigger, pins) {
	const before = await sb.businessState();
	const { ex, knolyxRequests } = await run(key, trigger, pins);
	expect(knolyxRequests).toBe(0);
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
		'%s: no credentials inside, a set-up note of at most five steps, named nodes',
		(name) => {
			const file = readExample(name);
			expect(file.nodes.filter((n) => n.credentials).map((n) => n.name)).toEqual([]);
			const notes = file.nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote');
			expect(notes).toHaveLength(1);
			const steps = notes[0].parameters.content.split('\n').filter((l) => /^\d+\. /.test(l));
			expect(steps.length).toBeGreaterThan(0);
			expect(steps.length).toBeLessThanOrEqual(5);
			expect(file.tags.map((t) => t.name)).toContain('Knolyx');
			// No n8n default names ("Set", "HTTP Request1", "Knolyx"): each says what it does.
			const defaults =
				/^(Set|Edit Fields|HTTP Request|Switch|Filter|If|Split Out|Remove Duplicates|Knolyx|Knolyx Trigger|Webhook|Slack|HubSpot|Google Sheets)\d*$/;
			expect(file.nodes.filter((n) => defaults.test(n.name)).map((n) => n.name)).toEqual([]);
			expect(Object.keys(WF).map((k) => FILE_OF[k])).toContain(name);
		},
	);
});

// ----------------------------------------------------------------- 2.

describe('2. Stripe: checkout and invoice enrol, a full refund or an ended subscription removes, replays send nothing', () => {
	const TRIGGER = 'On Stripe payment, refund or cancellation';
	const checkout = {
		[TRIGGER]: STRIPE.checkoutSessionCompleted,
		'Get checkout line items': STRIPE.checkoutSessionLineItems,
	};
	const refund = {
		[TRIGGER]: STRIPE.chargeRefunded,
		'Find refunded checkout': STRIPE.refundedCheckoutSessions,
	};
	const GRACE = 'grace.hopper@example.com';
	const KATHERINE = 'katherine.johnson@example.com';

	test("checkout.session.completed: the buyer is provisioned with a first/last split of the full name and enrolled in the price's workgroup", async () => {
		const { ex, state } = await run('stripe', TRIGGER, checkout);
		expect(membersOf(state, 201)).toContain(GRACE);
		expect(userByEmail(state, GRACE)).toMatchObject({
			firstName: 'Grace',
			lastName: 'Brewster Hopper',
		});
		expect(nodeOutput(ex, 'Enrol buyer in course workgroup')).toEqual([
			expect.objectContaining({ email: GRACE, workgroupId: 201, created: true }),
		]);
	});

	test('the same event again (Stripe resends): skipped, nothing sent to Knolyx', async () => {
		const ex = await expectReplayIgnored('stripe', TRIGGER, checkout);
		expect(nodeOutput(ex, 'Skip events already handled')).toEqual([]);
	});

	test('invoice.paid: the customer (one-word name: last name "-") is enrolled in the workgroup of the invoice line\'s price', async () => {
		const { state } = await run('stripe', TRIGGER, { [TRIGGER]: STRIPE.invoicePaid });
		expect(membersOf(state, 202)).toContain(KATHERINE);
		expect(userByEmail(state, KATHERINE)).toMatchObject({ firstName: 'Katherine', lastName: '-' });
	});

	test('charge.refunded (fully): the buyer is removed from the workgroups of the refunded checkout, others untouched', async () => {
		const { ex, state } = await run('stripe', TRIGGER, refund);
		expect(membersOf(state, 201)).not.toContain(GRACE);
		expect(membersOf(state, 202)).toContain(KATHERINE);
		expect(nodeOutput(ex, 'Remove buyer from course workgroup')).toEqual([
			expect.objectContaining({ email: GRACE, workgroupId: 201, removed: true }),
		]);
	});

	test('the refund again, and the old checkout event replayed after it: nothing sent, access stays removed', async () => {
		await expectReplayIgnored('stripe', TRIGGER, refund);
		await expectReplayIgnored('stripe', TRIGGER, checkout);
		expect(membersOf(await sb.state(), 201)).not.toContain(GRACE);
	});

	test('a partial refund (refunded: false) removes nothing', async () => {
		const partial = structuredClone(STRIPE.chargeRefunded);
		partial.id = 'evt_3QTpl0Ln4cE9xJ2Q1PartIal';
		partial.data.object.refunded = false;
		partial.data.object.amount_refunded = 1000;
		const { knolyxRequests } = await run('stripe', TRIGGER, {
			[TRIGGER]: partial,
			'Find refunded checkout': STRIPE.refundedCheckoutSessions,
		});
		expect(knolyxRequests).toBe(0);
	});

	const ended = {
		[TRIGGER]: STRIPE.customerSubscriptionDeleted,
		'Get subscription customer': STRIPE.subscriptionCustomer,
	};

	test("customer.subscription.deleted: the subscriber (read from the customer) is removed from the workgroup of the subscription's price, others untouched", async () => {
		const before = await sb.state();
		expect(membersOf(before, 202)).toContain(KATHERINE);
		const { ex, state } = await run('stripe', TRIGGER, ended);
		expect(membersOf(state, 202)).not.toContain(KATHERINE);
		expect(membersOf(state, 202)).toEqual(
			membersOf(before, 202).filter((email) => email !== KATHERINE),
		);
		expect(membersOf(state, 201)).toEqual(membersOf(before, 201));
		expect(nodeOutput(ex, 'Remove buyer from course workgroup')).toEqual([
			expect.objectContaining({ email: KATHERINE, workgroupId: 202, removed: true }),
		]);
	});

	test('the ended subscription again, and its paid invoice replayed after it: nothing sent, access stays removed', async () => {
		await expectReplayIgnored('stripe', TRIGGER, ended);
		await expectReplayIgnored('stripe', TRIGGER, { [TRIGGER]: STRIPE.invoicePaid });
		expect(membersOf(await sb.state(), 202)).not.toContain(KATHERINE);
	});
});

// ----------------------------------------------------------------- 3.

describe('3. Shopify: orders/paid enrols per course product, refunds/create removes the refunded line', () => {
	const PAID = 'On Shopify order paid';
	const REFUND = 'On Shopify refund';
	const MARGARET = 'margaret.hamilton@example.com';

	test('orders/paid: enrolled in the workgroup of each mapped product (the mug is ignored)', async () => {
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
	});

	test('orders/paid again: nothing sent', async () => {
		await expectReplayIgnored('shopify', PAID, { [PAID]: SHOPIFY.ordersPaid });
	});

	test('refunds/create: removed from the refunded course only', async () => {
		const pins = { [REFUND]: SHOPIFY.refundsCreate, 'Get refunded order': SHOPIFY.ordersPaid };
		const { state } = await run('shopify', REFUND, pins);
		expect(membersOf(state, 203)).not.toContain(MARGARET);
		expect(membersOf(state, 201)).toContain(MARGARET);
		await expectReplayIgnored('shopify', REFUND, pins);
	});
});

// ----------------------------------------------------------------- 4.

describe('4. WooCommerce: order.updated to completed enrols once, refunded removes', () => {
	const TRIGGER = 'On WooCommerce order updated';
	const DOROTHY = 'dorothy.vaughan@example.com';

	test('completed: enrolled; the same order updated again while completed: nothing sent', async () => {
		const { state } = await run('woo', TRIGGER, { [TRIGGER]: WOO.orderCompleted });
		expect(membersOf(state, 202)).toContain(DOROTHY);
		expect(userByEmail(state, DOROTHY)).toMatchObject({
			firstName: 'Dorothy',
			lastName: 'Vaughan',
		});
		await expectReplayIgnored('woo', TRIGGER, {
			[TRIGGER]: { ...WOO.orderCompleted, customer_note: 'a later edit' },
		});
	});

	test('refunded: removed; again: nothing sent', async () => {
		const refunded = { ...WOO.orderCompleted, ...WOO.refundedChanges };
		const { state } = await run('woo', TRIGGER, { [TRIGGER]: refunded });
		expect(membersOf(state, 202)).not.toContain(DOROTHY);
		await expectReplayIgnored('woo', TRIGGER, { [TRIGGER]: refunded });
	});
});

// ----------------------------------------------------------------- 4b.

describe("4b. a failed enrolment: retried from n8n's executions it enrols; a resend from the tool is skipped", () => {
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

	test('Knolyx refuses the first request: the execution fails; the same event again sends nothing; Retry of the failed execution enrols', async () => {
		await sb.request('POST', '/sandbox/fault-burst', {
			requests: 1,
			faults: { errorRate: 1, errorStatuses: [400] },
		});
		const failed = await runPinned(rest, WF.woo.id, TRIGGER, { [TRIGGER]: order });
		expect(failed.status).toBe('error');
		expect(membersOf(await sb.state(), 202)).not.toContain('frances.allen@example.com');
		await sb.request('DELETE', '/sandbox/fault-burst');

		// The Remove Duplicates node recorded the key before the enrolment failed.
		await expectReplayIgnored('woo', TRIGGER, { [TRIGGER]: order });

		// n8n's Retry (Executions list) goes on from the failed node with the run's data.
		await rest.request('POST', `/rest/executions/${failed.id}/retry`, { loadWorkflow: false });
		const state = await sb.state();
		expect(membersOf(state, 202)).toContain('frances.allen@example.com');
		expect(userByEmail(state, 'frances.allen@example.com')).toMatchObject({
			firstName: 'Frances',
			lastName: 'Allen',
		});
	});
});

// ----------------------------------------------------------------- 5.

describe("5. PayPal: a captured payment enrols the order's payer, a full refund removes", () => {
	const TRIGGER = 'On PayPal payment captured or refunded';
	const ANNIE = 'annie.easley@example.com';
	const captured = { [TRIGGER]: PAYPAL.captureCompleted, 'Get PayPal order': PAYPAL.order };
	const refunded = {
		[TRIGGER]: PAYPAL.captureRefunded,
		'Get refunded capture': PAYPAL.refundedCapture,
		'Get refunded PayPal order': PAYPAL.order,
	};

	test('PAYMENT.CAPTURE.COMPLETED: enrolled by item SKU; replay: nothing sent', async () => {
		const { state } = await run('paypal', TRIGGER, captured);
		expect(membersOf(state, 201)).toContain(ANNIE);
		expect(userByEmail(state, ANNIE)).toMatchObject({ firstName: 'Annie', lastName: 'Easley' });
		await expectReplayIgnored('paypal', TRIGGER, captured);
	});

	test('PAYMENT.CAPTURE.REFUNDED: removed; replay: nothing sent', async () => {
		const { state } = await run('paypal', TRIGGER, refunded);
		expect(membersOf(state, 201)).not.toContain(ANNIE);
		await expectReplayIgnored('paypal', TRIGGER, refunded);
	});
});

// ----------------------------------------------------------------- 6.

describe('6. HubSpot: a deal moved to closedwon enrols its contact', () => {
	const TRIGGER = 'On HubSpot deal stage changed';
	const MARY = 'mary.jackson@example.com';
	const pins = (events) => ({
		[TRIGGER]: events,
		'Get deal': HUBSPOT.deal,
		'Get deal contact': HUBSPOT.contact,
	});

	test("closedwon: the deal's first contact is enrolled in the pipeline's workgroup; the event again: nothing sent", async () => {
		const { state } = await run('hubspot', TRIGGER, pins(HUBSPOT.triggerOutput));
		expect(membersOf(state, 202)).toContain(MARY);
		expect(userByEmail(state, MARY)).toMatchObject({ firstName: 'Mary', lastName: 'Jackson' });
		await expectReplayIgnored('hubspot', TRIGGER, pins(HUBSPOT.triggerOutput));
	});

	test('another stage (contractsent): nothing sent', async () => {
		const other = HUBSPOT.triggerOutput.map((e) => ({
			...e,
			eventId: e.eventId + 1,
			propertyValue: 'contractsent',
		}));
		const { knolyxRequests } = await run('hubspot', TRIGGER, pins(other));
		expect(knolyxRequests).toBe(0);
	});
});

// ----------------------------------------------------------------- 7.

describe('7. Pipedrive: a deal changed to won enrols its person (webhooks v2 and v1 bodies)', () => {
	const TRIGGER = 'On Pipedrive deal changed';
	const v2 = { [TRIGGER]: PIPEDRIVE.dealWonV2, 'Get deal person': PIPEDRIVE.personV2Deal };

	test("v2 body: the person's primary e-mail is enrolled in the pipeline's workgroup; the event again: nothing sent", async () => {
		const { state } = await run('pipedrive', TRIGGER, v2);
		expect(membersOf(state, 202)).toContain('evelyn.granville@example.com');
		expect(userByEmail(state, 'evelyn.granville@example.com')).toMatchObject({
			firstName: 'Evelyn',
			lastName: 'Boyd Granville',
		});
		expect(userByEmail(state, 'evelyn.private@example.com')).toBeUndefined();
		await expectReplayIgnored('pipedrive', TRIGGER, v2);
	});

	test('v1 body: enrolled in the workgroup of pipeline 3', async () => {
		const { state } = await run('pipedrive', TRIGGER, {
			[TRIGGER]: PIPEDRIVE.dealWonV1,
			'Get deal person': PIPEDRIVE.personV1Deal,
		});
		expect(membersOf(state, 203)).toContain('christine.darden@example.com');
	});

	test('a later edit of a deal already won (new event id, status unchanged): nothing sent', async () => {
		const edit = structuredClone(PIPEDRIVE.dealWonV2);
		edit.meta.id = '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
		edit.previous = { title: 'Advanced Automation' };
		const { knolyxRequests } = await run('pipedrive', TRIGGER, {
			[TRIGGER]: edit,
			'Get deal person': PIPEDRIVE.personV2Deal,
		});
		expect(knolyxRequests).toBe(0);
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
				lastCourseCompletedAt: event.receivedAt,
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
		const res = await fetch(`${n8n.url}/form/knolyx-event-registration`, {
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

// Every template has a describe above.
test('every examples/template-*.json is covered', () => {
	expect(TEMPLATE_FILES.sort()).toEqual(Object.values(FILE_OF).sort());
	for (const wf of Object.values(WF))
		expect(wf.nodes.filter((n) => isKnolyxType(n.type)).length).toBeGreaterThan(0);
});
