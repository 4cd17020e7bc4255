// End-to-end: the Event picker of the Knolyx node in n8n's editor (headless Chromium), and a
// workflow saved before it existed (the Flow A example: eventId is the plain string "401").
// Run with `npm run test:e2e -- test/e2e/event-picker` (scripts/e2e.mjs; see test/e2e/README.md).
//
//   1. Flow A as saved (plain-string eventId) runs in n8n: Grace attends event 401.
//   2. Its node opened in the editor shows the saved 401 in the Event field, which is a picker
//      with the From List / By ID modes.
//   3. A node whose Event is "From List" lists the events of the community typed (the demo's
//      "Monthly Automation Meetup"); picking it saves { __rl, mode: 'list', value: '401' } and the
//      workflow runs with it.
// Screenshots (test-artifacts/e2e-<version>/): event-picker-*.png.

import { EDITOR_LOAD_MS, launchBrowser, screenshot, signIn } from './lib/browser.mjs';
import { nodeOutput, OWNER, readExample, runManually, startTestFile, TYPES } from './lib/n8n.mjs';
import { endTestFile, waitFor } from './lib/processes.mjs';

const SEED = { community: 301, event: 401, title: 'Monthly Automation Meetup' };
const flowA = { ...readExample('flow-a-event-registration.json'), id: 'pickerFlowAOld01' };
const REGISTER = flowA.nodes.find((n) => n.type === TYPES.action).name;
const TRIGGER = flowA.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger').name;
// The same workflow with the Event left empty in "From List" mode, as a new node has it.
const picked = {
	...flowA,
	id: 'pickerFlowAList1',
	name: 'e2e: Flow A, event from the list',
	nodes: flowA.nodes.map((n) =>
		n.name === REGISTER
			? { ...n, parameters: { ...n.parameters, eventId: { __rl: true, mode: 'list', value: '' } } }
			: n,
	),
};

let sandbox;
let n8n;
let rest;
let browser;
let page;

beforeAll(async () => {
	expect(flowA.nodes.find((n) => n.name === REGISTER).parameters.eventId).toBe(String(SEED.event));
	({ sandbox, n8n, rest } = await startTestFile({ workflows: [flowA, picked] }));
	({ page, ...browser } = await launchBrowser());
	await signIn(page, n8n.url, OWNER);
}, 300_000);

afterAll(async () => {
	await browser?.close();
	await endTestFile('event-picker', { n8n, sandbox });
}, 60_000);

/** A test that opens a node: the paint, the double-click and the rest of the test. */
const EDITOR_TEST_MS = 2 * EDITOR_LOAD_MS + 60_000;

/** The workflow's Register node opened in the editor: its panel and its Event field, in view. */
async function openEventPicker(workflowId) {
	await page.goto(`${n8n.url}/workflow/${workflowId}`);
	const node = page.locator('[data-test-id=canvas-node]', { hasText: REGISTER });
	await node.waitFor({ timeout: EDITOR_LOAD_MS });
	await node.dblclick({ timeout: EDITOR_LOAD_MS });
	const ndv = page.locator('[data-test-id=ndv]');
	await ndv.waitFor();
	const event = ndv.locator('[data-test-id=resource-locator-eventId]');
	await event.scrollIntoViewIfNeeded();
	return { ndv, event };
}

async function runAndRead(workflowId) {
	const ex = await runManually(rest, workflowId, TRIGGER);
	return { status: ex.status, out: nodeOutput(ex, REGISTER) };
}

test('a workflow saved with a plain event ID string runs as before', async () => {
	const { status, out } = await runAndRead(flowA.id);
	expect(status).toBe('success');
	expect(out).toEqual([
		expect.objectContaining({ email: 'grace@example.com', eventId: SEED.event, attending: true }),
	]);
});

test(
	'its node shows the saved ID in the Event picker',
	async () => {
		const { ndv, event } = await openEventPicker(flowA.id);
		await screenshot(page, 'event-picker-1-saved-plain-id');
		await expect(event.locator('[data-test-id=rlc-input]').first().inputValue()).resolves.toBe(
			String(SEED.event),
		);
		await expect(event.locator('[data-test-id=rlc-mode-selector]').count()).resolves.toBe(1);
		await page.keyboard.press('Escape');
		await ndv.waitFor({ state: 'hidden' });
	},
	EDITOR_TEST_MS,
);

test(
	'From List lists the events of the community typed; the picked one is saved and runs',
	async () => {
		const { ndv, event } = await openEventPicker(picked.id);
		await event.locator('[data-test-id=rlc-input]').first().click();
		const item = page.locator('[data-test-id=rlc-item]', { hasText: SEED.title });
		await item.first().waitFor({ timeout: 30_000 });
		await screenshot(page, 'event-picker-2-list');
		await item.first().click();
		await expect(event.locator('[data-test-id=rlc-input]').first().inputValue()).resolves.toContain(
			SEED.title,
		);
		await page.keyboard.press('Escape');
		await ndv.waitFor({ state: 'hidden' });
		await page.keyboard.press('Control+s');
		const saved = await waitFor(
			async () => {
				const wf = await rest.request('GET', `/rest/workflows/${picked.id}`);
				const value = wf.nodes.find((n) => n.name === REGISTER).parameters.eventId;
				return value?.value ? value : undefined;
			},
			{ what: 'the editor to save the picked event' },
		);
		expect(saved).toMatchObject({ __rl: true, mode: 'list', value: String(SEED.event) });
		const { status, out } = await runAndRead(picked.id);
		expect(status).toBe('success');
		expect(out).toEqual([
			expect.objectContaining({ eventId: SEED.event, attending: true, alreadyAttending: true }),
		]);
	},
	EDITOR_TEST_MS,
);
