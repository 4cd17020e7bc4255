/** The sandbox page and the endpoints it uses: GET /, /sandbox/overview, /sandbox/ping, /sandbox/fault-burst. Real HTTP. */
import axios from 'axios';
import { RecentRequests } from '../../sandbox/page/recent-requests';
import {
	apiClient,
	controlClient,
	DEMO,
	futureDate,
	startReceiver,
	useSandbox,
	type Receiver,
} from './helpers';

describe('sandbox page', () => {
	const sandbox = useSandbox();
	let receiver: Receiver | undefined;
	afterEach(async () => {
		await receiver?.close();
		receiver = undefined;
	});

	const overview = async () => {
		const res = await controlClient(sandbox()).get('/overview');
		expect(res.status).toBe(200);
		return res.data;
	};

	describe('the page itself', () => {
		it('is served at / and /sandbox with its own script and stylesheet only (works offline)', async () => {
			const base = sandbox().url;
			for (const path of ['/', '/sandbox', '/sandbox/']) {
				const res = await axios.get(base + path, {
					validateStatus: () => true,
					responseType: 'text',
				});
				expect(res.status).toBe(200);
				expect(res.headers['content-type']).toMatch(/^text\/html/);
				expect(res.headers['content-security-policy']).toContain("default-src 'none'");
				expect(res.headers['content-security-policy']).toContain("script-src 'self'");
				expect(res.data).toContain('<title>Knolyx sandbox</title>');
			}
			const html = (await axios.get(base + '/', { responseType: 'text' })).data as string;
			const refs = [...html.matchAll(/(?:src|href)="([^"#]+)"/g)]
				.map((m) => m[1])
				.filter((r) => !r.startsWith('data:'));
			expect(refs).toEqual(
				expect.arrayContaining(['/sandbox/page/page.css', '/sandbox/page/page.js']),
			);
			for (const ref of refs) {
				// Same origin only: no CDN, no web font, no absolute URL.
				expect(ref).toMatch(/^\/[a-z]/);
				const res = await axios.get(base + ref, {
					validateStatus: () => true,
					responseType: 'text',
				});
				expect({ ref, status: res.status }).toEqual({ ref, status: 200 });
			}
			const css = await axios.get(base + '/sandbox/page/page.css', { responseType: 'text' });
			const js = await axios.get(base + '/sandbox/page/page.js', { responseType: 'text' });
			expect(css.headers['content-type']).toMatch(/^text\/css/);
			expect(js.headers['content-type']).toMatch(/^text\/javascript/);
			for (const text of [html, css.data as string, js.data as string]) {
				expect(text).not.toMatch(/https?:\/\//);
				expect(text).not.toMatch(/@import|@font-face|url\(\s*['"]?\/\//);
			}
			expect(
				(await axios.get(base + '/sandbox/page/secrets.txt', { validateStatus: () => true }))
					.status,
			).toBe(404);
		});
	});

	describe('GET /sandbox/overview', () => {
		it('shows users, memberships with removal dates, rules with workgroup names, events with attendees', async () => {
			const api = apiClient(sandbox());
			const removal = futureDate(30);
			expect(
				(
					await api.post('/user/provision', {
						firstName: 'Barbara',
						lastName: 'Liskov',
						email: 'barbara@example.com',
						gender: 'FEMALE',
					})
				).status,
			).toBe(201);
			expect(
				(await api.put('/workgroup/201/member/barbara@example.com/', { removalDate: removal }))
					.status,
			).toBe(200);
			expect((await api.put('/workgroup/204/member/alan@example.com/', {})).status).toBe(200);
			const rules = (await api.get('/business-rule/course/101')).data;
			const rule = {
				name: 'Paid access',
				type: 'PUBLIC',
				startDateTime: '2026-01-01 00:00:00',
				endDateTime: '2027-01-01 00:00:00',
				restrictions: { minimumTime: false, browseOrder: 'FREE' },
				associations: { WORKGROUP: [201, 999] },
			};
			expect((await api.post('/business-rule/course/101', [...rules, rule])).status).toBe(200);
			expect((await api.post('/community/301/event/401/attend/1002')).status).toBe(200);

			const o = await overview();
			// Newest first, with the workgroups each user is in.
			expect(o.users[0]).toMatchObject({
				firstName: 'Barbara',
				email: 'barbara@example.com',
				gender: 'FEMALE',
				workgroups: [{ id: 201, name: 'Intro to n8n' }],
			});
			expect(o.users[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
			expect(o.users[0]).not.toHaveProperty('role');
			expect(o.users.map((u: { id: number }) => u.id)).toEqual([1003, 1002, 1001]);

			const wg201 = o.workgroups.find((w: { id: number }) => w.id === 201);
			expect(wg201).toEqual({
				id: 201,
				name: 'Intro to n8n',
				memberCount: 1,
				members: [
					expect.objectContaining({
						userId: 1003,
						name: 'Barbara Liskov',
						email: 'barbara@example.com',
						removalDate: removal,
						active: true,
					}),
				],
			});
			const course = o.courses.find((c: { id: number }) => c.id === 101);
			expect(course.ruleCount).toBe(2);
			expect(course.rules[0]).toMatchObject({
				id: 501,
				type: 'PRIVATE',
				action: 'STUDENTS',
				workgroups: [],
				otherAssociations: { USER: 1 },
			});
			expect(course.rules[1]).toMatchObject({
				name: 'Paid access',
				type: 'PUBLIC',
				action: 'WORKGROUP',
				startDateTime: '2026-01-01 00:00:00',
				endDateTime: '2027-01-01 00:00:00',
				workgroups: [
					{ id: 201, name: 'Intro to n8n' },
					{ id: 999, name: null },
				],
			});
			expect(o.communities[0]).toMatchObject({
				id: 301,
				workgroups: [{ id: 204, name: 'Community Members' }],
				events: [
					{
						id: 401,
						attendeeCount: 1,
						attendees: [
							expect.objectContaining({ id: 1002, name: 'Alan Turing', email: 'alan@example.com' }),
						],
					},
				],
			});
			expect(o.counts).toMatchObject({
				users: 3,
				workgroups: 4,
				memberships: 3,
				courses: 3,
				rules: 2,
				communities: 1,
				events: 1,
				webhooks: 0,
			});
		});

		it('shows each webhook (token masked) with its deliveries: event, message id, answer, attempts, resends', async () => {
			receiver = await startReceiver();
			receiver.statuses = [200, 503]; // the PING is answered 200; the completion 503 once, then 200 on its retry
			const api = apiClient(sandbox());
			const created = await api.post('/webhook', {
				name: 'n8n',
				url: receiver.url,
				securityToken: 'a-very-secret-token',
			});
			await sandbox().waitForDeliveries({ type: 'PING' });
			const sent = sandbox().activity('course-completed', {
				email: 'ada@example.com',
				courseId: 101,
			});
			const { messageId } = sent.messages[0];
			await sandbox().waitForDeliveries({ messageId, ok: true });
			await sandbox().resend(messageId);

			const o = await overview();
			expect(JSON.stringify(o)).not.toContain('a-very-secret-token');
			expect(JSON.stringify(o)).not.toContain(DEMO.apiKey);
			expect(o.webhooks).toHaveLength(1);
			expect(o.webhooks[0]).toMatchObject({
				id: created.data.id,
				name: 'n8n',
				url: receiver.url,
				securityToken: 'a-****en',
			});
			const [completion, ping] = o.webhooks[0].deliveries;
			expect(completion).toMatchObject({
				messageId,
				type: 'COURSE_COMPLETED',
				about: 'Ada Lovelace · Intro to n8n',
				attempts: 3, // 503, retried 200, resent 200
				resends: 1,
				status: 200,
				ok: true,
				error: null,
			});
			expect(ping).toMatchObject({
				type: 'PING',
				attempts: 1,
				resends: 0,
				status: 200,
				about: null,
			});

			// Deleting the webhook moves its deliveries aside; a reset forgets them like the delivery log.
			await api.delete(`/webhook/${created.data.id}`);
			const afterDelete = await overview();
			expect(afterDelete.webhooks).toEqual([]);
			expect(
				afterDelete.removedWebhookDeliveries.map((d: { messageId: string }) => d.messageId),
			).toContain(messageId);
			await controlClient(sandbox()).post('/reset', { seed: 'demo' });
			expect((await overview()).removedWebhookDeliveries).toEqual([]);
		});

		it('lists the recent API requests newest first with status and the masked key, and shows the last 50', async () => {
			const api = apiClient(sandbox());
			await api.get('/course/101');
			await api.get('/course/999');
			await apiClient(sandbox(), DEMO.readOnlyApiKey).get('/webhook');
			await apiClient(sandbox(), 'not-a-real-key').get('/course');
			await axios.get(`${sandbox().url}/public/api/v1/course`, { validateStatus: () => true });

			const o = await overview();
			expect(o.requests.slice(0, 5)).toEqual([
				expect.objectContaining({
					method: 'GET',
					path: '/public/api/v1/course',
					status: 401,
					key: null,
					burst: false,
				}),
				expect.objectContaining({
					method: 'GET',
					path: '/public/api/v1/course',
					status: 401,
					key: 'n****y',
				}),
				expect.objectContaining({ path: '/public/api/v1/webhook', status: 403, key: 'de****ey' }),
				expect.objectContaining({ path: '/public/api/v1/course/999', status: 404, key: 'd****y' }),
				expect.objectContaining({ path: '/public/api/v1/course/101', status: 200, key: 'd****y' }),
			]);
			expect(o.requests[0].at).toMatch(/^\d{4}-\d\d-\d\dT/);
			expect(typeof o.requests[0].ms).toBe('number');
			expect(JSON.stringify(o.requests)).not.toContain(DEMO.readOnlyApiKey);

			for (let i = 0; i < 120; i++) await api.get(`/course?pagination.page=${i}`);
			const later = await overview();
			expect(later.counts.requests).toBe(125);
			expect(later.requests).toHaveLength(50);
			expect(later.requests[0].path).toBe('/public/api/v1/course?pagination.page=119');
		});

		it('stays small when the sandbox holds many users: the newest 200, and the totals', async () => {
			sandbox().seed({ generate: { users: 5000 } });
			const o = await overview();
			expect(o.counts.users).toBe(5002);
			expect(o.users).toHaveLength(200);
			expect(o.users[0].id).toBe(1000 + 5002);
		});
	});

	describe('RecentRequests', () => {
		it('is a ring: newest first, never more than its capacity', () => {
			const ring = new RecentRequests(3);
			expect(ring.newest()).toEqual([]);
			const req = (path: string) => ({
				at: '',
				method: 'GET',
				path,
				status: 200,
				ms: 0,
				key: null,
				burst: false,
			});
			for (const p of ['a', 'b', 'c', 'd', 'e']) ring.add(req(p));
			expect(ring.newest().map((r) => r.path)).toEqual(['e', 'd', 'c']);
			expect(ring.newest(2).map((r) => r.path)).toEqual(['e', 'd']);
			expect(ring.count).toBe(5);
		});
	});

	describe('POST /sandbox/ping', () => {
		it('pings every webhook, or one, without an API key', async () => {
			receiver = await startReceiver();
			const api = apiClient(sandbox());
			const one = (
				await api.post('/webhook', {
					name: 'one',
					url: receiver.url,
					securityToken: 'token-one-1234',
				})
			).data;
			await api.post('/webhook', {
				name: 'two',
				url: receiver.url,
				securityToken: 'token-two-1234',
			});
			await sandbox().waitForDeliveries({ type: 'PING' }, 5000, 2);
			const statsBefore = sandbox().stats().requests;

			const control = controlClient(sandbox());
			const all = await control.post('/ping');
			expect(all.status).toBe(200);
			expect(all.data).toMatchObject({ type: 'PING', emitted: true });
			expect(all.data.messages).toHaveLength(2);
			const single = await control.post('/ping', { webhookId: one.id });
			expect(single.data.messages).toEqual([{ messageId: expect.any(String), webhookId: one.id }]);
			await sandbox().waitForDeliveries({ type: 'PING', ok: true }, 5000, 5);
			expect(receiver.calls.filter((c) => c.body.type === 'PING')).toHaveLength(5);
			// Control endpoints are not API requests.
			expect(sandbox().stats().requests).toBe(statsBefore);

			expect((await control.post('/ping', { webhookId: 99 })).status).toBe(404);
			const bad = await control.post('/ping', { webhookId: 'one' });
			expect(bad.status).toBe(400);
			expect(bad.data.message).toMatch(/webhookId/);
		});
	});

	describe('/sandbox/fault-burst', () => {
		it('answers exactly the next N API requests with the fault, then restores the settings from before', async () => {
			const control = controlClient(sandbox());
			await control.post('/faults', { latencyMs: 1 });
			const started = await control.post('/fault-burst', {
				requests: 3,
				faults: { errorRate: 1, errorStatuses: [429] },
			});
			expect(started.status).toBe(200);
			expect(started.data.burst).toMatchObject({
				requests: 3,
				remaining: 3,
				faults: { errorRate: 1, errorStatuses: [429] },
			});
			expect(started.data.faults).toMatchObject({
				latencyMs: 1,
				errorRate: 1,
				errorStatuses: [429],
			});

			// A request refused by the API key check is no request the burst counts.
			expect((await apiClient(sandbox(), 'wrong-key').get('/course')).status).toBe(401);
			const api = apiClient(sandbox());
			const statuses: number[] = [];
			for (let i = 0; i < 5; i++) statuses.push((await api.get('/course')).status);
			expect(statuses).toEqual([429, 429, 429, 200, 200]);

			const after = (await control.get('/fault-burst')).data;
			expect(after.burst).toBeNull();
			expect(after.faults).toMatchObject({
				latencyMs: 1,
				errorRate: 0,
				errorStatuses: [503, 502, 500],
			});
			const o = await overview();
			expect(o.faults.burst).toBeNull();
			expect(
				o.requests.slice(0, 5).map((r: { status: number; burst: boolean }) => [r.status, r.burst]),
			).toEqual([
				[200, false],
				[200, false],
				[429, true],
				[429, true],
				[429, true],
			]);
		});

		it('shows what is left, stops on DELETE, and gives way to faults set meanwhile', async () => {
			const control = controlClient(sandbox());
			const api = apiClient(sandbox());
			await control.post('/fault-burst', {
				requests: 10,
				faults: { errorRate: 1, errorStatuses: [503] },
			});
			expect((await api.get('/course')).status).toBe(503);
			expect((await overview()).faults.burst).toMatchObject({ requests: 10, remaining: 9 });
			expect((await control.delete('/fault-burst')).data).toMatchObject({
				stopped: true,
				burst: null,
				faults: { errorRate: 0 },
			});
			expect((await api.get('/course')).status).toBe(200);
			expect((await control.delete('/fault-burst')).data.stopped).toBe(false);

			// Someone sets faults through POST /sandbox/faults during a burst: theirs stay, the burst is over.
			await control.post('/fault-burst', {
				requests: 2,
				faults: { errorRate: 1, errorStatuses: [502] },
			});
			await control.post('/faults', { errorRate: 1, errorStatuses: [500] });
			for (let i = 0; i < 3; i++) expect((await api.get('/course')).status).toBe(500);
			expect((await control.get('/fault-burst')).data.burst).toBeNull();
		});

		it('refuses bad input with a message naming the field', async () => {
			const control = controlClient(sandbox());
			const cases: [unknown, RegExp][] = [
				[{ requests: 0, faults: { errorRate: 1 } }, /requests must be an integer from 1/],
				[{ requests: 2.5, faults: { errorRate: 1 } }, /requests/],
				[{ requests: 2 }, /faults must be/],
				[{ requests: 2, faults: { nope: 1 } }, /faults\.nope is not a fault setting/],
				[
					{ requests: 2, faults: { errorRate: 2 } },
					/faults\.errorRate must be a number from 0 to 1/,
				],
				[{ requests: 2, faults: { errorStatuses: [200] } }, /faults\.errorStatuses/],
				[{ requests: 2, faults: { latencyMs: -1 } }, /faults\.latencyMs/],
				[
					{ requests: 2, faults: { webhookCreateReturnsNoId: 'yes' } },
					/faults\.webhookCreateReturnsNoId/,
				],
				[[1], /Body must be a JSON object/],
			];
			for (const [body, message] of cases) {
				const res = await control.post('/fault-burst', body);
				expect({ body, status: res.status }).toEqual({ body, status: 400 });
				expect(res.data.message).toMatch(message);
			}
			// Nothing was applied.
			expect((await control.get('/faults')).data.errorRate).toBe(0);
			expect((await apiClient(sandbox()).get('/course')).status).toBe(200);
		});
	});
});
