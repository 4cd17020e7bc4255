/**
 * Answers written to hurt (issue 37), over real HTTP against the sandbox's edge rules, through the
 * node in a real n8n-core workflow: the web page of `<a`, the 400 whose message is `<!--` over and
 * over and the list where an object was due end as the node's own errors, with only the start of
 * the answer in them (helpers-unit/readable-text.test.ts shows nothing after the first characters
 * is read; no timing is asserted here); a file name whose first 1024 UTF-16 units end inside an
 * emoji, sent as a long `filename*=`, comes out as a whole name n8n can store.
 */
import type { IBinaryData } from 'n8n-workflow';

import { clearEdges, setEdge } from '../harness';
import { rl, run, useSandbox } from './setup';

const ctx = useSandbox();
const API = '/public/api/v1';

afterEach(async () => {
	await clearEdges(ctx.sandbox.url);
});

const getCourse = async (continueOnFail = false) =>
	await run(ctx.sandbox, { resource: 'course', operation: 'get', courseId: rl(101) }, [{}], {
		continueOnFail,
	});

describe('hostile answers end as the node’s errors, showing only their start', () => {
	it('a 120 KB web page of "<a" where JSON was due (200)', async () => {
		await setEdge(ctx.sandbox.url, {
			path: `${API}/course/101`,
			answer: { status: 200, contentType: 'text/html', body: '<a'.repeat(60_000) },
		});
		const result = await getCourse();
		expect(result.error?.message).toBe(
			"Knolyx answered with a web page (HTML), not the API's JSON: the base URL looks wrong [200]",
		);
		expect(JSON.stringify(result.error).length).toBeLessThan(20_000);
	});

	it('a 400 whose message is 120 KB of "<!--"', async () => {
		await setEdge(ctx.sandbox.url, {
			path: `${API}/course/101`,
			answer: {
				status: 400,
				body: JSON.stringify({ status: 400, message: '<!--'.repeat(30_000) }),
			},
		});
		const result = await getCourse();
		expect(result.error?.message).toBe('Knolyx answered with status 400');
		expect(JSON.stringify(result.error).length).toBeLessThan(20_000);
	});

	it('a 200 list of 120 KB of "<a" where an object was due, under Continue On Fail', async () => {
		await setEdge(ctx.sandbox.url, {
			path: `${API}/course/101`,
			answer: { status: 200, body: JSON.stringify(['<a'.repeat(60_000)]) },
		});
		const result = await getCourse(true);
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{
				error: 'Knolyx answered a read with something that is not an object [200]',
				description: expect.stringContaining('the answer began with: ["<a<a<a'),
				httpCode: '200',
			},
		]);
		expect(JSON.stringify(result.json).length).toBeLessThan(2_000);
	});
});

describe('Course → Get Image: a long filename*= cut inside an emoji', () => {
	it('comes out whole, without half of the emoji, and n8n stores it', async () => {
		// 1022 controls (dropped) after "a": the first 1024 UTF-16 units end inside the emoji.
		const encoded = `a${'%01'.repeat(1022)}${encodeURIComponent('😀')}.png`;
		await setEdge(ctx.sandbox.url, {
			path: `${API}/course/101/image`,
			answer: {
				contentType: 'image/png',
				png: true,
				contentDisposition: `attachment; filename*=UTF-8''${encoded}`,
			},
		});
		const result = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'getImage',
			courseId: rl(101),
		});
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toMatchObject({ fileName: 'a.png', mimeType: 'image/png' });
		expect(item.binary?.data as IBinaryData).toMatchObject({ fileName: 'a.png' });
	});
});
