import { apiClient, controlClient, DEMO, useSandbox } from './helpers';

describe('sandbox control endpoints', () => {
	const sandbox = useSandbox();

	it('dumps the state with masked secrets and resets to an empty or demo seed', async () => {
		const control = controlClient(sandbox());
		await apiClient(sandbox()).post('/webhook', { name: 'w', url: 'http://127.0.0.1:9/x', securityToken: 'very-secret-token' });
		const state = await control.get('/state');
		expect(state.data.courses.map((c: { title: string }) => c.title)).toEqual(['Intro to n8n', 'Advanced Automation', 'Data Literacy']);
		expect(state.data.webhooks[0].securityToken).toBe('very****ken');
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
		expect(res.data).toMatchObject({ courses: [104], workgroups: [205], users: [1003], communities: [302], events: [402], rules: { '104': [502] } });

		const events = apiClient(sandbox(), 'events-only-key');
		expect((await events.post('/community/302/event/402/attend/1003')).status).toBe(200);
		expect((await events.get('/course')).status).toBe(403);
		expect((await apiClient(sandbox()).get('/business-rule/course/104')).data[0]).toMatchObject({ id: 502, anything: 1, action: 'WORKGROUP' });

		expect((await control.post('/seed', { events: [{ communityName: 'Nope', title: 'x' }] })).status).toBe(400);
		expect((await control.post('/activity/unknown', {})).status).toBe(404);
	});
});
