/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The sandbox's variants (sandbox/variants.ts): each plays one answer the Knolyx guides leave open
 * another way; without a variant the sandbox answers as before.
 */
import { startSandbox, VARIANT_NAMES, VARIANTS_ENV, type Sandbox } from '../../sandbox';
import { apiClient, controlClient, useSandbox } from './helpers';

const sandbox = useSandbox();
const api = () => apiClient(sandbox());
const control = () => controlClient(sandbox());
const play = async (...variants: string[]) => {
	const res = await control().post('/variants', { variants });
	expect(res.status).toBe(200);
};

describe('control', () => {
	it('GET /sandbox/variants lists every variant with its description, none played by default', async () => {
		const res = await control().get('/variants');
		expect(res.data.active).toEqual([]);
		expect(res.data.available.map((v: { name: string }) => v.name)).toEqual(VARIANT_NAMES);
		for (const v of res.data.available) expect(v.description.length).toBeGreaterThan(30);
	});

	it('POST sets the list (a text of names too), DELETE goes back to none; an unknown name is a 400 that changes nothing', async () => {
		await play('textWrites', 'unpagedLists');
		expect((await control().get('/variants')).data.active).toEqual(['unpagedLists', 'textWrites']);
		const bad = await control().post('/variants', { variants: ['textWrites', 'nope'] });
		expect(bad.status).toBe(400);
		expect(bad.data.message).toBe(
			`variants: nope is not a variant; use ${VARIANT_NAMES.join(', ')}`,
		);
		expect(sandbox().variants()).toEqual(['unpagedLists', 'textWrites']);
		expect((await control().post('/variants', { colour: 1 })).status).toBe(400);
		await control().post('/variants', { variants: 'emptyWrites, pageObjects' });
		expect(sandbox().variants()).toEqual(['pageObjects', 'emptyWrites']);
		expect((await control().delete('/variants')).data.active).toEqual([]);
	});

	it('the page overview shows the variants played', async () => {
		expect((await control().get('/overview')).data.variants).toEqual([]);
		await play('putProvisioning');
		const { variants } = (await control().get('/overview')).data;
		expect(variants).toEqual([
			{ name: 'putProvisioning', description: expect.stringMatching(/405/) },
		]);
	});

	it(`startSandbox reads ${VARIANTS_ENV} when no variants are given`, async () => {
		const before = process.env[VARIANTS_ENV];
		process.env[VARIANTS_ENV] = 'textWrites,underscoreEnums';
		let other: Sandbox | undefined;
		try {
			other = await startSandbox({ port: 0 });
			expect(other.variants()).toEqual(['textWrites', 'underscoreEnums']);
			process.env[VARIANTS_ENV] = 'unknownThing';
			await expect(startSandbox({ port: 0 })).rejects.toThrow(/unknownThing is not a variant/);
		} finally {
			if (before === undefined) delete process.env[VARIANTS_ENV];
			else process.env[VARIANTS_ENV] = before;
			await other?.close();
		}
	});
});

describe('lists', () => {
	it('unpagedLists: every list answers whole, whatever pagination asks', async () => {
		sandbox().seed({ generate: { workgroups: 150, courses: 130 } });
		await play('unpagedLists');
		const q = { params: { 'pagination.page': 1, 'pagination.size': 20 } };
		expect((await api().get('/workgroup', q)).data).toHaveLength(154);
		expect((await api().get('/course', q)).data).toHaveLength(133);
		expect((await api().get('/community/301/event/paged', q)).data).toHaveLength(1);
		sandbox().seed({ attendance: [{ eventId: 401, userId: 1001 }] });
		expect((await api().get('/community/301/event/401/attendees/paged', q)).data).toHaveLength(1);
	});

	it('pageObjects: { content } without last, and a page past the end repeats the last page', async () => {
		sandbox().seed({ generate: { workgroups: 21 } });
		await play('pageObjects');
		const page = async (n: number) =>
			(await api().get('/workgroup', { params: { 'pagination.page': n, 'pagination.size': 10 } }))
				.data;
		const first = await page(0);
		expect(Object.keys(first)).toEqual(['content']);
		expect(first.content).toHaveLength(10);
		const last = await page(2);
		expect(last.content).toHaveLength(5);
		expect(await page(3)).toEqual(last);
		expect(await page(9)).toEqual(last);
	});
});

describe('writes', () => {
	it('default: the writes answer JSON as before', async () => {
		const res = await api().post('/community/301/event/401/attend/1001');
		expect(res.data).toEqual({ eventId: 401, userId: 1001, status: 'ATTENDING' });
	});

	// Issue 55: textWrites plays the writes a read or a second send checks, textWritesUnchecked
	// the others (provisioning, member add, pings); together, what textWrites played before.
	it('textWrites and textWritesUnchecked: attend, cancel, members, pings, rule save, webhook delete and provisioning answer text/plain', async () => {
		const hook = (
			await api().post('/webhook', { name: 'h', url: 'http://127.0.0.1:9/x', securityToken: 't' })
		).data;
		await play('textWrites', 'textWritesUnchecked');
		const calls = [
			api().put('/workgroup/204/member/alan@example.com/', { removalDate: null }),
			api().post('/community/301/event/401/attend/1001'),
			api().delete('/community/301/event/401/attend/1001'),
			api().delete('/workgroup/204/member/alan@example.com/'),
			api().post('/webhook/ping'),
			api().post(`/webhook/${hook.id}/ping`),
			api().post('/business-rule/course/102', []),
			api().delete(`/webhook/${hook.id}`),
		];
		for (const res of await Promise.all(calls)) {
			expect(res.status).toBe(200);
			expect(res.headers['content-type']).toMatch(/^text\/plain/);
			expect(res.data).toBe('OK');
		}
		const created = await api().post('/user/provision', {
			firstName: 'A',
			lastName: 'B',
			email: 'ab@example.com',
		});
		expect([created.status, created.data]).toEqual([201, 'Created']);
		expect(sandbox().state.findUserByEmail('ab@example.com')).toBeDefined();
		expect(sandbox().state.webhooks.size).toBe(0);
	});

	it('writesRefused*: Attend and Add Member answer 200 with the refusal and apply nothing; webhookDeleteRefused keeps the webhook', async () => {
		await play('writesRefusedNull');
		const attend = await api().post('/community/301/event/401/attend/1001');
		expect([attend.status, attend.headers['content-type'], attend.data]).toEqual([
			200,
			expect.stringMatching(/^application\/json/),
			null,
		]);
		await play('writesRefusedQuota');
		const add = await api().put('/workgroup/204/member/alan@example.com/', { removalDate: null });
		expect([add.status, add.data]).toEqual([200, 'ERROR: quota exceeded']);
		expect(sandbox().state.attendance.get(401)?.has(1001) ?? false).toBe(false);
		expect(sandbox().state.memberships.get(204)?.has('alan@example.com') ?? false).toBe(false);
		const hook = (
			await api().post('/webhook', { name: 'h', url: 'http://127.0.0.1:9/x', securityToken: 't' })
		).data;
		await play('webhookDeleteRefused');
		const gone = await api().delete(`/webhook/${hook.id}`);
		expect([gone.status, gone.data]).toEqual([200, 'ERROR: webhook not deleted']);
		expect(sandbox().state.webhooks.size).toBe(1);
	});

	it('emptyWrites: the same writes answer 2xx with no body, and apply', async () => {
		await play('emptyWrites');
		const res = await api().put('/workgroup/204/member/alan@example.com/', { removalDate: null });
		expect(res.status).toBe(200);
		expect(res.headers['content-length']).toBe('0');
		expect(res.headers['content-type']).toBeUndefined();
		expect(sandbox().state.memberships.get(204)?.has('alan@example.com')).toBe(true);
	});

	it('attend409Text: a second attend answers 409 with a text body', async () => {
		await play('attend409Text');
		expect((await api().post('/community/301/event/401/attend/1001')).status).toBe(200);
		const again = await api().post('/community/301/event/401/attend/1001');
		expect(again.status).toBe(409);
		expect(again.headers['content-type']).toMatch(/^text\/plain/);
		expect(again.data).toBe('User is already registered for this event');
	});
});

describe('webhooks', () => {
	const body = { name: 'n8n hook', url: 'http://127.0.0.1:9/hook', securityToken: 'secret' };

	it('webhookCreateNoId and webhookCreateText: created, answered without the id', async () => {
		await play('webhookCreateNoId');
		const noId = await api().post('/webhook', body);
		expect(noId.status).toBe(201);
		expect(noId.data).toEqual({ name: body.name, url: body.url, createdAt: expect.any(String) });
		await play('webhookCreateText');
		const text = await api().post('/webhook', body);
		expect([text.status, text.data]).toEqual([201, 'Created']);
		expect(sandbox().state.webhooks.size).toBe(2);
	});

	it('webhookCreate502: the webhook is created, a gateway page answers 502', async () => {
		await play('webhookCreate502');
		const res = await api().post('/webhook', body);
		expect(res.status).toBe(502);
		expect(res.headers['content-type']).toMatch(/^text\/html/);
		expect(sandbox().state.webhooks.size).toBe(1);
	});

	it('webhooksWithoutUrl: list and get answers carry no url', async () => {
		const { id } = (await api().post('/webhook', body)).data;
		await play('webhooksWithoutUrl');
		expect((await api().get('/webhook')).data).toEqual([
			{ id, name: body.name, createdAt: expect.any(String) },
		]);
		expect((await api().get(`/webhook/${id}`)).data).not.toHaveProperty('url');
	});
});

describe('provisioning', () => {
	const user = { firstName: 'Nia', lastName: 'Bee', email: 'nia@example.com' };

	it('putProvisioning: POST answers 405 with Allow: PUT and changes nothing; PUT provisions', async () => {
		await play('putProvisioning');
		const post = await api().post('/user/provision', user);
		expect(post.status).toBe(405);
		expect(post.headers.allow).toBe('PUT');
		expect(sandbox().state.findUserByEmail(user.email)).toBeUndefined();
		const put = await api().put('/user/provision', user);
		expect(put.status).toBe(201);
		expect(put.data.email).toBe(user.email);
	});

	it('default: PUT is no endpoint', async () => {
		expect((await api().put('/user/provision', user)).status).toBe(404);
	});

	it('provisionNoIdOn200: an existing user is answered without the id', async () => {
		await play('provisionNoIdOn200');
		expect((await api().post('/user/provision', user)).data.id).toEqual(expect.any(Number));
		const again = await api().post('/user/provision', user);
		expect(again.status).toBe(200);
		expect(again.data).not.toHaveProperty('id');
		expect(again.data.email).toBe(user.email);
	});

	it('underscoreEnums: NON_BINARY and NON-BINARY accepted, NON_BINARY answered; by default NON_BINARY is a 400', async () => {
		expect((await api().post('/user/provision', { ...user, gender: 'NON_BINARY' })).status).toBe(
			400,
		);
		await play('underscoreEnums');
		const a = await api().post('/user/provision', { ...user, gender: 'NON_BINARY' });
		expect([a.status, a.data.gender]).toEqual([201, 'NON_BINARY']);
		const b = await api().post('/user/provision', { ...user, gender: 'NON-BINARY' });
		expect([b.status, b.data.gender]).toEqual([200, 'NON_BINARY']);
		expect(sandbox().state.findUserByEmail(user.email)?.gender).toBe('NON-BINARY');
	});

	it('disableWelcomeEmail: true sends no welcome e-mail; false or absent sends one; another type is a 400', async () => {
		await api().post('/user/provision', { ...user, disableWelcomeEmail: true });
		await api().post('/user/provision', {
			...user,
			email: 'b@example.com',
			disableWelcomeEmail: false,
		});
		await api().post('/user/provision', { ...user, email: 'c@example.com' });
		expect(sandbox().state.onboardingEmails.map((m) => m.to)).toEqual([
			'b@example.com',
			'c@example.com',
		]);
		const bad = await api().post('/user/provision', {
			...user,
			email: 'd@example.com',
			disableWelcomeEmail: 'yes',
		});
		expect([bad.status, bad.data.message]).toEqual([
			400,
			'disableWelcomeEmail must be true or false',
		]);
		expect(sandbox().state.provisionRequests.map((r) => r.disableWelcomeEmail)).toEqual([
			true,
			false,
			undefined,
		]);
	});
});
