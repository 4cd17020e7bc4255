import { apiClient, controlClient, useSandbox } from './helpers';

const provision = (email: string) => ({ firstName: 'F', lastName: 'L', email });

describe('sandbox fault injection', () => {
	const sandbox = useSandbox();

	it('rate limits with 429, a Retry-After in whole seconds and a JSON error body', async () => {
		sandbox().setFaults({ rateLimitPerSecond: 3 });
		const api = apiClient(sandbox());
		const answers = await Promise.all(Array.from({ length: 6 }, () => api.get('/course')));
		const limited = answers.filter((r) => r.status === 429);
		expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
		expect(limited).toHaveLength(3);
		for (const r of limited) {
			expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
			expect(r.headers['retry-after']).toMatch(/^\d+$/);
			expect(r.data).toMatchObject({ status: 429, error: 'Too Many Requests' });
		}
		expect(sandbox().stats().faultsInjected.rateLimit).toBe(3);
		// Auth failures are answered before the limiter.
		expect((await apiClient(sandbox(), 'bad').get('/course')).status).toBe(401);
	});

	it('answers 5xx without applying the request, at the configured rate, deterministically', async () => {
		const api = apiClient(sandbox());
		sandbox().setFaults({ errorRate: 1, errorStatuses: [503] });
		const failed = await api.post('/user/provision', provision('never@example.com'));
		expect(failed.status).toBe(503);
		expect(failed.data).toMatchObject({ status: 503, error: 'Service Unavailable' });
		expect(sandbox().state.findUserByEmail('never@example.com')).toBeUndefined();

		const run = async (): Promise<number[]> => {
			sandbox().setFaults({ errorRate: 0.3, errorStatuses: [503, 502, 500], seed: 42 });
			const statuses: number[] = [];
			for (let i = 0; i < 100; i++) statuses.push((await api.get('/key')).status);
			return statuses;
		};
		const first = await run();
		const errors = first.filter((s) => s >= 500).length;
		expect(errors).toBeGreaterThan(15);
		expect(errors).toBeLessThan(45);
		expect(new Set(first.filter((s) => s >= 500))).toEqual(new Set([503, 502, 500]));
		expect(await run()).toEqual(first);
		expect(sandbox().stats().faultsInjected.error).toBe(1 + 2 * errors);
	});

	it('answers 500 with an HTML body when malformed', async () => {
		sandbox().setFaults({ malformedRate: 1 });
		const res = await apiClient(sandbox()).get('/course', { responseType: 'text' });
		expect(res.status).toBe(500);
		expect(res.headers['content-type']).toContain('text/html');
		expect(() => JSON.parse(res.data)).toThrow();
	});

	it('destroys the socket before applying (reset) or after applying a write (resetAfterApply)', async () => {
		const api = apiClient(sandbox());
		sandbox().setFaults({ resetRate: 1 });
		await expect(api.post('/user/provision', provision('reset@example.com'))).rejects.toMatchObject(
			{ code: 'ECONNRESET' },
		);
		expect(sandbox().state.findUserByEmail('reset@example.com')).toBeUndefined();

		sandbox().setFaults({ resetRate: 0, resetAfterApplyRate: 1 });
		await expect(
			api.post('/user/provision', provision('applied@example.com')),
		).rejects.toMatchObject({ code: 'ECONNRESET' });
		expect(sandbox().state.findUserByEmail('applied@example.com')).toBeDefined();
		expect((await api.get('/course')).status).toBe(200); // reads are never reset-after-apply

		sandbox().resetFaults();
		const retry = await api.post('/user/provision', provision('applied@example.com'));
		expect(retry.status).toBe(200);
		const stats = sandbox().stats();
		expect(stats.writes['provision:applied@example.com']).toBe(2);
		expect(stats.duplicateWrites).toBe(1);
		expect(stats.faultsInjected).toMatchObject({ reset: 1, resetAfterApply: 1 });
	});

	it('adds latency and slow answers, and tracks requests in flight', async () => {
		sandbox().setFaults({ latencyMs: 80 });
		const api = apiClient(sandbox());
		const started = Date.now();
		await Promise.all(Array.from({ length: 5 }, () => api.get('/course')));
		expect(Date.now() - started).toBeGreaterThanOrEqual(75);
		let stats = sandbox().stats();
		expect(stats.maxInFlight).toBe(5);
		expect(stats.inFlight).toBe(0);
		expect(stats.byRoute['GET /public/api/v1/course']).toBe(5);

		sandbox().setFaults({ latencyMs: 0, slowRate: 1, slowMs: 120 });
		const t = Date.now();
		await api.get('/course');
		expect(Date.now() - t).toBeGreaterThanOrEqual(110);
		stats = sandbox().stats();
		expect(stats.faultsInjected).toMatchObject({ latency: 5, slow: 1 });
	});

	it('is configurable over HTTP and exposes stats over HTTP', async () => {
		const control = controlClient(sandbox());
		const set = await control.post('/faults', { errorRate: 1, errorStatuses: [502] });
		expect(set.data).toMatchObject({ errorRate: 1, errorStatuses: [502], rateLimitPerSecond: 0 });
		expect((await apiClient(sandbox()).get('/course')).status).toBe(502);
		await control.delete('/faults');
		expect((await apiClient(sandbox()).get('/course')).status).toBe(200);

		const stats = await control.get('/stats');
		expect(stats.data).toMatchObject({ requests: 2, faultsInjected: { error: 1, 'error:502': 1 } });
		expect((await control.post('/stats/reset')).data).toMatchObject({
			requests: 0,
			byRoute: {},
			duplicateWrites: 0,
		});
	});
});
