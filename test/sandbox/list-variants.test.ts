/**
 * The sandbox's list and webhook variants of issue 45 (sandbox/variants.ts): how each pages, and
 * that the workgroup and webhook lists (whose paging the guides do not show) keep theirs.
 */
import { apiClient, controlClient, useSandbox } from './helpers';

const sandbox = useSandbox();
const api = () => apiClient(sandbox());
const play = async (...variants: string[]) => {
	const res = await controlClient(sandbox()).post('/variants', { variants });
	expect(res.status).toBe(200);
};
// Variants outlive a reset: none played unless a test plays it.
beforeEach(async () => await play());
const page = async (path: string, n: number, size?: number) =>
	(
		await api().get(path, {
			params: { 'pagination.page': n, ...(size !== undefined && { 'pagination.size': size }) },
		})
	).data;
const ids = (entries: Array<{ id: number }>) => entries.map((entry) => entry.id);

describe('list variants', () => {
	it('largePages: 150 a page whatever size is asked, on the course list; the workgroup list as asked', async () => {
		sandbox().seed({ generate: { courses: 297, workgroups: 296 } });
		await play('largePages');
		expect(await page('/course', 0, 100)).toHaveLength(150);
		expect(await page('/course', 1, 100)).toHaveLength(150);
		expect(await page('/course', 2, 100)).toEqual([]);
		expect(await page('/workgroup', 0, 100)).toHaveLength(100);
	});

	it('smallPages: at most 30 a page on the course list', async () => {
		sandbox().seed({ generate: { courses: 97 } });
		await play('smallPages');
		expect(await page('/course', 0, 100)).toHaveLength(30);
		expect(ids(await page('/course', 3, 100))).toEqual(
			[...sandbox().state.courses.keys()].slice(90, 100),
		);
	});

	it('pageTotals: Spring page objects with number, size, totals, first and last', async () => {
		sandbox().seed({ generate: { workgroups: 21 } });
		await play('pageTotals');
		const last = await page('/workgroup', 2, 10);
		expect({ ...last, content: last.content.length }).toEqual({
			content: 5,
			number: 2,
			size: 10,
			totalElements: 25,
			totalPages: 3,
			first: false,
			last: true,
		});
		expect((await page('/workgroup', 0, 10)).last).toBe(false);
	});

	it('wrappingPages: a page past the end of the course list starts over', async () => {
		sandbox().seed({ generate: { courses: 22 } });
		await play('wrappingPages');
		const all = [...sandbox().state.courses.keys()];
		expect(ids(await page('/course', 2, 10))).toEqual([...all.slice(20), ...all.slice(0, 5)]);
		expect(ids(await page('/course', 3, 10))).toEqual(all.slice(5, 15));
	});

	it('pagedWebhooks: the webhook list pages, 20 when no size is asked', async () => {
		for (let i = 0; i < 25; i++)
			await api().post('/webhook', {
				name: `h${i}`,
				url: `http://127.0.0.1:9/${i}`,
				securityToken: 's',
			});
		expect((await api().get('/webhook')).data).toHaveLength(25);
		await play('pagedWebhooks');
		expect((await api().get('/webhook')).data).toHaveLength(20);
		expect(await page('/webhook', 1, 20)).toHaveLength(5);
	});

	it('webhookCreateJsonText and webhookCreateNullId: created, answered without a usable id', async () => {
		const body = { name: 'n8n hook', url: 'http://127.0.0.1:9/hook', securityToken: 'secret' };
		await play('webhookCreateJsonText');
		const text = await api().post('/webhook', body);
		expect([text.status, text.headers['content-type'], text.data]).toEqual([
			201,
			expect.stringMatching(/^application\/json/),
			'Created',
		]);
		await play('webhookCreateNullId');
		const nullId = await api().post('/webhook', body);
		expect([nullId.status, nullId.data.id, nullId.data.name]).toEqual([201, null, body.name]);
		expect(sandbox().state.webhooks.size).toBe(2);
	});
});
