/** The sandbox endpoints the Poll Trigger tests use, and the paged reads it serves. */
import { apiClient, controlClient, useSandbox } from '../sandbox/helpers';

describe('sandbox: poll control endpoints', () => {
	const sandbox = useSandbox();

	it('registers people for an event (new, by e-mail, by user ID), pages them and cancels them', async () => {
		const control = controlClient(sandbox());
		const api = apiClient(sandbox());
		const many = await control.post('/events/401/attendees', { count: 120 });
		expect(many.status).toBe(201);
		expect(many.data.attendees).toHaveLength(120);
		const ada = await control.post('/events/401/attendees', { email: 'ada@example.com' });
		expect(ada.data.attendees).toEqual([{ id: 1001, name: 'Ada Lovelace', email: 'ada@example.com' }]);
		expect((await control.post('/events/401/attendees', { userId: 1001 })).status).toBe(409);

		const page = (n: number, size: number) =>
			api.get('/community/301/event/401/attendees/paged', { params: { 'pagination.page': n, 'pagination.size': size } });
		expect((await page(0, 500)).data).toHaveLength(100);
		expect((await page(1, 100)).data.at(-1)).toEqual(ada.data.attendees[0]);
		expect((await page(2, 100)).data).toEqual([]);

		expect((await control.delete('/events/401/attendees/1001')).status).toBe(200);
		expect((await control.delete('/events/401/attendees/1001')).status).toBe(404);
		expect((await control.post('/events/401/attendees', { userId: 1001 })).status).toBe(201);
		expect((await page(1, 100)).data.at(-1).email).toBe('ada@example.com');
	});

	it('publishes events and adds courses that the paged lists serve; refuses bad input', async () => {
		const control = controlClient(sandbox());
		const api = apiClient(sandbox());
		const events = await control.post('/communities/301/events', { title: 'Autumn Workshop', startDateTime: '2030-10-01 09:00:00' });
		expect(events.data.events[0]).toMatchObject({ communityId: 301, title: 'Autumn Workshop', startDateTime: '2030-10-01 09:00:00' });
		expect((await api.get('/community/301/event/paged')).data.map((e: { title: string }) => e.title)).toEqual([
			'Monthly Automation Meetup',
			'Autumn Workshop',
		]);
		const courses = await control.post('/courses', { count: 3 });
		expect(courses.data.courses).toHaveLength(3);
		expect((await api.get('/course', { params: { 'pagination.page': 1, 'pagination.size': 3 } })).data).toEqual(
			courses.data.courses.map((c: { id: number; title: string }) => ({ id: c.id, title: c.title })),
		);

		expect((await control.post('/communities/999/events', {})).status).toBe(404);
		expect((await control.post('/events/999/attendees', {})).status).toBe(404);
		expect((await control.post('/courses', { count: 0 })).status).toBe(400);
		expect((await control.post('/communities/301/events', { startDateTime: 'tomorrow' })).status).toBe(400);
		expect((await control.post('/events/401/attendees', { email: 'not-an-email' })).status).toBe(400);
	});
});
