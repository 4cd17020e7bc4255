/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Knolyx Trigger end to end: the node hosted like n8n hosts it (test/harness
 * trigger host: n8n-core HookContext / WebhookContext over real express), the
 * platform played by the sandbox on 127.0.0.1, everything over real HTTP.
 */
import axios from 'axios';
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';
import { DEMO, startSandbox, type Sandbox } from '../../sandbox';
import { triggerHosts, type TriggerHost, type TriggerMode } from '../harness';
import { STUDENT_EVENTS, triggerOfNewProcess } from './helpers';
import { idHash, storedWindow } from './seen-window';

const TYPE = 'n8n-nodes-knolyx.knolyxTrigger';

let sandbox: Sandbox;
const hosts = triggerHosts();

async function host(
	parameters: INodeParameters = { events: STUDENT_EVENTS, options: {} },
	extra: {
		baseUrl?: string;
		webhookBaseUrl?: string;
		webhookId?: string;
		typeVersion?: number;
	} = {},
): Promise<TriggerHost> {
	return await hosts.start({
		nodeType: new KnolyxTrigger(),
		type: TYPE,
		parameters,
		credentials: {
			knolyxApi: {
				baseUrl: extra.baseUrl ?? sandbox.url,
				projectId: DEMO.projectId,
				apiKey: DEMO.apiKey,
			},
		},
		credentialTypes: [new KnolyxApi()],
		webhookBaseUrl: extra.webhookBaseUrl,
		webhookId: extra.webhookId,
		typeVersion: extra.typeVersion,
	});
}

const webhooks = () => [...sandbox.state.webhooks.values()];
const webhookFor = (h: TriggerHost, mode: TriggerMode) =>
	webhooks().find((w) => w.url === h.url(mode));
const items = (h: TriggerHost) =>
	h.executions().map((execution) => execution.map((item) => item.json));
/**
 * Static data as n8n keeps it between runs: plain JSON, as saved in and reloaded from the
 * database (the live object holds n8n's observable proxies).
 */
function asSaved(h: TriggerHost): void {
	for (const key of Object.keys(h.staticData)) {
		h.staticData[key] = JSON.parse(JSON.stringify(h.staticData[key])) as IDataObject;
	}
}
const registrations = (h: TriggerHost) =>
	(h.nodeStaticData?.registrations ?? {}) as Record<string, IDataObject>;
const put = async (url: string, body: unknown, headers: Record<string, string> = {}) =>
	await axios.put(url, body, { headers, validateStatus: () => true });

const ada = { id: expect.any(Number), name: 'Ada Lovelace', email: 'ada@example.com' };

beforeEach(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo', deliveryBackoffMs: 50 });
});

afterEach(async () => {
	jest.restoreAllMocks();
	await hosts.endAll();
	await sandbox.close();
});

describe('activation', () => {
	it('registers exactly one webhook with the production URL, a strong token and a recognisable name', async () => {
		const h = await host();
		await h.activate('trigger');

		expect(webhooks()).toHaveLength(1);
		const [webhook] = webhooks();
		expect(webhook.url).toBe(h.url('trigger'));
		expect(webhook.url).toMatch(/\/webhook\/harness-webhook-id\/webhook$/);
		expect(webhook.securityToken).toMatch(/^[0-9a-f]{64}$/);
		expect(webhook.name).toMatch(/^n8n: Harness workflow \/ Knolyx Trigger #[0-9a-f]{8}$/);
		expect(registrations(h)[h.url('trigger')]).toEqual(
			expect.objectContaining({
				webhookId: String(webhook.id),
				kind: 'production',
				secret: webhook.securityToken,
			}),
		);

		// The creation PING is acknowledged (2xx) but PING is not among the selected events.
		const [ping] = await sandbox.waitForDeliveries({ type: 'PING', webhookId: webhook.id });
		expect(ping.status).toBe(200);
		// Answered, so received: once the host has handled it, an execution would be recorded.
		await h.idle();
		expect(h.executions()).toHaveLength(0);
	});

	it('keeps the webhook it already has when activated again (checkExists)', async () => {
		const h = await host();
		await h.activate('trigger');
		const first = webhookFor(h, 'trigger');
		await h.activate('trigger');
		expect(webhooks()).toEqual([first]);
	});

	it('registers a new webhook when the old one was deleted on the platform behind n8n’s back', async () => {
		const h = await host();
		await h.activate('trigger');
		const old = webhookFor(h, 'trigger')!;
		const removed = await axios.delete(`${sandbox.url}/public/api/v1/webhook/${old.id}`, {
			headers: { 'X-Api-Key': DEMO.apiKey, 'X-Project-Id': DEMO.projectId },
		});
		expect(removed.status).toBe(200);
		expect(webhooks()).toHaveLength(0);

		await h.activate('trigger'); // as n8n does on restart: checkExists → 404 → create
		expect(webhooks()).toHaveLength(1);
		const renewed = webhookFor(h, 'trigger')!;
		expect(renewed.id).not.toBe(old.id);
		expect(renewed.securityToken).not.toBe(old.securityToken);
		expect(registrations(h)[h.url('trigger')]).toEqual(
			expect.objectContaining({ webhookId: String(renewed.id) }),
		);

		// And it works with the new token.
		sandbox.activity('course-started', {
			email: 'ada@example.com',
			courseId: sandbox.demo!.courses['Intro to n8n'],
		});
		await h.until(() => h.executions().length === 1);
	});

	it('re-registers when the stored record has an id but no secret (and deletes that old webhook)', async () => {
		const h = await host();
		await h.activate('trigger');
		const old = webhookFor(h, 'trigger')!;
		delete registrations(h)[h.url('trigger')].secret;

		await h.activate('trigger');
		expect(webhooks()).toHaveLength(1);
		expect(webhookFor(h, 'trigger')!.id).not.toBe(old.id);
	});

	it('finds its webhook in the list when the creation answer has no id', async () => {
		const h = await host();
		sandbox.setFaults({ webhookCreateReturnsNoId: true });
		await h.activate('trigger');
		sandbox.resetFaults();
		expect(webhooks()).toHaveLength(1);
		expect(registrations(h)[h.url('trigger')]).toEqual(
			expect.objectContaining({ webhookId: String(webhooks()[0].id) }),
		);
	});

	it('registers exactly once when the connection drops after the platform applied the creation', async () => {
		const h = await host();
		sandbox.setFaults({ resetAfterApplyRate: 1 });
		await h.activate('trigger');
		sandbox.resetFaults();
		expect(webhooks()).toHaveLength(1);
		expect(registrations(h)[h.url('trigger')]).toEqual(
			expect.objectContaining({
				webhookId: String(webhooks()[0].id),
				secret: webhooks()[0].securityToken,
			}),
		);
	});

	it('verifies a creation PING that arrives before the registration is stored, and runs it once', async () => {
		// The connection drops after the platform applied the creation: the node checks the list
		// after a pause, while the platform's PING is already arriving.
		const h = await host({ events: ['*'], options: {} });
		sandbox.setFaults({ resetAfterApplyRate: 1 });
		const activation = h.activate('trigger');
		await h.until(() => h.executions().length === 1);
		expect(registrations(h)[h.url('trigger')]).toBeUndefined(); // not stored yet
		await activation;
		sandbox.resetFaults();
		expect(webhooks()).toHaveLength(1);
		expect(items(h)[0]).toEqual([expect.objectContaining({ event: 'PING' })]);

		// Resent: no second execution (remembered in process memory; the static data it was
		// checked against was older than the registration, so it was not written).
		const [ping] = await sandbox.waitForDeliveries({ type: 'PING' });
		expect((await sandbox.resend(ping.messageId)).status).toBe(200);
		expect(h.executions()).toHaveLength(1);
	});

	it('fails with a NodeApiError naming the permission when the key may not manage webhooks', async () => {
		const h = await hosts.start({
			nodeType: new KnolyxTrigger(),
			type: TYPE,
			parameters: { events: STUDENT_EVENTS },
			credentials: {
				knolyxApi: { baseUrl: sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.readOnlyApiKey },
			},
			credentialTypes: [new KnolyxApi()],
		});
		const error = await h.activate('trigger').then(
			() => undefined,
			(e: unknown) => e as { name: string; description?: string; httpCode?: string },
		);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('403');
		expect(error?.description).toContain('WEBHOOK_MANAGE');
		expect(webhooks()).toHaveLength(0);
	});
});

describe('deliveries', () => {
	it('PING, course started, completed, payment and bundle payment arrive as typed items', async () => {
		const h = await host({ events: ['*'], options: {} });
		await h.activate('trigger');
		const demo = sandbox.demo!;
		const courseId = demo.courses['Intro to n8n'];
		await h.until(() => h.executions().length === 1);

		sandbox.activity('course-started', { email: 'ada@example.com', courseId });
		await h.until(() => h.executions().length === 2);
		sandbox.activity('course-completed', { email: 'ada@example.com', courseId });
		await h.until(() => h.executions().length === 3);
		sandbox.activity('course-payment', { email: 'ada@example.com', courseId });
		await h.until(() => h.executions().length === 4);
		sandbox.activity('bundle-payment', { email: 'ada@example.com', bundleId: demo.bundleId });
		await h.until(() => h.executions().length === 5);

		const receivedAt = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);
		const eventId = expect.stringMatching(/^[0-9a-f-]{36}$/);
		const course = { id: courseId, name: 'Intro to n8n' };
		expect(items(h)).toEqual([
			[{ event: 'PING', eventId, message: 'PING', receivedAt }],
			[{ event: 'COURSE_STARTED', eventId, user: ada, course, receivedAt }],
			[{ event: 'COURSE_COMPLETED', eventId, user: ada, course, receivedAt }],
			[{ event: 'COURSE_PAYMENT_RECEIVED', eventId, user: ada, course, receivedAt }],
			[
				{
					event: 'BUNDLE_PAYMENT_RECEIVED',
					eventId,
					user: ada,
					bundle: { id: demo.bundleId, slug: expect.any(String), name: 'Automation Starter Pack' },
					receivedAt,
				},
			],
		]);
		// Each item's eventId is the platform's message id.
		const sentIds = (await sandbox.waitForDeliveries({ ok: true }, 5000, 5)).map(
			(d) => d.messageId,
		);
		expect(items(h).map(([item]) => item.eventId)).toEqual([...new Set(sentIds)]);
	});

	it('gives the raw envelope with the Raw Envelope option', async () => {
		const h = await host({ events: STUDENT_EVENTS, options: { rawEnvelope: true } });
		await h.activate('trigger');
		const courseId = sandbox.demo!.courses['Data Literacy'];
		const { messages } = sandbox.activity('course-payment', {
			email: 'alan@example.com',
			courseId,
		});
		await h.until(() => h.executions().length === 1);
		expect(items(h)[0]).toEqual([
			{
				id: messages[0].messageId,
				type: 'COURSE_PAYMENT_RECEIVED',
				data: {
					user: { id: expect.any(Number), name: 'Alan Turing', email: 'alan@example.com' },
					course: { id: courseId, name: 'Data Literacy' },
				},
			},
		]);
	});

	it.each([1, 2])(
		'version %i: ids past 2^53 - 1 in a delivery come out exact, as their digits',
		async (typeVersion) => {
			const h = await host({ events: ['*'], options: {} }, { typeVersion });
			await h.activate('trigger');
			await h.until(() => h.executions().length === 1);
			const token = webhookFor(h, 'trigger')!.securityToken;
			const path = new URL(h.url('trigger')).pathname;
			// Two users whose ids a number would make one (…993 and …992 both read as …992).
			const deliver = async (id: string, userId: string) => {
				const body = `{"id":"${id}","type":"COURSE_STARTED","data":{"user":{"id":${userId},"name":"Ada","email":"ada@example.com"},"course":{"id":9007199254741001,"name":"Long"}}}`;
				const answer = await put(`${h.baseUrl}${path}`, body, {
					'Content-Type': 'application/json',
					'X-Webhook-Security-Token': token,
				});
				expect(answer.status).toBe(200);
			};
			await deliver(`v${typeVersion}-1`, '9007199254740993');
			await deliver(`v${typeVersion}-2`, '9007199254740992');
			await deliver(`v${typeVersion}-3`, '9007199254740991');
			await h.until(() => h.executions().length === 4);
			const [, first, second, third] = items(h).map(([item]) => item);
			expect(first.user).toEqual({ id: '9007199254740993', name: 'Ada', email: 'ada@example.com' });
			expect(first.course).toEqual({ id: '9007199254741001', name: 'Long' });
			expect((second.user as IDataObject).id).toBe('9007199254740992');
			// 2^53 - 1 is a number, as every id up to it.
			expect((third.user as IDataObject).id).toBe(9007199254740991);
		},
	);

	it('ignores event types that are not selected (200, no execution)', async () => {
		const h = await host({ events: ['COURSE_COMPLETED'], options: {} });
		await h.activate('trigger');
		const courseId = sandbox.demo!.courses['Intro to n8n'];
		const { messages } = sandbox.activity('course-started', { email: 'ada@example.com', courseId });
		const [attempt] = await sandbox.waitForDeliveries({ messageId: messages[0].messageId });
		expect(attempt.status).toBe(200);
		await h.idle();
		expect(h.executions()).toHaveLength(0);
	});

	it('passes unknown event types through only with "all events"', async () => {
		const selective = await host({ events: STUDENT_EVENTS, options: {} });
		const all = await host({ events: ['*'], options: {} }, { webhookId: 'all-events' });
		await selective.activate('trigger');
		await all.activate('trigger');
		await all.until(() => all.executions().length === 1);
		const envelope = {
			id: 'future-1',
			type: 'CERTIFICATE_ISSUED',
			data: { certificate: { id: 5 } },
		};
		const answerSelective = await put(selective.url('trigger'), envelope, {
			'X-Webhook-Security-Token': webhookFor(selective, 'trigger')!.securityToken,
		});
		const answerAll = await put(all.url('trigger'), envelope, {
			'X-Webhook-Security-Token': webhookFor(all, 'trigger')!.securityToken,
		});
		expect(answerSelective.status).toBe(200);
		expect(answerAll.status).toBe(200);
		expect(selective.executions()).toHaveLength(0);
		expect(items(all)[1]).toEqual([
			{
				event: 'CERTIFICATE_ISSUED',
				eventId: 'future-1',
				data: { certificate: { id: 5 } },
				receivedAt: expect.any(String),
			},
		]);
	});

	it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
		'an event type named %s is an unknown type: ignored unless "all events", then passed on as sent',
		async (type) => {
			const selective = await host({ events: STUDENT_EVENTS, options: {} });
			const all = await host({ events: ['*'], options: {} }, { webhookId: 'all-events' });
			const raw = await host(
				{ events: ['*'], options: { rawEnvelope: true } },
				{ webhookId: 'all-raw' },
			);
			for (const h of [selective, all, raw]) await h.activate('trigger');
			await all.until(() => all.executions().length === 1);
			await raw.until(() => raw.executions().length === 1);
			// One id per host: the hosts are one workflow's node to the duplicate check.
			const envelope = (h: TriggerHost) => ({
				id: `hostile-${type}-${h === all ? 'all' : h === raw ? 'raw' : 'selective'}`,
				type,
				data: { user: { id: 1 }, n: 2 },
			});
			for (const h of [selective, all, raw]) {
				const answer = await put(h.url('trigger'), envelope(h), {
					'X-Webhook-Security-Token': webhookFor(h, 'trigger')!.securityToken,
				});
				expect([type, answer.status, answer.data]).toEqual([
					type,
					200,
					h === selective
						? { received: true, ignored: 'event type not selected' }
						: { received: true },
				]);
				await h.idle();
			}
			expect(selective.executions()).toHaveLength(0);
			expect(items(all)[1]).toEqual([
				{
					event: type,
					eventId: `hostile-${type}-all`,
					data: { user: { id: 1 }, n: 2 },
					receivedAt: expect.any(String),
				},
			]);
			expect(items(raw)[1]).toEqual([envelope(raw)]);
		},
	);

	it('answers 401 to a wrong or missing token and starts no execution', async () => {
		const h = await host({ events: ['*'], options: {} });
		await h.activate('trigger');
		await h.until(() => h.executions().length === 1);
		const token = webhookFor(h, 'trigger')!.securityToken;
		const body = { id: 'forged-1', type: 'COURSE_STARTED', data: {} };

		const missing = await put(h.url('trigger'), body);
		const flipped = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
		const wrong = await put(h.url('trigger'), body, { 'X-Webhook-Security-Token': flipped });
		const short = await put(h.url('trigger'), body, { 'X-Webhook-Security-Token': 'abc' });
		const otherCase = await put(h.url('trigger'), body, {
			'X-Webhook-Security-Token': token.toUpperCase(),
		});
		for (const answer of [missing, wrong, short, otherCase]) {
			expect(answer.status).toBe(401);
			expect(JSON.stringify(answer.data)).not.toContain(token);
		}
		expect(h.executions()).toHaveLength(1);

		// The same request with the right token does run.
		const right = await put(h.url('trigger'), body, { 'X-Webhook-Security-Token': token });
		expect(right.status).toBe(200);
		expect(h.executions()).toHaveLength(2);
	});

	it('after a restart: remembers accepted ids from static data, and fails closed without a stored secret', async () => {
		// Deliveries are sent by hand to the host's own address; the public base is unreachable on purpose.
		const publicBase = 'http://127.0.0.1:9';
		const params = { events: ['*'], options: {} };
		const first = await host(params, { webhookBaseUrl: publicBase });
		await first.activate('trigger');
		const path = new URL(first.url('trigger')).pathname;
		const token = webhookFor(first, 'trigger')!.securityToken;
		const headers = { 'X-Webhook-Security-Token': token };
		const event = (id: string) => ({ id, type: 'COURSE_STARTED', data: {} });
		expect((await put(`${first.baseUrl}${path}`, event('before-restart'), headers)).status).toBe(
			200,
		);
		expect(first.executions()).toHaveLength(1);

		// A new process: the node module loaded afresh (no process memory), static data as n8n saved it.
		const second = await hosts.start({
			nodeType: await triggerOfNewProcess(),
			type: TYPE,
			parameters: params,
			credentials: {
				knolyxApi: { baseUrl: sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.apiKey },
			},
			credentialTypes: [new KnolyxApi()],
			webhookBaseUrl: publicBase,
		});
		second.staticData['node:Knolyx Trigger'] = JSON.parse(
			JSON.stringify(first.nodeStaticData),
		) as IDataObject;
		await second.activate('trigger'); // checkExists: the stored webhook still exists → kept
		expect(webhooks()).toHaveLength(1);

		expect((await put(`${second.baseUrl}${path}`, event('before-restart'), headers)).status).toBe(
			200,
		);
		expect(second.executions()).toHaveLength(0);
		expect((await put(`${second.baseUrl}${path}`, event('after-restart'), headers)).status).toBe(
			200,
		);
		expect(second.executions()).toHaveLength(1);

		delete registrations(second)[first.url('trigger')].secret;
		expect((await put(`${second.baseUrl}${path}`, event('no-secret'), headers)).status).toBe(401);
		delete registrations(second)[first.url('trigger')];
		expect((await put(`${second.baseUrl}${path}`, event('no-record'), headers)).status).toBe(401);
		expect(second.executions()).toHaveLength(1);
	});

	it('answers 400 to a body that is not an envelope, with no execution', async () => {
		const h = await host({ events: ['*'], options: {} });
		await h.activate('trigger');
		await h.until(() => h.executions().length === 1);
		const headers = { 'X-Webhook-Security-Token': webhookFor(h, 'trigger')!.securityToken };
		for (const body of [
			{ type: 'PING', data: {} },
			{ id: 'a', type: 'PING' },
			{ id: 'a', type: 'PING', data: 'x' },
			[1],
		]) {
			expect((await put(h.url('trigger'), body, headers)).status).toBe(400);
		}
		const text = await put(h.url('trigger'), 'hello', { ...headers, 'Content-Type': 'text/plain' });
		expect(text.status).toBe(400);
		expect(h.executions()).toHaveLength(1);
	});

	// n8n parses a delivery's body for version 1 whatever its Content-Type; for version 2
	// only JSON, text, form and XML bodies. The platform's Content-Type is not documented.
	it.each([1, 2])(
		'version %i reads a JSON envelope sent with any Content-Type, or none',
		async (typeVersion) => {
			const h = await host({ events: ['COURSE_STARTED'], options: {} }, { typeVersion });
			expect(h.node.typeVersion).toBe(typeVersion);
			await h.activate('trigger');
			const token = webhookFor(h, 'trigger')!.securityToken;
			const contentTypes = [
				'application/json',
				'application/json; charset=utf-8',
				'application/octet-stream',
				'application/vnd.knolyx+json',
				undefined,
			];
			for (const [i, contentType] of contentTypes.entries()) {
				const body = Buffer.from(
					JSON.stringify({
						id: `ct-${typeVersion}-${i}`,
						type: 'COURSE_STARTED',
						data: { user: { id: i } },
					}),
				);
				const answer = await axios.put(h.url('trigger'), body, {
					headers: { 'X-Webhook-Security-Token': token, 'Content-Type': contentType ?? false },
					transformRequest: [(data: Buffer) => data],
					validateStatus: () => true,
				});
				expect([contentType, answer.status, answer.data]).toEqual([
					contentType,
					200,
					{ received: true },
				]);
			}
			expect(items(h).map(([item]) => item.eventId)).toEqual(
				contentTypes.map((_, i) => `ct-${typeVersion}-${i}`),
			);
		},
	);

	/** Sends bytes as they are, with the token of h's production webhook. */
	const putBytes = async (h: TriggerHost, body: Buffer, contentType: string | undefined) =>
		await axios.put(h.url('trigger'), body, {
			headers: {
				'X-Webhook-Security-Token': webhookFor(h, 'trigger')!.securityToken,
				'Content-Type': contentType ?? false,
			},
			transformRequest: [(data: Buffer) => data],
			validateStatus: () => true,
		});

	// n8n parses the body itself for version 1 (every body) and for version 2 when it is JSON,
	// text, form or XML; either way the node sees the parsed value, so it refuses it either way.
	it.each([1, 2])(
		'version %i: a body nested deeper than any real delivery (10 000 levels in 20 KB) gets 400 and starts nothing',
		async (typeVersion) => {
			const h = await host({ events: ['*'], options: { rawEnvelope: true } }, { typeVersion });
			await h.activate('trigger');
			await h.until(() => h.executions().length === 1);
			const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
			const bodies = [
				`{"id":"deep-1","type":"COURSE_STARTED","data":{"user":{"id":1},"extra":${deep}}}`,
				`{"id":"deep-2","type":"NEW_KIND","data":{"x":${deep}}}`,
				// 33 levels: one more than the bound.
				`{"id":"deep-3","type":"NEW_KIND","data":${'{"a":'.repeat(32)}1${'}'.repeat(32)}}`,
			];
			expect(Buffer.byteLength(bodies[0])).toBeLessThan(20_100);
			for (const [i, body] of bodies.entries()) {
				for (const contentType of ['application/json', 'application/octet-stream']) {
					const answer = await putBytes(h, Buffer.from(body), contentType);
					expect({ i, contentType, status: answer.status, message: answer.data.message }).toEqual({
						i,
						contentType,
						status: 400,
						message:
							'Not a Knolyx event: the body is nested more than 32 levels deep; a Knolyx event is 3',
					});
				}
			}
			expect(h.executions()).toHaveLength(1);
			// 32 levels (the bound) and a real delivery still run, and their items can be copied.
			// (ids differ per version: the node's memory of seen ids lives as long as the process)
			const atBound = `{"id":"ok-32-v${typeVersion}","type":"NEW_KIND","data":${'{"a":'.repeat(31)}1${'}'.repeat(31)}}`;
			expect((await putBytes(h, Buffer.from(atBound), 'application/json')).status).toBe(200);
			sandbox.activity('course-started', { email: 'ada@example.com', courseId: 101 });
			await h.until(() => h.executions().length === 3);
			expect(() => structuredClone(h.executions())).not.toThrow();
		},
	);

	// The platform's charset is not documented. A body the node reads itself (any Content-Type
	// n8n leaves unparsed) is decoded with the charset it declares; one n8n parses, n8n decodes
	// (it answers 422 to a charset Node does not know, such as "iso-8859-1").
	it.each([1, 2])(
		'version %i: a body in a declared charset is read with it, or refused; never run with mangled names',
		async (typeVersion) => {
			const h = await host({ events: ['COURSE_STARTED'], options: {} }, { typeVersion });
			await h.activate('trigger');
			const name = 'José Müller-Ångström';
			const event = (id: string) =>
				JSON.stringify({
					id,
					type: 'COURSE_STARTED',
					data: {
						user: { id: 7, name, email: 'jose@example.com' },
						course: { id: 101, name: 'Crème brûlée' },
					},
				});
			const cases: [string, BufferEncoding][] = [
				['application/vnd.knolyx+json; charset=ISO-8859-1', 'latin1'],
				['application/octet-stream; charset="windows-1252"', 'latin1'],
				['application/vnd.knolyx+json; charset=UTF-16LE', 'utf16le'],
				['application/json; charset=latin1', 'latin1'],
				['application/json; charset=iso-8859-1', 'latin1'],
				['application/json; charset=utf-8', 'utf8'],
				['application/octet-stream', 'utf8'],
			];
			const accepted: string[] = [];
			for (const [i, [contentType, encoding]] of cases.entries()) {
				const id = `cs-${typeVersion}-${i}`;
				const answer = await putBytes(h, Buffer.from(event(id), encoding), contentType);
				expect([contentType, answer.status]).toEqual([contentType, expect.any(Number)]);
				if (answer.status === 200) accepted.push(id);
				else expect([contentType, answer.status]).toEqual([contentType, 422]);
			}
			// Every body the node read itself was accepted; n8n refused only the JSON one in a charset Node does not know.
			expect(accepted).toEqual([0, 1, 2, 3, 5, 6].map((i) => `cs-${typeVersion}-${i}`));
			for (const [item] of items(h)) {
				expect(item).toMatchObject({ user: { name }, course: { name: 'Crème brûlée' } });
			}

			// A charset that cannot be decoded, and bytes that are not what is declared: refused, nothing started.
			const refused: [string | undefined, Buffer, number, string][] = [
				[
					'application/vnd.knolyx+json; charset=x-klingon',
					Buffer.from(event('cs-x')),
					415,
					'The body\'s charset "x-klingon" is not supported; send UTF-8',
				],
				[
					'application/octet-stream',
					Buffer.from(event('cs-y'), 'latin1'),
					400,
					'The body is not valid UTF-8 (no charset declared)',
				],
				[
					undefined,
					Buffer.from(event('cs-z'), 'latin1'),
					400,
					'The body is not valid UTF-8 (no charset declared)',
				],
				[
					'application/vnd.knolyx+json; charset=utf-8',
					Buffer.from(event('cs-w'), 'latin1'),
					400,
					'The body is not valid utf-8',
				],
			];
			for (const [contentType, body, status, message] of refused) {
				const answer = await putBytes(h, body, contentType);
				expect([contentType, answer.status, answer.data.message]).toEqual([
					contentType,
					status,
					message,
				]);
			}
			expect(items(h)).toHaveLength(accepted.length);
		},
	);

	it('a resent message id starts no second execution', async () => {
		const h = await host();
		await h.activate('trigger');
		const courseId = sandbox.demo!.courses['Intro to n8n'];
		const { messages } = sandbox.activity('course-started', { email: 'ada@example.com', courseId });
		await h.until(() => h.executions().length === 1);

		const again = await sandbox.resend(messages[0].messageId);
		expect(again.status).toBe(200);
		const twice = await sandbox.resend(messages[0].messageId);
		expect(twice.status).toBe(200);
		await h.idle();
		expect(h.executions()).toHaveLength(1);

		// The id is kept in static data (what survives a restart), per registration kind.
		expect(storedWindow(h.nodeStaticData).hashes).toContain(idHash(messages[0].messageId));
		// A new message is still accepted.
		sandbox.activity('course-payment', { email: 'ada@example.com', courseId });
		await h.until(() => h.executions().length === 2);
	});

	it('the same message delivered three times at once runs once', async () => {
		const h = await host({ events: ['*'], options: {} });
		await h.activate('trigger');
		await h.until(() => h.executions().length === 1);
		const envelope = { id: 'manual-dup', type: 'COURSE_STARTED', data: {} };
		const headers = { 'X-Webhook-Security-Token': webhookFor(h, 'trigger')!.securityToken };
		const answers = await Promise.all(
			[1, 2, 3].map(async () => await put(h.url('trigger'), envelope, headers)),
		);
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
		expect(h.executions()).toHaveLength(2);
	});
});

describe('deactivation', () => {
	it('leaves no webhook and no record behind', async () => {
		const h = await host();
		await h.activate('trigger');
		expect(webhooks()).toHaveLength(1);
		await h.deactivate('trigger');
		expect(webhooks()).toHaveLength(0);
		expect(registrations(h)).toEqual({});
	});

	it('treats a webhook already deleted on the platform as deleted', async () => {
		const h = await host();
		await h.activate('trigger');
		sandbox.state.webhooks.clear();
		await h.deactivate('trigger');
		expect(registrations(h)).toEqual({});
	});

	it('20 activate/deactivate cycles leave 0 orphans', async () => {
		const h = await host();
		for (let i = 0; i < 20; i++) {
			await h.activate('trigger');
			expect(webhooks()).toHaveLength(1);
			await h.deactivate('trigger');
		}
		expect(webhooks()).toHaveLength(0);
		expect(registrations(h)).toEqual({});
		expect(sandbox.stats().byRoute['POST /public/api/v1/webhook']).toBe(20);
	});

	it('a failed delete is logged, not thrown, and the record is kept for the next activation', async () => {
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		const h = await host();
		await h.activate('trigger');
		const webhook = webhookFor(h, 'trigger')!;
		sandbox.setFaults({ errorRate: 1, errorStatuses: [500] });
		await h.deactivate('trigger');
		sandbox.resetFaults();
		expect(warn).toHaveBeenCalledWith(
			expect.stringContaining(`could not delete webhook ${webhook.id}`),
			expect.anything(),
		);
		expect(registrations(h)[h.url('trigger')]).toEqual(
			expect.objectContaining({ webhookId: String(webhook.id) }),
		);

		// The next activation finds it still there and reuses it: still exactly one.
		await h.activate('trigger');
		expect(webhooks()).toEqual([webhook]);
	});
});

describe('test URL and production URL', () => {
	it('"Listen for test event" shows the creation PING at once, then removes only the test webhook', async () => {
		const h = await host();
		await h.activate('trigger');
		const production = webhookFor(h, 'trigger')!;

		asSaved(h);
		await h.activate('manual');
		await h.until(() => h.executions().length === 1);
		expect(items(h)[0]).toEqual([
			{
				event: 'PING',
				eventId: expect.any(String),
				message: 'PING',
				receivedAt: expect.any(String),
			},
		]);
		const [testPing] = await sandbox.waitForDeliveries(
			(d) => d.type === 'PING' && d.url === h.url('manual'),
		);
		expect(testPing.status).toBe(200);
		expect(testPing.webhookId).not.toBe(production.id);

		// The test listener stopped after its execution: its webhook is gone, production's is intact.
		await h.until(() => webhooks().length === 1);
		expect(webhooks()).toEqual([production]);
		expect(registrations(h)[h.url('trigger')]).toEqual(
			expect.objectContaining({ webhookId: String(production.id) }),
		);
	});

	it('a test listener stopped by a PING that beat its own registration still deletes its webhook', async () => {
		const h = await host();
		sandbox.setFaults({ resetAfterApplyRate: 1 });
		await h.activate('manual');
		await h.until(() => h.executions().length === 1);
		sandbox.resetFaults();
		expect(items(h)[0]).toEqual([expect.objectContaining({ event: 'PING', message: 'PING' })]);
		await h.until(() => webhooks().length === 0);
		expect(sandbox.stats().byRoute['POST /public/api/v1/webhook']).toBe(1);
	});

	it('both registrations coexist, each with its own token, and neither removes the other', async () => {
		const h = await host({ events: STUDENT_EVENTS, options: { pingInTest: false } });
		await h.activate('manual');
		await h.activate('trigger');
		expect(webhooks()).toHaveLength(2);
		const test = webhookFor(h, 'manual')!;
		const production = webhookFor(h, 'trigger')!;
		expect(test.name).toMatch(/^n8n: Harness workflow \/ Knolyx Trigger \(test\) #[0-9a-f]{8}$/);
		expect(test.securityToken).not.toBe(production.securityToken);
		// PING on the test URL is off here; both creation PINGs answered and handled, no execution.
		await sandbox.waitForDeliveries({ type: 'PING' }, undefined, 2);
		await h.idle();
		expect(h.executions()).toHaveLength(0);

		// Each token works only on its own URL.
		const body = { id: 'cross-1', type: 'COURSE_STARTED', data: {} };
		expect(
			(await put(h.url('trigger'), body, { 'X-Webhook-Security-Token': test.securityToken }))
				.status,
		).toBe(401);
		expect(
			(await put(h.url('manual'), body, { 'X-Webhook-Security-Token': production.securityToken }))
				.status,
		).toBe(401);

		// A student event reaches both; the test listener then stops, production stays.
		sandbox.activity('course-started', {
			email: 'ada@example.com',
			courseId: sandbox.demo!.courses['Intro to n8n'],
		});
		await h.until(() => h.executions().length === 2);
		// The node answers the delivery itself; the listener stops (its webhook removed) right after.
		await sandbox.waitForDeliveries(
			(d) => d.type === 'COURSE_STARTED' && d.url === h.url('manual'),
		);
		await h.until(() => webhooks().length === 1);
		expect(webhooks()).toEqual([production]);

		// Listening again, then deactivating production, leaves the test registration alone.
		asSaved(h);
		await h.activate('manual');
		expect(webhooks()).toHaveLength(2);
		await h.deactivate('trigger');
		expect(webhooks().map((w) => w.url)).toEqual([h.url('manual')]);
		await h.deactivate('manual');
		expect(webhooks()).toHaveLength(0);
	});
});

describe('webhook URLs the platform refuses', () => {
	it('against a local sandbox: registers anyway and logs a clear warning', async () => {
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		const h = await host();
		await h.activate('trigger');
		expect(webhooks()).toHaveLength(1);
		const messages = warn.mock.calls.map((call) => String(call[0]));
		expect(messages).toContainEqual(
			expect.stringContaining(`${h.url('trigger')} cannot receive Knolyx events`),
		);
		expect(messages).toContainEqual(expect.stringContaining('WEBHOOK_URL'));
	});

	it('against a platform that refuses it (strict sandbox): a clear error with the WEBHOOK_URL hint', async () => {
		sandbox.config.strict = true;
		const h = await host();
		const error = await h.activate('trigger').then(
			() => undefined,
			(e: unknown) => e as { name: string; message: string; description?: string },
		);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toContain('plain http');
		expect(error?.message).toContain('localhost');
		expect(error?.message).toContain('Webhook URL must use https'); // the platform's own words
		expect(error?.description).toContain('WEBHOOK_URL');
		expect(error?.description).toContain('tunnel');
		expect(webhooks()).toHaveLength(0);
	});

	it('against the hosted platform: refused before any request', async () => {
		const h = await host(undefined, { baseUrl: 'https://api.knolyx.com' });
		const error = await h.activate('trigger').then(
			() => undefined,
			(e: unknown) => e as { name: string; message: string; description?: string },
		);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain(h.url('trigger'));
		expect(error?.description).toContain('WEBHOOK_URL');
	});

	it('a public https WEBHOOK_URL passes a strict platform', async () => {
		sandbox.config.strict = true;
		const h = await host(undefined, { webhookBaseUrl: 'https://n8n.example.com' });
		await h.activate('trigger');
		expect(webhooks().map((w) => w.url)).toEqual([
			'https://n8n.example.com/webhook/harness-webhook-id/webhook',
		]);
	});
});

describe('the secret stays secret', () => {
	it('appears in no item, log line or error', async () => {
		const logger = Container.get(Logger);
		const logged: unknown[] = [];
		for (const level of ['error', 'warn', 'info', 'debug'] as const) {
			jest.spyOn(logger, level).mockImplementation((...args: unknown[]) => {
				logged.push(args);
			});
		}
		const h = await host({ events: ['*'], options: {} });
		await h.activate('trigger');
		await h.until(() => h.executions().length === 1);
		const secret = webhookFor(h, 'trigger')!.securityToken;
		const errors: unknown[] = [];
		for (const body of [{ bad: true }, { id: 'z', type: 'COURSE_STARTED', data: {} }]) {
			errors.push((await put(h.url('trigger'), body, { 'X-Webhook-Security-Token': secret })).data);
			errors.push((await put(h.url('trigger'), body, { 'X-Webhook-Security-Token': 'nope' })).data);
		}
		// An activation that fails (strict platform) with the secret in flight.
		sandbox.config.strict = true;
		const second = await host({ events: ['*'] }, { webhookId: 'second' });
		await second
			.activate('trigger')
			.catch((error: unknown) => errors.push(error, (error as Error).message));

		const everything = JSON.stringify({ items: items(h), logged, errors });
		expect(everything).not.toContain(secret);
		expect(everything).not.toMatch(/[0-9a-f]{64}/);
		for (const webhook of webhooks()) expect(everything).not.toContain(webhook.securityToken);
	});
});
