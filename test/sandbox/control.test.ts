import { maskSecret } from '../../sandbox/state';
import { apiClient, controlClient, DEMO, useSandbox } from './helpers';

describe('sandbox control endpoints', () => {
	const sandbox = useSandbox();

	it('dumps the state with masked secrets and resets to an empty or demo seed', async () => {
		const control = controlClient(sandbox());
		await apiClient(sandbox()).post('/webhook', {
			name: 'w',
			url: 'http://127.0.0.1:9/x',
			securityToken: 'very-secret-token',
		});
		const state = await control.get('/state');
		expect(state.data.courses.map((c: { title: string }) => c.title)).toEqual([
			'Intro to n8n',
			'Advanced Automation',
			'Data Literacy',
		]);
		expect(state.data.webhooks[0].securityToken).toBe('ve****en');
		expect(JSON.stringify(state.data)).not.toContain('very-secret-token');
		expect(JSON.stringify(state.data)).not.toContain(DEMO.apiKey);

		const empty = await control.post('/reset', { seed: 'empty' });
		expect(empty.data).toEqual({ seed: 'empty', demo: null });
		expect((await apiClient(sandbox()).get('/course')).data).toEqual([]);
		expect(sandbox().state.webhooks.size).toBe(0);

		const demo = await control.post('/reset', { seed: 'demo' });
		expect(demo.data.demo.courses['Intro to n8n']).toBe(101);
		expect(sandbox().demo?.communityId).toBe(301);
		expect((await control.post('/reset', { seed: 'other' })).status).toBe(400);
	});

	it('seeds linked data by name and returns the created ids', async () => {
		const control = controlClient(sandbox());
		const res = await control.post('/seed', {
			courses: [{ title: 'Extra Course' }],
			workgroups: [{ name: 'VIP' }],
			users: [{ firstName: 'Vi', lastName: 'P', email: 'vip@example.com' }],
			communities: [{ name: 'VIP Lounge', workgroupNames: ['VIP'] }],
			events: [{ communityName: 'VIP Lounge', title: 'Gala' }],
			members: [{ workgroupId: 205, email: 'vip@example.com' }],
			rules: { '104': [{ name: 'r', type: 'PUBLIC', anything: 1 }] },
			apiKeys: [{ apiKey: 'events-only-key', permissions: ['EVENT_MANAGE'] }],
		});
		expect(res.status).toBe(201);
		expect(res.data).toMatchObject({
			courses: [104],
			workgroups: [205],
			users: [1003],
			communities: [302],
			events: [402],
			rules: { '104': [502] },
		});

		const events = apiClient(sandbox(), 'events-only-key');
		expect((await events.post('/community/302/event/402/attend/1003')).status).toBe(200);
		expect((await events.get('/course')).status).toBe(403);
		expect((await apiClient(sandbox()).get('/business-rule/course/104')).data[0]).toMatchObject({
			id: 502,
			anything: 1,
			action: 'WORKGROUP',
		});

		expect(
			(await control.post('/seed', { events: [{ communityName: 'Nope', title: 'x' }] })).status,
		).toBe(400);
		expect((await control.post('/activity/unknown', {})).status).toBe(404);
	});
});

/**
 * Every control endpoint checks what it is sent against its own schema: only its own setting
 * names (an inherited name such as `constructor` or `__proto__` is no setting), each value of
 * its type, a JSON body only. A 400 names the field, and nothing changes.
 */
describe('control endpoints check what they are sent', () => {
	const sandbox = useSandbox();

	/** Posts a JSON text as sent (so `__proto__` arrives as an own key, as JSON.parse makes it). */
	const postRaw = async (path: string, text: string, contentType = 'application/json') =>
		await controlClient(sandbox()).post(path, text, {
			headers: { 'Content-Type': contentType },
			transformRequest: [(data: string) => data],
		});

	it('fault settings: inherited names are refused, text and number settings take their own type', async () => {
		const control = controlClient(sandbox());
		for (const path of ['/faults', '/fault-burst']) {
			const wrap = (faults: string) =>
				path === '/faults' ? faults : `{"requests":5,"faults":${faults}}`;
			const field = (name: string) => (path === '/faults' ? name : `faults.${name}`);
			for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
				const res = await postRaw(path, wrap(`{"${name}":true}`));
				expect({ path, name, status: res.status, message: res.data.message }).toEqual({
					path,
					name,
					status: 400,
					message: expect.stringContaining(`${field(name)} is not a fault setting`),
				});
			}
			const wrong: [string, unknown][] = [
				['onlyMethod', true],
				['onlyMethod', 'GET /x'],
				['onlyPath', '(['],
				['onlyPath', 1],
				['deliveryContentType', 5],
				['applyThenStatus', '502'],
				['applyThenStatus', 700],
				['retryAfter', 3600],
				['errorBody', false],
				['maxFaults', true],
				['seed', -1],
			];
			for (const [name, value] of wrong) {
				const res = await postRaw(path, wrap(JSON.stringify({ [name]: value })));
				expect({ path, name, value, status: res.status }).toEqual({
					path,
					name,
					value,
					status: 400,
				});
				expect(res.data.message).toMatch(new RegExp(`^${field(name).replace('.', '\\.')} `));
			}
			// Nothing was applied: the API still answers.
			expect((await control.get('/faults')).data).toMatchObject({
				onlyMethod: null,
				onlyPath: null,
				applyThenStatus: 502,
			});
			expect((await apiClient(sandbox()).get('/course')).status).toBe(200);

			const right = {
				onlyMethod: 'POST',
				onlyPath: '^/webhook',
				deliveryContentType: 'text/plain',
				applyThenStatus: 504,
				retryAfter: '7',
				errorBody: 'down',
				maxFaults: 2,
				seed: 9,
			};
			const res = await control.post(
				path,
				path === '/faults' ? right : { requests: 5, faults: right },
			);
			expect({ path, status: res.status }).toEqual({ path, status: 200 });
			expect(res.data.faults ?? res.data).toMatchObject(right);
			await control.delete('/faults');
		}
	});

	it('{onlyMethod: true} no longer breaks every API request', async () => {
		const control = controlClient(sandbox());
		expect((await control.post('/faults', { onlyMethod: true, errorRate: 1 })).status).toBe(400);
		expect(
			(
				await control.post('/fault-burst', {
					requests: 3,
					faults: { onlyMethod: true, errorRate: 1 },
				})
			).status,
		).toBe(400);
		expect((await apiClient(sandbox()).get('/course')).status).toBe(200);
	});

	it('POST /sandbox/ping with a text or form body is refused and pings nothing', async () => {
		const webhook = (
			await apiClient(sandbox()).post('/webhook', {
				name: 'one',
				url: 'http://127.0.0.1:9/x',
				securityToken: 'token-one-1234',
			})
		).data;
		await sandbox().waitForDeliveries({ type: 'PING' }, 5000, 1);
		const pinged = () =>
			new Set(
				sandbox()
					.deliveries({ type: 'PING' })
					.map((d) => d.messageId),
			).size;
		const before = pinged();
		for (const [text, type] of [
			['webhookId=77', 'application/x-www-form-urlencoded'],
			['77', 'text/plain'],
			['{"webhookId":77}', 'text/plain'],
		]) {
			const res = await postRaw('/ping', text, type);
			expect({ type, status: res.status, message: res.data.message }).toEqual({
				type,
				status: 400,
				message: 'Body must be JSON (Content-Type: application/json)',
			});
		}
		const inherited = await postRaw('/ping', '{"constructor":1}');
		expect([inherited.status, inherited.data.message]).toEqual([
			400,
			expect.stringMatching(/^constructor is not a setting here; use webhookId/),
		]);
		// A JSON ping sent after them is the only one sent since.
		const ping = await controlClient(sandbox()).post('/ping', { webhookId: webhook.id });
		await sandbox().waitForDeliveries({ messageId: ping.data.messages[0].messageId }, 5000);
		expect(pinged()).toBe(before + 1);
	});

	it.each([
		['post', '/reset', { seed: 'other' }, /^seed must be one of "demo", "empty"/],
		['post', '/reset', { toString: 'demo' }, /^toString is not a setting here; use seed/],
		['post', '/config', { strict: 'yes' }, /^strict must be true or false/],
		['post', '/config', { deliveryRetries: -1 }, /^deliveryRetries must be an integer >= 0/],
		['post', '/config', { deliveryTimeout: 5 }, /^deliveryTimeout is not a setting here/],
		['post', '/seed', { courses: [{}] }, /^courses\[0\]\.title must be a non-empty text/],
		[
			'post',
			'/seed',
			{ apiKeys: [{ apiKey: 'k' }] },
			/^apiKeys\[0\]\.permissions must be an array/,
		],
		[
			'post',
			'/seed',
			{ users: [{ firstName: 'A', lastName: 'B', email: 'a@example.com', constructor: 1 }] },
			/^users\[0\]\.constructor is not a setting here/,
		],
		['post', '/seed', { rules: [] }, /^rules must be a JSON object/],
		['post', '/seed', { rules: { abc: [] } }, /^rules\.abc is not a course id/],
		['post', '/keys', { apiKey: 'k', permissions: ['NOPE'] }, /^permissions\[0\] must be one of/],
		['post', '/keys', { apiKey: 'k' }, /^permissions must be an array/],
		[
			'post',
			'/activity/course-started',
			{ userId: 1001, courseId: '101' },
			/^courseId must be an integer >= 1/,
		],
		['post', '/stats/reset', { all: true }, /^all is not a setting here; none is taken/],
		['delete', '/faults', { all: true }, /^all is not a setting here/],
		[
			'get',
			'/deliveries?webhookId=abc',
			undefined,
			/^query\.webhookId must be a non-negative integer/,
		],
		['get', '/deliveries?ok=yes', undefined, /^query\.ok must be one of/],
		['get', '/deliveries?nope=1', undefined, /^query\.nope is not a query parameter here/],
	] as const)(
		'%s %s %j answers 400 naming the field and changes nothing',
		async (method, path, body, message) => {
			const before = JSON.stringify(sandbox().state.toJSON());
			const config = JSON.stringify((await controlClient(sandbox()).get('/config')).data);
			const res = await controlClient(sandbox()).request({ method, url: path, data: body });
			expect([res.status, res.data.message]).toEqual([400, expect.stringMatching(message)]);
			expect(JSON.stringify(sandbox().state.toJSON())).toBe(before);
			expect(JSON.stringify((await controlClient(sandbox()).get('/config')).data)).toBe(config);
		},
	);

	it('a secret is shown with at most a quarter of its characters', async () => {
		const control = controlClient(sandbox());
		const nine = 'k9secretX';
		expect(
			(await control.post('/keys', { apiKey: nine, permissions: ['COURSE_LIST'] })).status,
		).toBe(201);
		await apiClient(sandbox(), nine).get('/course');
		const shown = [
			(await control.get('/overview')).data.requests[0].key as string,
			((await control.get('/state')).data.apiKeys as { apiKey: string }[])
				.map((k) => k.apiKey)
				.find((k) => !k.startsWith('d'))!,
			(await apiClient(sandbox(), nine).get('/key')).data.apiKey as string,
		];
		for (const masked of shown) {
			const visible = masked.replace(/\*/g, '');
			expect({
				masked,
				ok: visible.length <= nine.length / 4 && nine.startsWith(visible.slice(0, 1)),
			}).toEqual({ masked, ok: true });
		}
		for (const secret of ['short', 'twelve-chars', 'a'.repeat(64)]) {
			const masked = maskSecret(secret);
			expect(masked.replace(/\*/g, '').length).toBeLessThanOrEqual(secret.length / 4);
			expect(masked).toContain('****');
		}
		expect(maskSecret('b'.repeat(64))).toBe('bbbb****bbb');
	});
});
