import { startSandbox } from '../../sandbox';
import { apiClient, controlClient, startReceiver, useSandbox, type Receiver } from './helpers';

describe('sandbox webhooks and deliveries', () => {
	const sandbox = useSandbox();
	let receiver: Receiver;
	beforeEach(async () => {
		receiver = await startReceiver();
	});
	afterEach(() => receiver.close());

	const create = (token = 'secret-token') =>
		apiClient(sandbox()).post('/webhook', {
			name: 'n8n trigger',
			url: receiver.url,
			securityToken: token,
		});

	it('creates a webhook (201 with an integer id) and PUTs a PING with the token header', async () => {
		const res = await create();
		expect(res.status).toBe(201);
		expect(res.data).toEqual({
			id: expect.any(Number),
			name: 'n8n trigger',
			url: receiver.url,
			createdAt: expect.any(String),
		});

		const [attempt] = await sandbox().waitForDeliveries(
			{ type: 'PING', webhookId: res.data.id, ok: true },
			3000,
		);
		expect(attempt.status).toBe(200);
		expect(receiver.calls).toHaveLength(1);
		const call = receiver.calls[0];
		expect(call.method).toBe('PUT');
		expect(call.headers['x-webhook-security-token']).toBe('secret-token');
		expect(call.headers['content-type']).toContain('application/json');
		expect(call.body).toEqual({ id: attempt.messageId, type: 'PING', data: { message: 'PING' } });
		expect(call.body.id).toMatch(
			/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
		);
	});

	it('lists, reads, pings and deletes webhooks without ever returning the token', async () => {
		const api = apiClient(sandbox());
		const { id } = (await create()).data;
		const list = await api.get('/webhook');
		expect(list.data).toEqual([expect.objectContaining({ id, url: receiver.url })]);
		expect(JSON.stringify(list.data)).not.toContain('secret-token');
		expect((await api.get(`/webhook/${id}`)).data).not.toHaveProperty('securityToken');
		expect((await api.get('/webhook/9999')).data).toMatchObject({
			status: 404,
			message: 'Entity not found',
		});

		expect((await api.post('/webhook/ping')).data.delivered).toBe(1);
		expect((await api.post(`/webhook/${id}/ping`)).status).toBe(200);
		expect((await api.post('/webhook/9999/ping')).status).toBe(404);
		await sandbox().waitForDeliveries({ type: 'PING', ok: true }, 3000, 3);

		expect((await api.delete(`/webhook/${id}`)).status).toBe(200);
		expect((await api.delete(`/webhook/${id}`)).status).toBe(404);
		expect((await api.get('/webhook')).data).toEqual([]);
	});

	it('validates the creation body', async () => {
		const api = apiClient(sandbox());
		for (const [body, field] of [
			[{ url: receiver.url, securityToken: 't' }, 'name'],
			[{ name: 'n', securityToken: 't' }, 'url'],
			[{ name: 'n', url: 'ftp://example.com/x', securityToken: 't' }, 'url'],
			[{ name: 'n', url: 'not a url', securityToken: 't' }, 'url'],
			[{ name: 'n', url: receiver.url }, 'securityToken'],
		] as const) {
			const res = await api.post('/webhook', body);
			expect(res.status).toBe(400);
			expect(res.data.message).toContain(field);
		}
	});

	it('emits activity events to every webhook, once per course completion, and resends with the same id', async () => {
		const other = await startReceiver();
		try {
			await create('token-a');
			await apiClient(sandbox()).post('/webhook', {
				name: 'second',
				url: other.url,
				securityToken: 'token-b',
			});
			await sandbox().waitForDeliveries({ type: 'PING', ok: true }, 3000, 2);
			const control = controlClient(sandbox());

			const done = await control.post('/activity/course-completed', {
				email: 'ada@example.com',
				courseId: 101,
			});
			expect(done.data).toMatchObject({ type: 'COURSE_COMPLETED', emitted: true });
			expect(done.data.messages).toHaveLength(2);
			const again = await control.post('/activity/course-completed', {
				userId: 1001,
				courseId: 101,
			});
			expect(again.data).toEqual({ type: 'COURSE_COMPLETED', emitted: false, messages: [] });

			await control.post('/activity/course-started', { userId: 1002, courseId: 102 });
			await control.post('/activity/course-payment', { email: 'ada@example.com', courseId: 103 });
			await control.post('/activity/bundle-payment', { email: 'ada@example.com', bundleId: 601 });
			expect(
				(
					await control.post('/activity/course-started', {
						email: 'nobody@example.com',
						courseId: 101,
					})
				).status,
			).toBe(404);

			const waited = await control.get('/deliveries', {
				params: { webhookId: 1, ok: true, waitFor: 5, timeoutMs: 3000 },
			});
			expect(waited.data.map((d: { type: string }) => d.type).sort()).toEqual(
				[
					'BUNDLE_PAYMENT_RECEIVED',
					'COURSE_COMPLETED',
					'COURSE_PAYMENT_RECEIVED',
					'COURSE_STARTED',
					'PING',
				].sort(),
			);
			const completed = receiver.calls.find((c) => c.body.type === 'COURSE_COMPLETED');
			expect(completed?.body.data).toEqual({
				user: { id: 1001, name: 'Ada Lovelace', email: 'ada@example.com' },
				course: { id: 101, name: 'Intro to n8n' },
			});
			const bundle = receiver.calls.find((c) => c.body.type === 'BUNDLE_PAYMENT_RECEIVED');
			expect(bundle?.body.data.bundle).toEqual({
				id: 601,
				slug: 'automation-starter-pack',
				name: 'Automation Starter Pack',
			});
			expect(
				other.calls.find((c) => c.body.type === 'COURSE_COMPLETED')?.headers[
					'x-webhook-security-token'
				],
			).toBe('token-b');

			const messageId = completed?.body.id as string;
			const resent = await control.post(`/deliveries/${messageId}/resend`);
			expect(resent.data).toMatchObject({ messageId, ok: true, status: 200 });
			const copies = receiver.calls.filter((c) => c.body.id === messageId);
			expect(copies).toHaveLength(2);
			expect(copies[1].body).toEqual(copies[0].body);
			expect((await control.post('/deliveries/unknown-id/resend')).status).toBe(404);
		} finally {
			await other.close();
		}
	});

	it('retries a delivery that is not answered 2xx, with the same message id', async () => {
		receiver.statuses = [500, 503];
		await create();
		const attempts = await sandbox().waitForDeliveries({ type: 'PING' }, 3000, 3);
		expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
			[1, 500],
			[2, 503],
			[3, 200],
		]);
		expect(new Set(receiver.calls.map((c) => c.body.id)).size).toBe(1);
	});

	it('can answer webhook creation without an id (fault)', async () => {
		sandbox().setFaults({ webhookCreateReturnsNoId: true });
		const res = await create();
		expect(res.status).toBe(201);
		expect(res.data).toEqual({});
		expect(sandbox().state.webhooks.size).toBe(1);
		expect(sandbox().stats().faultsInjected.webhookNoId).toBe(1);
	});

	it.each([
		['application/octet-stream', 'application/octet-stream'],
		[null, undefined],
	])('can send deliveries with Content-Type %s', async (setting, header) => {
		sandbox().setFaults({ deliveryContentType: setting });
		const res = await create();
		await sandbox().waitForDeliveries({ type: 'PING', webhookId: res.data.id, ok: true }, 3000);
		expect(receiver.calls).toHaveLength(1);
		expect(receiver.calls[0].headers['content-type']).toBe(header);
		expect(receiver.calls[0].body).toMatchObject({ type: 'PING', data: { message: 'PING' } });
	});
});

describe('sandbox strict webhook URLs', () => {
	it('refuses http and localhost URLs in strict mode and accepts them otherwise', async () => {
		const strict = await startSandbox({ port: 0, strict: true });
		try {
			const api = apiClient(strict);
			for (const url of [
				'http://example.com/hook',
				'https://localhost/hook',
				'https://127.0.0.2:8443/x',
				'https://[::1]/x',
			]) {
				const res = await api.post('/webhook', { name: 'n', url, securityToken: 't' });
				expect(res.status).toBe(400);
				expect(res.data.message).toBe('Webhook URL must use https and must not point to localhost');
			}
			const ok = await api.post('/webhook', {
				name: 'n',
				url: 'https://hooks.example.com/x',
				securityToken: 't',
			});
			expect(ok.status).toBe(201);
			// Turned off at run time through the control endpoint.
			await controlClient(strict).post('/config', { strict: false });
			expect(
				(await api.post('/webhook', { name: 'n', url: 'http://127.0.0.1:1/x', securityToken: 't' }))
					.status,
			).toBe(201);
		} finally {
			await strict.close();
		}
	});
});
