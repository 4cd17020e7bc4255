import axios from 'axios';
import { apiClient, DEMO, useSandbox } from './helpers';
import { demoKeyWithout } from '../../sandbox';

describe('sandbox authentication and permissions', () => {
	const sandbox = useSandbox();

	it('answers 401 with a Spring-like body when the headers are missing or wrong', async () => {
		const bare = await axios.get(`${sandbox().url}/public/api/v1/course`, {
			validateStatus: () => true,
		});
		expect(bare.status).toBe(401);
		expect(bare.data).toMatchObject({
			status: 401,
			error: 'Unauthorized',
			path: '/public/api/v1/course',
		});
		expect(typeof bare.data.timestamp).toBe('string');

		expect((await apiClient(sandbox(), 'wrong-key').get('/course')).status).toBe(401);
		expect((await apiClient(sandbox(), DEMO.apiKey, 'other-project').get('/course')).status).toBe(
			401,
		);
		expect((await apiClient(sandbox(), 'wrong-key').get('/key')).status).toBe(401);
	});

	it('GET /key returns the masked key, the project and the permissions', async () => {
		const res = await apiClient(sandbox()).get('/key');
		expect(res.status).toBe(200);
		expect(res.data.apiKey).toBe('d****y');
		expect(res.data.projectId).toBe(DEMO.projectId);
		expect(res.data.permissions).toEqual(
			expect.arrayContaining(['USER_PROVISION', 'EVENT_MANAGE', 'WEBHOOK_MANAGE']),
		);

		const none = await apiClient(sandbox(), DEMO.noPermissionApiKey).get('/key');
		expect(none.status).toBe(200);
		expect(none.data.permissions).toEqual([]);
	});

	it('answers 403 naming the missing permission', async () => {
		const readOnly = apiClient(sandbox(), DEMO.readOnlyApiKey);
		expect((await readOnly.get('/course')).status).toBe(200);
		expect((await readOnly.get('/course/101')).status).toBe(200);
		expect((await readOnly.get('/workgroup')).status).toBe(200);

		const put = await readOnly.put('/workgroup/201/member/ada%40example.com/', {
			removalDate: null,
		});
		expect(put.status).toBe(403);
		expect(put.data).toMatchObject({
			status: 403,
			error: 'Forbidden',
			message: 'API key lacks permission WORKGROUP_ADD_MEMBER',
		});

		const cases: [string, () => Promise<{ status: number; data: { message: string } }>][] = [
			[
				'USER_PROVISION',
				() =>
					readOnly.post('/user/provision', {
						firstName: 'a',
						lastName: 'b',
						email: 'x@example.com',
					}),
			],
			[
				'WORKGROUP_REMOVE_MEMBER',
				() => readOnly.delete('/workgroup/201/member/ada%40example.com/'),
			],
			['WEBHOOK_MANAGE', () => readOnly.get('/webhook')],
			['BUSINESS_RULE_MANAGE', () => readOnly.get('/business-rule/course/101')],
			['EVENT_MANAGE', () => readOnly.post('/community/301/event/401/attend/1001')],
		];
		for (const [permission, call] of cases) {
			const res = await call();
			expect(res.status).toBe(403);
			expect(res.data.message).toBe(`API key lacks permission ${permission}`);
		}
		const noList = await apiClient(sandbox(), demoKeyWithout('COURSE_LIST')).get('/course');
		expect(noList.data.message).toBe('API key lacks permission COURSE_LIST');
		expect(
			(await apiClient(sandbox(), demoKeyWithout('COURSE_LIST')).get('/workgroup')).status,
		).toBe(200);
	});

	it('answers 404 with the same error shape for an unknown endpoint', async () => {
		const res = await apiClient(sandbox()).get('/no-such-thing');
		expect(res.status).toBe(404);
		expect(res.data).toMatchObject({ status: 404, error: 'Not Found' });
	});
});
