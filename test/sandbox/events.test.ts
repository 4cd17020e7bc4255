import { apiClient, useSandbox } from './helpers';

describe('sandbox communities and event attendance', () => {
	const sandbox = useSandbox();

	it('lists and reads events and attendees as plain arrays', async () => {
		const api = apiClient(sandbox());
		const events = await api.get('/community/301/event/paged', {
			params: { 'pagination.page': 0, 'pagination.size': 20 },
		});
		expect(events.status).toBe(200);
		expect(events.data).toEqual([
			expect.objectContaining({ id: 401, communityId: 301, title: 'Monthly Automation Meetup' }),
		]);
		expect((await api.get('/community/301/event/401')).data.id).toBe(401);
		expect((await api.get('/community/301/event/999')).status).toBe(404);
		expect((await api.get('/community/999/event/paged')).status).toBe(404);
		expect((await api.get('/community/301/event/401/attendees/paged')).data).toEqual([]);
	});

	it('answers attend with 404, 403, 200 and 409, and cancel with 200 then 404', async () => {
		const api = apiClient(sandbox());
		expect((await api.post('/community/301/event/999/attend/1001')).status).toBe(404);
		expect((await api.post('/community/999/event/401/attend/1001')).status).toBe(404);
		expect((await api.post('/community/301/event/401/attend/9999')).status).toBe(404);

		const noAccess = await api.post('/community/301/event/401/attend/1002');
		expect(noAccess.status).toBe(403);
		expect(noAccess.data.status).toBe(403);

		const ok = await api.post('/community/301/event/401/attend/1001');
		expect(ok.status).toBe(200);
		expect(ok.data).toEqual({ eventId: 401, userId: 1001, status: 'ATTENDING' });
		expect((await api.post('/community/301/event/401/attend/1001')).status).toBe(409);
		expect((await api.get('/community/301/event/401/attendees/paged')).data).toEqual([
			{ id: 1001, name: 'Ada Lovelace', email: 'ada@example.com' },
		]);

		expect((await api.delete('/community/301/event/401/attend/1001')).status).toBe(200);
		expect((await api.delete('/community/301/event/401/attend/1001')).status).toBe(404);
		expect((await api.delete('/community/301/event/999/attend/1001')).status).toBe(404);
		expect(sandbox().stats().duplicateWrites).toBe(2); // the 409 repeat and the second cancel
	});

	it('grants access through the community workgroup until the removal date (UTC)', async () => {
		const api = apiClient(sandbox());
		const past = '2001-01-01 00:00:00';
		expect(
			(await api.put('/workgroup/204/member/alan%40example.com/', { removalDate: past })).status,
		).toBe(200);
		expect((await api.post('/community/301/event/401/attend/1002')).status).toBe(403);
		expect(
			(
				await api.put('/workgroup/204/member/alan%40example.com/', {
					removalDate: '2999-01-01 00:00:00',
				})
			).status,
		).toBe(200);
		expect((await api.post('/community/301/event/401/attend/1002')).status).toBe(200);
	});
});
