import { apiClient, futureDate, useSandbox } from './helpers';

describe('sandbox user provisioning', () => {
	const sandbox = useSandbox();

	it('creates a user with 201 and an onboarding e-mail, then answers 200 and persists changes', async () => {
		const api = apiClient(sandbox());
		const created = await api.post('/user/provision', {
			firstName: 'Grace',
			lastName: 'Hopper',
			email: 'Grace@Example.com',
		});
		expect(created.status).toBe(201);
		expect(created.data).toEqual({
			id: expect.any(Number),
			firstName: 'Grace',
			lastName: 'Hopper',
			email: 'Grace@Example.com',
			gender: 'NON-BINARY',
			role: 'STUDENT',
		});
		expect(sandbox().state.onboardingEmails).toHaveLength(1);

		const again = await api.post('/user/provision', {
			firstName: 'Grace B.',
			lastName: 'Hopper',
			email: 'grace@example.com',
			gender: 'FEMALE',
		});
		expect(again.status).toBe(200);
		expect(again.data).toMatchObject({
			id: created.data.id,
			firstName: 'Grace B.',
			gender: 'FEMALE',
		});
		expect(sandbox().state.onboardingEmails).toHaveLength(1);
		expect(sandbox().state.users.get(created.data.id)?.firstName).toBe('Grace B.');

		// Omitting gender keeps the stored one; an identical repeat counts as a duplicate write.
		const same = await api.post('/user/provision', {
			firstName: 'Grace B.',
			lastName: 'Hopper',
			email: 'grace@example.com',
			gender: 'FEMALE',
		});
		expect(same.data.gender).toBe('FEMALE');
		expect(sandbox().stats().writes['provision:grace@example.com']).toBe(3);
		expect(sandbox().stats().duplicateWrites).toBe(1);
	});

	it.each([
		[{ lastName: 'x', email: 'a@example.com' }, 'firstName'],
		[{ firstName: ' ', lastName: 'x', email: 'a@example.com' }, 'firstName'],
		[{ firstName: 'x', email: 'a@example.com' }, 'lastName'],
		[{ firstName: 'x', lastName: 'y' }, 'email'],
		[{ firstName: 'x', lastName: 'y', email: 'not-an-email' }, 'email'],
		[{ firstName: 'x', lastName: 'y', email: 'a@example.com', gender: 'OTHER' }, 'gender'],
	])('answers 400 naming the field for %j', async (body, field) => {
		const res = await apiClient(sandbox()).post('/user/provision', body);
		expect(res.status).toBe(400);
		expect(res.data).toMatchObject({ status: 400, error: 'Bad Request' });
		expect(res.data.message).toContain(field);
		expect(sandbox().state.onboardingEmails).toHaveLength(0);
	});
});

describe('sandbox workgroup members', () => {
	const sandbox = useSandbox();

	it('adds a member with a removal date, updates it, and removes the member', async () => {
		const api = apiClient(sandbox());
		const removal = futureDate(30);
		const add = await api.put('/workgroup/201/member/ada%40example.com/', { removalDate: removal });
		expect(add.status).toBe(200);
		expect(add.data).toEqual({ email: 'ada@example.com', workgroupId: 201, removalDate: removal });

		const update = await api.put('/workgroup/201/member/ADA%40example.com', { removalDate: null });
		expect(update.data.removalDate).toBeNull();
		expect(sandbox().state.memberships.get(201)?.get('ada@example.com')?.removalDate).toBeNull();

		const repeat = await api.put('/workgroup/201/member/ada%40example.com/', { removalDate: null });
		expect(repeat.status).toBe(200);
		expect(sandbox().stats().duplicateWrites).toBe(1);

		const del = await api.delete('/workgroup/201/member/ada%40example.com/');
		expect(del.status).toBe(200);
		expect(del.data).toEqual({ email: 'ada@example.com', workgroupId: 201 });
		const delAgain = await api.delete('/workgroup/201/member/ada%40example.com/');
		expect(delAgain.status).toBe(404);
		expect(delAgain.data.message).toBe('Entity not found');
	});

	it('answers 404 "Entity not found" for an unknown workgroup or user and 400 for a bad date', async () => {
		const api = apiClient(sandbox());
		const noGroup = await api.put('/workgroup/9999/member/ada%40example.com/', {
			removalDate: null,
		});
		expect(noGroup.status).toBe(404);
		expect(noGroup.data.message).toBe('Entity not found');
		const noUser = await api.put('/workgroup/201/member/nobody%40example.com/', {
			removalDate: null,
		});
		expect(noUser.status).toBe(404);
		for (const removalDate of ['2030-01-01', '2030-13-01 00:00:00', '2030-01-01T00:00:00Z', 42]) {
			const bad = await api.put('/workgroup/201/member/ada%40example.com/', { removalDate });
			expect(bad.status).toBe(400);
			expect(bad.data.message).toContain('removalDate');
		}
	});

	it('decodes the e-mail: a "/" or "?" inside it never routes elsewhere', async () => {
		const api = apiClient(sandbox());
		const email = 'odd/name?x#y@example.com';
		expect(
			(await api.post('/user/provision', { firstName: 'O', lastName: 'D', email })).status,
		).toBe(201);
		const add = await api.put(`/workgroup/202/member/${encodeURIComponent(email)}/`, {
			removalDate: null,
		});
		expect(add.status).toBe(200);
		expect(add.data.email).toBe(email);
		expect(sandbox().state.memberships.get(202)?.has(email)).toBe(true);
		// Unencoded, the "/" splits the path: no member route matches.
		expect(
			(await api.put('/workgroup/202/member/odd/name@example.com/', { removalDate: null })).status,
		).toBe(404);
	});
});
