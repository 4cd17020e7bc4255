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
		expect(ada.data.attendees).toEqual([
			{ id: 1001, name: 'Ada Lovelace', email: 'ada@example.com' },
		]);
		expect((await control.post('/events/401/attendees', { userId: 1001 })).status).toBe(409);

		const page = (n: number, size: number) =>
			api.get('/community/301/event/401/attendees/paged', {
				params: { 'pagination.page': n, 'pagination.size': size },
			});
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
		const events = await control.post('/communities/301/events', {
			title: 'Autumn Workshop',
			startDateTime: '2030-10-01 09:00:00',
		});
		expect(events.data.events[0]).toMatchObject({
			communityId: 301,
			title: 'Autumn Workshop',
			startDateTime: '2030-10-01 09:00:00',
		});
		expect(
			(await api.get('/community/301/event/paged')).data.map((e: { title: string }) => e.title),
		).toEqual(['Monthly Automation Meetup', 'Autumn Workshop']);
		const courses = await control.post('/courses', { count: 3 });
		expect(courses.data.courses).toHaveLength(3);
		expect(
			(await api.get('/course', { params: { 'pagination.page': 1, 'pagination.size': 3 } })).data,
		).toEqual(
			courses.data.courses.map((c: { id: number; title: string }) => ({
				id: c.id,
				title: c.title,
			})),
		);

		expect((await control.post('/communities/999/events', {})).status).toBe(404);
		expect((await control.post('/events/999/attendees', {})).status).toBe(404);
		expect((await control.post('/courses', { count: 0 })).status).toBe(400);
		expect(
			(await control.post('/communities/301/events', { startDateTime: 'tomorrow' })).status,
		).toBe(400);
		expect((await control.post('/events/401/attendees', { email: 'not-an-email' })).status).toBe(
			400,
		);
	});

	it('refuses a field an endpoint does not take, or of the wrong type, with a 400 naming the field', async () => {
		const control = controlClient(sandbox());
		const refused = async (path: string, body: unknown, field: string) => {
			// Sent as JSON text: axios does not send some objects as they are ({ constructor: 1 } arrives as {}).
			const text = typeof body === 'string' ? body : JSON.stringify(body);
			const res = await control.post(path, text, {
				headers: { 'Content-Type': 'application/json' },
			});
			expect({ path, body, status: res.status }).toEqual({ path, body, status: 400 });
			expect(res.data.message).toContain(field);
		};
		await refused('/events/401/attendees', { colour: 'red' }, 'colour');
		await refused('/events/401/attendees', '{"__proto__": {"count": 5}}', '__proto__');
		await refused('/events/401/attendees', { constructor: 1 }, 'constructor');
		await refused('/events/401/attendees', { userId: '1001' }, 'userId');
		await refused('/events/401/attendees', { userId: 1001, count: 2 }, 'count');
		await refused('/events/401/attendees', { count: '5' }, 'count');
		await refused('/events/401/attendees', { firstName: 'Ada' }, 'firstName');
		await refused('/communities/301/events', { startDateTime: 20301001 }, 'startDateTime');
		await refused('/communities/301/events', { title: 'x', when: 'now' }, 'when');
		await refused('/courses', { image: 'no' }, 'image');
		await refused('/courses', { toString: 'x' }, 'toString');
		await refused('/events/401/cancellations', {}, 'count');
		await refused('/events/401/cancellations', { count: 1, from: 'middle' }, 'from');
		await refused(
			'/read-edits',
			{ list: 'events', communityId: 301, id: 401, action: 'delete' },
			'beforePage',
		);
		await refused(
			'/read-edits',
			{ list: 'events', id: 401, action: 'delete', beforePage: 1 },
			'communityId',
		);
		await refused(
			'/read-edits',
			{ list: 'events', communityId: 301, eventId: 401, id: 401, action: 'delete', beforePage: 1 },
			'eventId',
		);
		await refused(
			'/read-edits',
			{ list: 'events', communityId: 301, id: 401, action: 'swap', beforePage: 1 },
			'action',
		);
		await refused(
			'/read-edits',
			{ list: 'users', communityId: 301, id: 401, action: 'delete', beforePage: 1 },
			'list',
		);
		await refused(
			'/read-edits',
			{ list: 'events', communityId: 301, id: 401, action: 'delete', beforePage: 0 },
			'beforePage',
		);
		expect(
			(
				await control.post('/read-edits', {
					list: 'events',
					communityId: 301,
					id: 999,
					action: 'delete',
					beforePage: 1,
				})
			).status,
		).toBe(404);
		expect((await control.get('/read-edits')).data).toEqual({ pending: [] });
		expect((await control.post('/events/401/attendees', { count: 2 })).status).toBe(201);
	});

	it('cancels many registrations at once, from the start or the end of the list', async () => {
		const control = controlClient(sandbox());
		const api = apiClient(sandbox());
		const added = (await control.post('/events/401/attendees', { count: 10 })).data
			.attendees as Array<{ id: number }>;
		expect((await control.post('/events/401/cancellations', { count: 3 })).data).toEqual({
			eventId: 401,
			cancelled: 3,
			attendees: 7,
		});
		expect(
			(await control.post('/events/401/cancellations', { count: 2, from: 'last' })).data,
		).toEqual({ eventId: 401, cancelled: 2, attendees: 5 });
		const listed = (
			await api.get('/community/301/event/401/attendees/paged', {
				params: { 'pagination.size': 100 },
			})
		).data;
		expect(listed.map((a: { id: number }) => a.id)).toEqual(added.slice(3, 8).map((a) => a.id));
	});

	it('makes an armed edit once, just before the page it waits for: the reader skips or repeats an entry', async () => {
		const control = controlClient(sandbox());
		const api = apiClient(sandbox());
		await control.post('/communities/301/events', { count: 4 }); // events 401..405
		const page = async (n: number) =>
			(
				await api.get('/community/301/event/paged', {
					params: { 'pagination.page': n, 'pagination.size': 2 },
				})
			).data.map((e: { id: number }) => e.id);
		const armed = await control.post('/read-edits', {
			list: 'events',
			communityId: 301,
			id: 405,
			action: 'moveToFront',
			beforePage: 1,
		});
		expect(armed.status).toBe(201);
		expect((await control.get('/read-edits')).data.pending).toHaveLength(1);
		// One reading: 402 is listed twice, 405 on no page.
		expect([...(await page(0)), ...(await page(1)), ...(await page(2))]).toEqual([
			401, 402, 402, 403, 404,
		]);
		expect((await control.get('/read-edits')).data).toEqual({ pending: [] });
		expect([...(await page(0)), ...(await page(1)), ...(await page(2))]).toEqual([
			405, 401, 402, 403, 404,
		]);

		await control.post('/read-edits', {
			list: 'events',
			communityId: 301,
			id: 405,
			action: 'delete',
			beforePage: 2,
		});
		expect([...(await page(0)), ...(await page(1)), ...(await page(2))]).toEqual([
			405, 401, 402, 403,
		]);
		expect((await api.get('/community/301/event/405/attendees/paged')).status).toBe(404);

		const [first] = (await control.post('/events/401/attendees', { count: 3 })).data
			.attendees as Array<{ id: number }>;
		await control.post('/read-edits', {
			list: 'attendees',
			eventId: 401,
			id: first.id,
			action: 'moveToEnd',
			beforePage: 1,
		});
		await control.post('/read-edits', {
			list: 'courses',
			id: 101,
			action: 'delete',
			beforePage: 1,
		});
		expect((await control.get('/read-edits')).data.pending).toHaveLength(2);
		expect((await control.delete('/read-edits')).data).toEqual({ pending: [] });
	});
});
