/**
 * Issue 55, items 4 and 5: a write is done only when the platform confirmed it, and a webhook id
 * is stored only when the platform lists it (or the answer is unmistakably an id). Each test plays
 * a sandbox variant (sandbox/variants.ts) whose answer says, in words or in a JSON scalar, what a
 * word list would guess at, and runs the node (or the trigger) in a real n8n-core workflow over
 * real HTTP, asserting what the platform holds afterwards and what the item says.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { membership, rl, routes, runOk, runWithOnError, userByEmail } from '../action/setup';
import { COMMUNITY_WG, useVariantSandbox } from './setup';

const { ctx, play, receiverUrl, ada, ref, attendees, startTrigger, registerGuest } =
	useVariantSandbox();

/** The node with On Error "Continue (using error output)": the regular and the error items. */
async function runToErrorOutput(parameters: INodeParameters, items: IDataObject[] = [{}]) {
	const result = await runWithOnError(ctx.sandbox, 'continueErrorOutput', parameters, items);
	expect(result.error).toBeUndefined();
	return { ok: result.items.map((i) => i.json), failed: result.errorItems.map((i) => i.json) };
}

/** What each refusal variant answers, as the error names it. */
const REFUSALS: Array<[string, () => void]> = [
	['"ERROR: quota exceeded"', () => play('writesRefusedQuota')],
	['"Forbidden"', () => play('writesRefusedForbidden')],
	['"Request failed: user not found"', () => play('writesRefusedNotFound')],
	['null', () => play('writesRefusedNull')],
	['false', () => play('writesRefusedFalse')],
];

describe('5. Attend and Add Member answered 200 with a refusal are not confirmed', () => {
	it.each(REFUSALS)(
		'%s: Event → Attend goes to the error output as not confirmed, naming the answer and the item',
		async (shown, playIt) => {
			playIt();
			const { ok, failed } = await runToErrorOutput(
				{ resource: 'event', operation: 'attend', ...ref(), userId: '={{ $json.user }}' },
				[{ user: ada() }],
			);
			expect(ok).toEqual([]);
			expect(failed).toHaveLength(1);
			const error = failed[0].error as IDataObject;
			expect(String(error.message)).toContain('not confirmed');
			expect(String(error.message)).toContain(shown);
			expect(String(error.message)).toContain('(item 0)');
			expect(attendees()).toEqual([]);
		},
	);

	it.each(REFUSALS)(
		'%s: Workgroup → Add Member goes to the error output as not confirmed',
		async (shown, playIt) => {
			playIt();
			const { ok, failed } = await runToErrorOutput({
				resource: 'workgroup',
				operation: 'addMember',
				workgroupId: rl(COMMUNITY_WG),
				email: 'alan@example.com',
			});
			expect(ok).toEqual([]);
			const error = failed[0].error as IDataObject;
			expect(String(error.message)).toContain('not confirmed');
			expect(String(error.message)).toContain(shown);
			expect(membership(ctx.sandbox, COMMUNITY_WG, 'alan@example.com')).toBeUndefined();
		},
	);

	it('Event → Register and User → Enrol in Workgroup stop at the unconfirmed membership: the user provisioned, nothing more', async () => {
		play('writesRefusedForbidden');
		const register = await runToErrorOutput(registerGuest());
		expect(register.ok).toEqual([]);
		expect(String((register.failed[0].error as IDataObject).message)).toMatch(
			/not confirmed.*"Forbidden"/,
		);
		expect(routes(ctx.sandbox)['POST /public/api/v1/community/{id}/event/{id}/attend/{id}']).toBe(
			undefined,
		);
		expect(userByEmail(ctx.sandbox, 'guest@example.com')).toBeDefined();
		expect(membership(ctx.sandbox, COMMUNITY_WG, 'guest@example.com')).toBeUndefined();
		expect(attendees()).toEqual([]);
		const enrol = await runToErrorOutput({
			resource: 'user',
			operation: 'enrol',
			email: 'bea@example.com',
			firstName: 'Bea',
			lastName: 'Buyer',
			workgroupId: rl(ctx.demo.workgroups['Data Literacy']),
		});
		expect(enrol.ok).toEqual([]);
		expect(String((enrol.failed[0].error as IDataObject).message)).toMatch(/not confirmed/);
		expect(
			membership(ctx.sandbox, ctx.demo.workgroups['Data Literacy'], 'bea@example.com'),
		).toBeUndefined();
	});

	it('a refused Attend among good items: only that item fails, the others are confirmed', async () => {
		// Ada is attending already: the 409 the guides name confirms it; the refusal does not.
		ctx.sandbox.seed({ attendance: [{ eventId: ctx.demo.eventId, userId: ada() }] });
		play('writesRefusedFalse');
		const { ok, failed } = await runToErrorOutput(
			{ resource: 'event', operation: 'attend', ...ref(), userId: '={{ $json.user }}' },
			[{ user: ada() }],
		);
		// The refusal answers before the 409: the read shows Ada attending, which confirms it.
		expect(failed).toEqual([]);
		expect(ok).toEqual([expect.objectContaining({ attending: true, userId: ada() })]);
	});
});

describe('4. webhook ids: stored only when the platform lists them, or unmistakably an id', () => {
	const only = () => {
		const hooks = [...ctx.sandbox.state.webhooks.values()];
		expect(hooks).toHaveLength(1);
		return hooks[0];
	};
	const WORDS: Array<[string, () => void]> = [
		['"Completed"', () => play('webhookCreateCompleted')],
		['"Pending"', () => play('webhookCreatePending')],
		['"None"', () => play('webhookCreateNone')],
		['"-"', () => play('webhookCreateDash')],
		['{"id": 0}', () => play('webhookCreateIdZero')],
		['{"id": " 41 "}', () => play('webhookCreateIdSpaced')],
	];

	it.each(WORDS)('%s: Webhook → Create outputs the id the list shows', async (_shown, playIt) => {
		// Webhooks 1..45 made and deleted first, so that the next id is 46, not the 41 of an answer.
		for (let i = 0; i < 45; i++) ctx.sandbox.state.nextId('webhook');
		playIt();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'webhook',
			operation: 'create',
			name: 'crm sync',
			url: receiverUrl(),
		});
		expect(out.id).toBe(only().id);
		expect(routes(ctx.sandbox)['POST /public/api/v1/webhook']).toBe(1);
	});

	it.each(WORDS)(
		'%s: the trigger stores the listed id, and deactivation deletes the real webhook',
		async (_shown, playIt) => {
			for (let i = 0; i < 45; i++) ctx.sandbox.state.nextId('webhook');
			playIt();
			const host = await startTrigger();
			await host.activate('trigger');
			const hook = only();
			const registrations = host.nodeStaticData?.registrations as Record<string, IDataObject>;
			expect(registrations[host.url('trigger')].webhookId).toBe(String(hook.id));
			await host.deactivate('trigger');
			expect(ctx.sandbox.state.webhooks.size).toBe(0);
			expect(routes(ctx.sandbox)['POST /public/api/v1/webhook']).toBe(1);
		},
	);

	it('webhookDeleteRefused: Webhook → Delete is not confirmed while the webhook is still listed', async () => {
		const [hook] = await runOk(ctx.sandbox, {
			resource: 'webhook',
			operation: 'create',
			name: 'crm',
			url: receiverUrl(),
		});
		play('webhookDeleteRefused');
		const { ok, failed } = await runToErrorOutput({
			resource: 'webhook',
			operation: 'delete',
			webhookId: String(hook.id),
		});
		expect(ok).toEqual([]);
		expect(String((failed[0].error as IDataObject).message)).toMatch(
			/not confirmed.*"ERROR: webhook not deleted"/,
		);
		expect(ctx.sandbox.state.webhooks.size).toBe(1);
	});

	it('webhookDeleteRefused: deactivation keeps the registration while the webhook stays; the next activation reuses it', async () => {
		const host = await startTrigger();
		await host.activate('trigger');
		const hook = only();
		play('webhookDeleteRefused');
		await host.deactivate('trigger');
		expect(ctx.sandbox.state.webhooks.size).toBe(1);
		const registrations = host.nodeStaticData?.registrations as Record<string, IDataObject>;
		expect(registrations[host.url('trigger')]?.webhookId).toBe(String(hook.id));
		play();
		await host.activate('trigger');
		expect(only().id).toBe(hook.id);
		expect(routes(ctx.sandbox)['POST /public/api/v1/webhook']).toBe(1);
		await host.deactivate('trigger');
		expect(ctx.sandbox.state.webhooks.size).toBe(0);
	});
});
