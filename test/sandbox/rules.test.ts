import { apiClient, useSandbox } from './helpers';

const rule = (name: string, extra: Record<string, unknown> = {}) => ({
	name,
	type: 'PRIVATE',
	startDateTime: '2025-01-01 00:00:00',
	endDateTime: '2075-01-01 00:00:00',
	restrictions: { minimumTime: false, browseOrder: 'anyOrder' },
	associations: { WORKGROUP: [201] },
	...extra,
});

describe('sandbox course access rules', () => {
	const sandbox = useSandbox();

	it('reads the seeded rule with its unknown field, USER association and own action', async () => {
		const res = await apiClient(sandbox()).get('/business-rule/course/101');
		expect(res.status).toBe(200);
		expect(res.data).toHaveLength(1);
		expect(res.data[0]).toMatchObject({
			id: 501,
			action: 'STUDENTS',
			diplomaTemplateId: 7,
			associations: { USER: [1002] },
		});
		expect((await apiClient(sandbox()).get('/business-rule/course/102')).data).toEqual([]);
		expect((await apiClient(sandbox()).get('/business-rule/course/9999')).status).toBe(404);
	});

	it('updates by id, creates without id, deletes what is absent, and keeps every field as sent', async () => {
		const api = apiClient(sandbox());
		const [seeded] = (await api.get('/business-rule/course/101')).data;
		const modified = {
			...seeded,
			associations: { ...seeded.associations, WORKGROUP: [201], DEPARTMENT: [5], JOB: [9] },
			futureField: { nested: true },
		};
		const saved = await api.post('/business-rule/course/101', [
			modified,
			rule('PAYMENT_INTEGRATION_COURSE_101'),
		]);
		expect(saved.status).toBe(200);
		expect(saved.data).toHaveLength(2);
		expect(saved.data[0]).toEqual(modified);
		expect(saved.data[1]).toMatchObject({
			id: expect.any(Number),
			name: 'PAYMENT_INTEGRATION_COURSE_101',
			action: 'WORKGROUP',
		});
		expect(saved.data[1].id).not.toBe(501);
		expect(sandbox().state.rules.get(101)?.[1]).not.toHaveProperty('action');

		const onlyNew = await api.post('/business-rule/course/101', [saved.data[1]]);
		expect(onlyNew.data.map((r: { id: number }) => r.id)).toEqual([saved.data[1].id]);
		expect((await api.get('/business-rule/course/101')).data).toEqual(onlyNew.data);

		// Posting back what was read changes nothing and counts as a duplicate write.
		await api.post('/business-rule/course/101', onlyNew.data);
		const stats = sandbox().stats();
		expect(stats.writes['rules:101']).toBe(3);
		expect(stats.duplicateWrites).toBe(1);

		expect((await api.post('/business-rule/course/101', [])).data).toEqual([]);
	});

	it.each([
		[{ not: 'an array' }, 'array'],
		[[{ ...rule('x'), name: '' }], 'name'],
		[[rule('x', { type: 'SECRET' })], 'type'],
		[[rule('x', { startDateTime: '2025-01-01' })], 'startDateTime'],
		[[rule('x', { endDateTime: '2020-01-01 00:00:00' })], 'endDateTime'],
		[[rule('x', { restrictions: { minimumTime: 'no', browseOrder: 'anyOrder' } })], 'minimumTime'],
		[[rule('x', { restrictions: { minimumTime: false } })], 'browseOrder'],
		[[rule('x', { associations: { WORKGROUP: ['2x1'] } })], 'associations.WORKGROUP'],
		[[rule('x', { associations: null })], 'associations'],
		[[rule('x', { id: 999 })], 'id'],
	])('rejects %j with 400 naming the problem and changes nothing', async (body, field) => {
		const api = apiClient(sandbox());
		const before = (await api.get('/business-rule/course/101')).data;
		// A valid rule first: the save is atomic, so the bad one after it must stop everything.
		const payload = Array.isArray(body) ? [before[0], ...body] : body;
		const res = await api.post('/business-rule/course/101', payload);
		expect(res.status).toBe(400);
		expect(res.data.message).toContain(field);
		expect((await api.get('/business-rule/course/101')).data).toEqual(before);
	});

	it('refuses an id of a rule of another course', async () => {
		const api = apiClient(sandbox());
		const res = await api.post('/business-rule/course/102', [rule('stolen', { id: 501 })]);
		expect(res.status).toBe(400);
		expect(res.data.message).toContain('501');
		expect((await api.get('/business-rule/course/101')).data).toHaveLength(1);
	});
});
