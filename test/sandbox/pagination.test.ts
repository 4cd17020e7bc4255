import { apiClient, controlClient, useSandbox } from './helpers';

describe('sandbox pagination', () => {
	const sandbox = useSandbox({ seed: 'empty' });

	it('pages zero-based with default size 20 and clamps the size to 100', async () => {
		const seeded = await controlClient(sandbox()).post('/seed', {
			generate: { courses: 150, workgroups: 25 },
		});
		expect(seeded.status).toBe(201);
		expect(seeded.data.generated.courses).toEqual({ count: 150, firstId: 101, lastId: 250 });
		const api = apiClient(sandbox());

		const first = await api.get('/course');
		expect(first.data).toHaveLength(20);
		expect(first.data[0]).toEqual({ id: 101, title: 'Generated Course 000001' });

		const big = await api.get('/course', {
			params: { 'pagination.page': 0, 'pagination.size': 1000 },
		});
		expect(big.data).toHaveLength(100);
		const second = await api.get('/course', {
			params: { 'pagination.page': 1, 'pagination.size': 1000 },
		});
		expect(second.data).toHaveLength(50);
		expect(second.data[0].id).toBe(201);
		expect(
			(await api.get('/course', { params: { 'pagination.page': 9, 'pagination.size': 50 } })).data,
		).toEqual([]);

		const groups = await api.get('/workgroup', {
			params: { 'pagination.page': 1, 'pagination.size': 10 },
		});
		expect(groups.data.map((w: { name: string }) => w.name)[0]).toBe('Generated Workgroup 000011');

		for (const params of [
			{ 'pagination.page': -1 },
			{ 'pagination.size': 0 },
			{ 'pagination.size': 'ten' },
		]) {
			const bad = await api.get('/course', { params });
			expect(bad.status).toBe(400);
			expect(bad.data.message).toContain('pagination.');
		}
	});
});
