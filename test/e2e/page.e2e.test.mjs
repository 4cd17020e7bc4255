// End-to-end: the sandbox page (GET /) in headless Chromium, beside a real n8n 2.41.1.
// Run with `npm run test:e2e -- test/e2e/page` (scripts/e2e.mjs; see test/e2e/README.md).
//
//   1. Flow B runs in n8n (setup by a manual run, the enrolment by its production webhook);
//      the page shows the buyer in the course's workgroup and that workgroup in the course's rule.
//   2. The course-completed example is published; the page's "Course completed" button for
//      the buyer makes the platform deliver COURSE_COMPLETED, n8n answers 200, and the page shows it.
//   3. Contrast and width at 1280 and 390 pixels; the fault form (a burst for the next N
//      requests, shown and stopped); the ping button; nothing loaded from elsewhere.
// Screenshots (test-artifacts/e2e-<version>/): page-1280x800*.png and page-narrow-390.png.

import crypto from 'node:crypto';
import path from 'node:path';

import { EDITOR_LOAD_MS, launchBrowser, screenshot, signIn } from './lib/browser.mjs';
import { fitsWidth, lowContrastTexts } from './lib/contrast.mjs';
import {
	execution,
	nodeOutput,
	OWNER,
	PAYMENT_HOOK_HEADERS,
	readExample,
	runManually,
	startManually,
	startTestFile,
	TYPES,
	waitForExecution,
	waitForExecutions,
	waitForStatus,
} from './lib/n8n.mjs';
import { ARTIFACTS_DIR, endTestFile, RUN_DIR, waitFor } from './lib/processes.mjs';
import { DEMO } from './lib/sandbox.mjs';

const IDS = {
	flowBSetup: 'pageFlowBSetupRl',
	flowB: 'pageFlowBPayment',
	trigger: 'pageCourseDoneTr',
	approval: 'pageRuleApproval',
};
const flowBSetup = { ...readExample('flow-b-setup-course-rule.json'), id: IDS.flowBSetup };
const flowB = { ...readExample('flow-b-payment-enrolment.json'), id: IDS.flowB };
const triggerExample = readExample('course-completed-notification.json');
const triggerWf = {
	...triggerExample,
	id: IDS.trigger,
	// As published from the editor: the trigger node has its own webhook id.
	nodes: triggerExample.nodes.map((n) =>
		n.type === TYPES.trigger ? { ...n, webhookId: crypto.randomUUID() } : n,
	),
};
// A course access change after an approval: preview, a person approves in the Wait node's form, apply.
const approval = { ...readExample('rule-change-with-approval.json'), id: IDS.approval };
const FLOW_B_PATH = flowB.nodes.find((n) => n.type === 'n8n-nodes-base.webhook').parameters.path;
const NOTIFY_NODE = triggerWf.nodes.find((n) => n.type === 'n8n-nodes-base.set').name;
const manualTriggerOf = (wf) =>
	wf.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger').name;

// Demo seed (sandbox/README.md): course 101 "Intro to n8n", its workgroup 201 (the one Flow B uses).
const COURSE = { id: 101, title: 'Intro to n8n' };
const WORKGROUP = { id: 201, name: 'Intro to n8n' };
const BUYER = { email: 'barbara.liskov@example.com', firstName: 'Barbara', lastName: 'Liskov' };

let sandbox;
let sb;
let n8n;
let rest;
let browser;
let page;
/** Every URL the page loaded: all must be the sandbox's own (self-contained, works offline). */
const loaded = [];

beforeAll(async () => {
	({ sandbox, sb, n8n, rest } = await startTestFile({
		workflows: [flowBSetup, flowB, triggerWf, approval],
	}));
	({ page, ...browser } = await launchBrowser({ viewport: { width: 1280, height: 800 } }));
	page.on('request', (req) => loaded.push(req.url()));
	console.log(`[e2e page] run folder ${RUN_DIR}; sandbox ${sandbox.url}; n8n ${n8n.url}`);
}, 300_000);

afterAll(async () => {
	await browser?.close();
	await endTestFile('page', { n8n, sandbox });
}, 60_000);

/** Wait until the element's text matches (the page answers a click asynchronously); resolves with the text. */
function textMatches(selector, re) {
	return waitFor(
		async () => {
			const text = await page.locator(selector).first().innerText();
			return re.test(text) ? text : undefined;
		},
		{ what: `${selector} to match ${re}` },
	);
}

/** Run a step; on failure keep a screenshot of what the page showed. */
async function step(name, fn) {
	try {
		return await fn();
	} catch (e) {
		await screenshot(page, `failed-page-${name}`).catch(() => {});
		throw e;
	}
}

describe('the sandbox page beside a real n8n', () => {
	let buyer;

	test("after Flow B ran in n8n, the page shows the buyer in the course's workgroup", async () => {
		const setup = await runManually(rest, IDS.flowBSetup, manualTriggerOf(flowBSetup));
		expect(setup.status).toBe('success');
		await rest.activateWorkflow(IDS.flowB);
		const res = await fetch(`${n8n.url}/webhook/${FLOW_B_PATH}`, {
			method: 'POST',
			headers: PAYMENT_HOOK_HEADERS,
			body: JSON.stringify(BUYER),
		});
		expect(res.status).toBe(200);
		const [done] = await waitForExecutions(rest, IDS.flowB, 1);
		expect(done.status).toBe('success');
		buyer = (await sb.state()).users.find((u) => u.email === BUYER.email);
		expect(buyer).toBeDefined();

		await step('flow-b', async () => {
			await page.goto(`${sandbox.url}/`);
			// The buyer, in the workgroup Flow B enrols buyers in ...
			const workgroup = page.locator(`[data-workgroup-id="${WORKGROUP.id}"]`);
			await workgroup.locator(`li[data-email="${BUYER.email}"]`).waitFor();
			await expect(workgroup.innerText()).resolves.toContain(
				`${BUYER.firstName} ${BUYER.lastName}`,
			);
			await expect(workgroup.innerText()).resolves.toMatch(/1 member\b/);
			// ... which the setup flow put in one of the course's access rules.
			const rules = page.locator(`[data-course-id="${COURSE.id}"] tr[data-rule-id]`);
			const ruleTexts = await rules.allInnerTexts();
			expect(ruleTexts.filter((t) => t.includes(WORKGROUP.name))).toHaveLength(1);
			// The user list says when and how the buyer was created, and where they are.
			const userRow = page.locator(`#users tr[data-email="${BUYER.email}"]`);
			const userText = await userRow.innerText();
			expect(userText).toContain(String(buyer.id));
			expect(userText).toContain(buyer.gender);
			expect(userText).toContain(buyer.createdAt.slice(0, 10));
			expect(userText).toContain(WORKGROUP.name);
			// n8n's requests, with their status and the key that made them (masked).
			const requests = await page.locator('#requests').innerText();
			expect(requests).toMatch(/PUT\s+\/public\/api\/v1\/workgroup\/201\/member\//);
			expect(requests).toContain('d****y');
			expect(requests).not.toContain(DEMO.apiKey);
		});
	});

	test('"Course completed" for the buyer: the published trigger workflow answers the delivery 200, and the page shows it', async () => {
		await rest.activateWorkflow(IDS.trigger);
		const [hook] = await waitFor(
			async () => {
				const list = await sb.webhooks();
				return list.length === 1 ? list : undefined;
			},
			{ what: 'the Knolyx Trigger webhook on the sandbox' },
		);

		await step('course-completed', async () => {
			const webhook = page.locator(`[data-webhook-id="${hook.id}"]`);
			await webhook.waitFor(); // the page refreshed by itself
			await page.locator('#event-user').selectOption(String(buyer.id));
			await page.locator('#event-course').selectOption(String(COURSE.id));
			await page.getByRole('button', { name: 'Course completed' }).click();
			await textMatches(
				'#event-result',
				/COURSE_COMPLETED for Barbara Liskov .* sent to 1 webhook/,
			);

			const row = webhook.locator('tr[data-type="COURSE_COMPLETED"][data-status="200"]');
			await row.waitFor({ timeout: 20_000 });
			const text = await row.innerText();
			expect(text).toContain(`${BUYER.firstName} ${BUYER.lastName} · ${COURSE.title}`);
			expect(text).toMatch(/\b200\b/);
			// The token stays masked on the page.
			await expect(webhook.innerText()).resolves.toMatch(/token\s+\S{4}\*{4}\S{3}/);
		});

		// The same as the platform and n8n see it.
		const [attempt] = await sb.deliveries({
			type: 'COURSE_COMPLETED',
			waitFor: 1,
			timeoutMs: 15_000,
		});
		expect(attempt).toMatchObject({ webhookId: hook.id, ok: true, status: 200 });
		expect(attempt.body.data.user.email).toBe(BUYER.email);
		const messageId = await page
			.locator('tr[data-type="COURSE_COMPLETED"]')
			.getAttribute('data-message-id');
		expect(messageId).toBe(attempt.messageId);
		const [latest] = await waitForExecutions(rest, IDS.trigger, 1);
		const ex = await execution(rest, latest.id);
		expect(ex.status).toBe('success');
		expect(nodeOutput(ex, NOTIFY_NODE)).toEqual([expect.objectContaining({ to: BUYER.email })]);

		await page.evaluate(() => window.scrollTo(0, 0));
		await screenshot(page, 'page-1280x800');
		await page.screenshot({
			path: path.join(ARTIFACTS_DIR, 'page-1280x800-full.png'),
			fullPage: true,
		});
		await page.locator('#webhooks').scrollIntoViewIfNeeded();
		await screenshot(page, 'page-1280x800-webhooks');
	});

	test('readable: text contrast at least 4.5:1, nothing wider than the window at 1280 and at 390 pixels', async () => {
		await step('layout', async () => {
			expect(await lowContrastTexts(page)).toEqual([]);
			expect(await fitsWidth(page)).toBe(true);
			await page.setViewportSize({ width: 390, height: 844 });
			await page.evaluate(() => window.scrollTo(0, 0));
			await page.locator(`[data-workgroup-id="${WORKGROUP.id}"]`).waitFor();
			expect(await fitsWidth(page)).toBe(true);
			expect(await lowContrastTexts(page)).toEqual([]);
			await screenshot(page, 'page-narrow-390');
			await page.locator(`[data-workgroup-id="${WORKGROUP.id}"]`).scrollIntoViewIfNeeded();
			await screenshot(page, 'page-narrow-390-workgroups');
			await page.locator('#actions').scrollIntoViewIfNeeded();
			await screenshot(page, 'page-narrow-390-actions');
			await page.setViewportSize({ width: 1280, height: 800 });
		});
	});

	test('the fault form makes the next N API requests fail, and "Stop now" ends it', async () => {
		await step('faults', async () => {
			await page.locator('#fault-kind').selectOption('503');
			await page.locator('#fault-requests').fill('2');
			await page.getByRole('button', { name: 'Inject errors', exact: true }).click();
			await textMatches('#fault-status', /next 2 API requests \(of 2\) are answered 503/);
			const status = await fetch(`${sandbox.url}/public/api/v1/course`, {
				headers: { 'x-api-key': DEMO.apiKey, 'x-project-id': DEMO.projectId },
			});
			expect(status.status).toBe(503);
			await textMatches('#fault-status', /next 1 API request \(of 2\)/);
			await page.getByRole('button', { name: 'Stop now' }).click();
			await textMatches('#fault-status', /Off: the API answers normally/);
			const after = await fetch(`${sandbox.url}/public/api/v1/course`, {
				headers: { 'x-api-key': DEMO.apiKey, 'x-project-id': DEMO.projectId },
			});
			expect(after.status).toBe(200);
			// The request list: the newest answered normally, the one before by the burst.
			const rows = page.locator('#requests tbody tr');
			await textMatches('#requests tbody tr', /\b200\b/);
			await expect(rows.nth(1).innerText()).resolves.toMatch(/503\s+injected/);
		});
	});

	test('"Ping all webhooks": n8n answers the PING 200, and the page shows it', async () => {
		const [hook] = await sb.webhooks();
		const pings = page.locator(`[data-webhook-id="${hook.id}"] tr[data-type="PING"]`);
		const before = await pings.count();
		await step('ping', async () => {
			await page.getByRole('button', { name: 'Ping all webhooks' }).click();
			await textMatches('#ping-result', /PING sent to 1 webhook\./);
			await waitFor(async () => (await pings.count()) === before + 1, {
				what: 'one more PING row',
			});
			await expect(pings.first().getAttribute('data-status')).resolves.toBe('200');
		});
		const attempts = await sb.deliveries({ type: 'PING', webhookId: hook.id });
		expect(attempts.at(-1)).toMatchObject({ ok: true, status: 200 });
		expect(await pings.first().getAttribute('data-message-id')).toBe(attempts.at(-1).messageId);
	});

	test('names are shown as text, never as markup', async () => {
		const firstName = '<img src=x onerror="window.__injected=1">';
		await sb.request('POST', '/sandbox/seed', {
			users: [{ firstName, lastName: '<b>Bold</b>', email: 'markup@example.com' }],
		});
		const row = page.locator('#users tr[data-email="markup@example.com"]');
		await row.waitFor();
		await expect(row.innerText()).resolves.toContain(`${firstName} <b>Bold</b>`);
		expect(await row.locator('img, b').count()).toBe(0);
		expect(await page.evaluate(() => window.__injected)).toBeUndefined();
	});

	test('the page loaded nothing from anywhere but the sandbox', () => {
		expect(loaded.length).toBeGreaterThan(3);
		expect(loaded.filter((u) => !u.startsWith(`${sandbox.url}/`))).toEqual([]);
	});
});

// The example examples/rule-change-with-approval.json, run as a user runs it: the preview shows the
// difference and sends no write; a person approves in the Wait node's form (answered over HTTP,
// as the browser posts it); the approved change is applied exactly.
describe('a course access change after an approval (examples/rule-change-with-approval.json)', () => {
	const PREVIEW = 'Preview access change';
	const APPLY = 'Apply the approved change';
	const LINK = 'Approval link (send it to the approver)';
	const RULE = 'Staff early access'; // rule 501 of course 101 in the demo seed
	const SAVE = 'POST /public/api/v1/business-rule/course/{id}';
	let executionId;

	test('the preview sends no write; the approval form shows its summary; approved, exactly the previewed list is saved', async () => {
		const rulesBefore = (await sb.state()).rules[String(COURSE.id)];
		const savesBefore = (await sb.stats()).byRoute[SAVE] ?? 0;
		executionId = await startManually(rest, IDS.approval, manualTriggerOf(approval));
		await waitForStatus(rest, executionId, 'waiting');
		// Waiting for the approval: nothing was saved.
		expect((await sb.stats()).byRoute[SAVE] ?? 0).toBe(savesBefore);
		expect((await sb.state()).rules[String(COURSE.id)]).toEqual(rulesBefore);
		// The summary names the workgroup and the course (issue 55 §6): an approver reads a sentence.
		const summary = `Rule "${RULE}" changed: associations.WORKGROUP [] → [202]. Workgroup "Advanced Automation" (202) gains course "${COURSE.title}" (${COURSE.id}).`;
		// The link the approver gets (the example's Approval link node; on n8n 2.x it carries the
		// execution's resume token), opened on this n8n: the form shows the preview's summary.
		const waiting = await execution(rest, executionId);
		const [{ approvalUrl }] = nodeOutput(waiting, LINK);
		const { pathname, search } = new URL(approvalUrl);
		const formUrl = `${n8n.url}${pathname}${search}`;
		expect(pathname).toBe(`/form-waiting/${executionId}`);
		const form = await fetch(formUrl);
		expect(form.status).toBe(200);
		const html = await form.text();
		expect(html).toContain('Approve this course access change?');
		expect(html).toContain('Advanced Automation');
		expect(html).toContain('gains course');
		// The form as the approver sees it (docs/agents.md: rule-approval-form).
		const approver = await launchBrowser({ viewport: { width: 1280, height: 800 } });
		try {
			await approver.page.goto(formUrl);
			await approver.page.getByText('gains course', { exact: false }).first().waitFor();
			await screenshot(approver.page, 'rule-approval-form');
		} finally {
			await approver.close();
		}
		// The person approves (the form posts its fields as multipart/form-data).
		const answer = new FormData();
		answer.append('field-0', 'Approve');
		const posted = await fetch(formUrl, {
			method: 'POST',
			body: answer,
		});
		expect(posted.status).toBe(200);
		const ex = await waitForExecution(rest, executionId);
		expect(ex.status).toBe('success');
		const [shown] = nodeOutput(ex, PREVIEW);
		expect(shown).toMatchObject({ preview: true, summary });
		const [applied] = nodeOutput(ex, APPLY);
		expect(applied).toMatchObject({ action: 'workgroupAdded', changed: true, preview: false });
		// The list the apply replaced is the one the preview read, and the course now holds the
		// list the preview showed (read answers add `action` where the stored rule has none).
		expect(applied.before).toEqual(shown.before);
		const withoutAction = (rules) =>
			rules.map((rule) => {
				const copy = { ...rule };
				delete copy.action;
				return copy;
			});
		expect(withoutAction(shown.before)).toEqual(withoutAction(rulesBefore));
		expect(withoutAction((await sb.state()).rules[String(COURSE.id)])).toEqual(
			withoutAction(shown.rules),
		);
		expect((await sb.stats()).byRoute[SAVE]).toBe(savesBefore + 1);
	});

	test("the editor shows the preview's difference (screenshot rule-preview-difference)", async () => {
		expect(executionId).toBeDefined();
		const editor = await launchBrowser({ viewport: { width: 1440, height: 900 } });
		try {
			await signIn(editor.page, n8n.url, OWNER, {
				then: `/workflow/${IDS.approval}/executions/${executionId}`,
			});
			// The execution's canvas: in the page (n8n 2.x) or in the preview's iframe (1.x).
			const nodeIn = (root) =>
				root.locator('[data-test-id=canvas-node]').filter({ hasText: PREVIEW }).first();
			// The editor's first paint and its double-click under load: EDITOR_LOAD_MS.
			const root = await Promise.any(
				[editor.page, editor.page.frameLocator('iframe').first()].map(async (candidate) => {
					await nodeIn(candidate).waitFor({ timeout: EDITOR_LOAD_MS });
					return candidate;
				}),
			);
			await nodeIn(root).dblclick({ timeout: EDITOR_LOAD_MS });
			const ndv = root.locator('[data-test-id=ndv]');
			await ndv.getByText('gains course', { exact: false }).first().waitFor();
			await screenshot(editor.page, 'rule-preview-difference');
		} catch (e) {
			await screenshot(editor.page, 'failed-rule-preview-difference').catch(() => {});
			throw e;
		} finally {
			await editor.close();
		}
	}, 240_000);
});
