/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Course → Get Image over real HTTP against the sandbox: the image bytes as n8n binary data
 * (MIME type from the bytes, file name from the answer made safe: the extension of the bytes, a
 * name Windows stores; the field named by "Put Output File in Field"), in n8n's in-memory binary
 * mode and in its filesystem mode, and a clear error when there is no image.
 */
import { Container } from '@n8n/di';
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';
import { BinaryDataService } from 'n8n-core';

import { coursePng } from '../../sandbox/image';
import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { clearEdges, runNode, setEdge } from '../harness';
import { credentialsFor, expectRefused, NODE_TYPE, rl, rlList, run, useSandbox } from './setup';

const ctx = useSandbox();
const IMAGE_ROUTE = 'GET /public/api/v1/course/{id}/image';

const bytesOf = async (binary: IBinaryData): Promise<Buffer> =>
	await Container.get(BinaryDataService).getAsBuffer(binary);

async function getImage(
	items: IDataObject[],
	extra: IDataObject = {},
	onError?: 'continueErrorOutput',
) {
	return await runNode({
		nodeType: new Knolyx(),
		type: NODE_TYPE,
		parameters: {
			resource: 'course',
			operation: 'getImage',
			courseId: rl('={{ $json.course }}'),
			...extra,
		},
		items,
		credentials: { knolyxApi: { ...credentialsFor(ctx.sandbox) } },
		credentialTypes: [new KnolyxApi()],
		onError,
	});
}

async function expectImage(
	item: INodeExecutionData,
	courseId: number,
	field = 'data',
): Promise<void> {
	const png = coursePng(courseId);
	expect(item.json).toEqual({
		courseId,
		fileName: `course-${courseId}-image.png`,
		mimeType: 'image/png',
		fileSize: png.length,
	});
	expect(Object.keys(item.binary ?? {})).toEqual([field]);
	const binary = (item.binary as Record<string, IBinaryData>)[field];
	expect(binary).toMatchObject({
		fileName: `course-${courseId}-image.png`,
		mimeType: 'image/png',
		fileExtension: 'png',
	});
	expect((await bytesOf(binary)).equals(png)).toBe(true);
}

describe('Course → Get Image (n8n in-memory binary data)', () => {
	it('outputs each course image in the "data" field, paired with its item, one request each', async () => {
		const result = await getImage([{ course: 101 }, { course: 103 }]);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		await expectImage(result.items[0], 101);
		await expectImage(result.items[1], 103);
		expect(result.items[0].binary?.data.data).toBe(coursePng(101).toString('base64'));
		expect(ctx.sandbox.stats().byRoute).toEqual({ [IMAGE_ROUTE]: 2 });
	});

	it('"Put Output File in Field" names the binary field; the course can be picked from the list', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'course',
			operation: 'getImage',
			courseId: rlList(102),
			binaryPropertyName: 'cover',
		});
		expect(result.error).toBeUndefined();
		await expectImage(result.items[0], 102, 'cover');
	});

	it('no image (404 from the image endpoint) is a clear error naming the course', async () => {
		const result = await getImage([{ course: 999 }]);
		expect(result.error?.message).toBe(
			'Knolyx: Entity not found (course 999, or its image: the course may have none) [404]',
		);
		const errorOutput = await getImage(
			[{ course: 101 }, { course: 999 }],
			{},
			'continueErrorOutput',
		);
		await expectImage(errorOutput.items[0], 101);
		expect(
			errorOutput.errorItems.map((item) => [
				item.pairedItem,
				item.json.course,
				(item.json.error as { httpCode?: string }).httpCode,
			]),
		).toEqual([[{ item: 1 }, 999, '404']]);
	});

	it('a course that exists but has no image is a clear error naming the course, and nothing is output', async () => {
		const added = await fetch(`${ctx.sandbox.url}/sandbox/courses`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ title: 'No cover yet', image: false }),
		});
		const { courses } = (await added.json()) as { courses: Array<{ id: number }> };
		const id = courses[0].id;
		const result = await getImage([{ course: id }]);
		expect(result.error?.message).toBe(
			`Knolyx: Entity not found (course ${id}, or its image: the course may have none) [404]`,
		);
		expect(result.items).toEqual([]);
	});

	it('an empty field name is refused before any request', async () => {
		await expectRefused(
			ctx.sandbox,
			{ resource: 'course', operation: 'getImage', courseId: rl(101), binaryPropertyName: ' ' },
			'Put Output File in Field: is required and was empty (item 0)',
		);
	});

	it('a key without COURSE_GET gets an error naming it', async () => {
		const result = await run(
			ctx.sandbox,
			{ resource: 'course', operation: 'getImage', courseId: rl(101) },
			[{}],
			{
				credentials: { apiKey: 'demo-key-without-course_get' },
			},
		);
		expect((result.error as { description?: string }).description).toContain('COURSE_GET');
	});
});

describe('Course → Get Image: a file is a file (decided from its bytes)', () => {
	const IMAGE_PATH = '/public/api/v1/course/101/image';
	afterEach(async () => {
		await clearEdges(ctx.sandbox.url);
	});
	const answer = async (answerRule: IDataObject) =>
		await setEdge(ctx.sandbox.url, { path: IMAGE_PATH, answer: answerRule });

	it.each([
		['application/problem+json', '{"type":"about:blank","title":"Maintenance","status":200}'],
		['application/hal+json', '{"_links":{"self":{"href":"/course/101/image"}}}'],
		[null, '<!DOCTYPE html><html><head><title>Knolyx</title></head><body>Sign in</body></html>'],
		['image/png', '<html><body>Not an image</body></html>'],
		['application/octet-stream', '{"message":"no image"}'],
	])(
		'a 200 with Content-Type %s and a body that is no image is a clear error, never a binary item',
		async (contentType, body) => {
			await answer({ contentType, body });
			const result = await getImage([{ course: 101 }]);
			expect(result.items).toEqual([]);
			expect(result.error?.message).toMatch(
				/^Knolyx answered with .+ instead of the image of course 101$/,
			);
			expect(result.error?.message).toContain(`(Content-Type: ${contentType ?? 'none'})`);
			expect((result.error as { description?: string }).description).toContain('not an image');
		},
	);

	it('a PNG sent without a Content-Type gets image/png and the .png extension', async () => {
		await answer({ contentType: null, png: true });
		const result = await getImage([{ course: 101 }]);
		expect(result.error).toBeUndefined();
		await expectImage(result.items[0], 101);
	});

	it('a PNG sent as application/octet-stream is still an image/png', async () => {
		await answer({ contentType: 'application/octet-stream', png: true });
		const result = await getImage([{ course: 101 }]);
		expect(result.error).toBeUndefined();
		await expectImage(result.items[0], 101);
	});

	it.each([
		['a long ASCII name', `attachment; filename="${'a'.repeat(400)}.png"`, 'a'],
		[
			'a long UTF-8 name',
			`attachment; filename*=UTF-8''${encodeURIComponent('é'.repeat(300))}.png`,
			'é',
		],
	])(
		'%s from Content-Disposition is cut to 255 bytes, keeping the extension',
		async (_what, contentDisposition, letter) => {
			await answer({ contentType: 'image/png', png: true, contentDisposition });
			const result = await getImage([{ course: 101 }]);
			expect(result.error).toBeUndefined();
			const fileName = String(result.items[0].json.fileName);
			expect(Buffer.byteLength(fileName, 'utf8')).toBeLessThanOrEqual(255);
			expect(Buffer.byteLength(fileName, 'utf8')).toBeGreaterThan(250);
			expect(fileName).toMatch(new RegExp(`^${letter}+\\.png$`));
			expect((result.items[0].binary?.data as IBinaryData).fileName).toBe(fileName);
		},
	);
});

describe('Course → Get Image: the file name (extension from the bytes, a name Windows stores)', () => {
	const IMAGE_PATH = '/public/api/v1/course/101/image';
	afterEach(async () => {
		await clearEdges(ctx.sandbox.url);
	});

	/** The item's name in json and binary, and what n8n derived from it, for one answer. */
	async function nameOf(answerRule: IDataObject) {
		await setEdge(ctx.sandbox.url, { path: IMAGE_PATH, answer: answerRule });
		const result = await getImage([{ course: 101 }]);
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		const binary = item.binary?.data as IBinaryData;
		expect(binary.fileName).toBe(item.json.fileName);
		expect(binary.mimeType).toBe(item.json.mimeType);
		return { item, binary };
	}

	/** A PNG answered with this Content-Disposition is output as `expected`, an image/png with its extension. */
	async function expectPngNamed(contentDisposition: string, expected: string): Promise<void> {
		const { item, binary } = await nameOf({
			contentType: 'image/png',
			png: true,
			contentDisposition,
		});
		expect(item.json).toEqual({
			courseId: 101,
			fileName: expected,
			mimeType: 'image/png',
			fileSize: coursePng(101).length,
		});
		expect(binary).toMatchObject({
			fileName: expected,
			fileExtension: expected.slice(expected.lastIndexOf('.') + 1),
			mimeType: 'image/png',
			fileType: 'image',
		});
		expect(binary.fileExtension?.toLowerCase()).toBe('png');
		expect(binary.directory).toBeUndefined();
		expect((await bytesOf(binary)).equals(coursePng(101))).toBe(true);
	}

	it('a PNG sent as filename="invoice.html" is output as invoice.png (image/png, extension png)', async () => {
		await expectPngNamed('attachment; filename="invoice.html"', 'invoice.png');
	});

	it('a GIF/HTML polyglot sent as text/html named invoice.html is output as invoice.gif, an image/gif', async () => {
		const polyglot = 'GIF89a<html><body><script>document.title="owned"</script></body></html>';
		const { item, binary } = await nameOf({
			contentType: 'text/html',
			body: polyglot,
			contentDisposition: 'attachment; filename="invoice.html"',
		});
		expect(item.json).toEqual({
			courseId: 101,
			fileName: 'invoice.gif',
			mimeType: 'image/gif',
			fileSize: polyglot.length,
		});
		expect(binary).toMatchObject({
			fileName: 'invoice.gif',
			fileExtension: 'gif',
			mimeType: 'image/gif',
		});
		expect((await bytesOf(binary)).toString('utf8')).toBe(polyglot);
	});

	it.each([
		// The extension follows the bytes: replaced, appended, or kept when it is the type's own.
		['inline; filename=cover', 'cover.png'],
		['attachment; filename="cover.jpg"', 'cover.png'],
		['attachment; filename="archive.tar.gz"', 'archive.tar.png'],
		['attachment; filename="Dr. Who"', 'Dr. Who.png'],
		['attachment; filename="cover.PNG"', 'cover.PNG'],
		['attachment; filename="cover.png"', 'cover.png'],
		// Windows device names, with any extension and in any case.
		['attachment; filename="CON.png"', '_CON.png'],
		['attachment; filename="nul"', '_nul.png'],
		['attachment; filename="COM1.jpg"', '_COM1.png'],
		['attachment; filename="LPT9.png"', '_LPT9.png'],
		['attachment; filename="aux.tar.png"', '_aux.tar.png'],
		['attachment; filename="Prn.PNG"', '_Prn.PNG'],
		['attachment; filename="com0.png"', '_com0.png'],
		['attachment; filename="lpt0"', '_lpt0.png'],
		['attachment; filename="CON .png"', '_CON .png'],
		["attachment; filename*=UTF-8''COM%C2%B9.png", '_COM¹.png'],
		["attachment; filename*=UTF-8''lpt%C2%B3.txt", '_lpt³.png'],
		['attachment; filename="CONIN$.png"', '_CONIN$.png'],
		// Names that only start like one are kept.
		['attachment; filename="CONTENT.png"', 'CONTENT.png'],
		['attachment; filename="COM10.png"', 'COM10.png'],
		['attachment; filename="nullable.png"', 'nullable.png'],
		// An NTFS alternate stream, and the other characters Windows refuses.
		['attachment; filename="cover.png:payload.exe"', 'cover.png_payload.png'],
		['attachment; filename="cover.png::$DATA"', 'cover.png__$DATA.png'],
		['attachment; filename="a<b>c|d?e*f.png"', 'a_b_c_d_e_f.png'],
		// Trailing dots and spaces, which Windows drops.
		['attachment; filename="cover.png."', 'cover.png'],
		['attachment; filename="cover.png . "', 'cover.png'],
		['attachment; filename="cover.png. . ."', 'cover.png'],
		["attachment; filename*=UTF-8''cover%20%20.%20.", 'cover.png'],
		// Never a path; nothing left: the default name.
		['attachment; filename="../../CON"', '_CON.png'],
		['attachment; filename="..\\\\..\\\\cover.png."', 'cover.png'],
		['attachment; filename="..."', 'course-101-image.png'],
		['attachment; filename=" . . "', 'course-101-image.png'],
		["attachment; filename*=UTF-8''%3A", '_.png'],
	])('%s → %s', async (contentDisposition, expected) => {
		await expectPngNamed(contentDisposition, expected);
	});
});

describe('Course → Get Image (n8n filesystem binary data, as n8n runs by default)', () => {
	beforeAll(async () => {
		await Container.get(BinaryDataService).init();
	});

	it('stores the image as a file n8n reads back byte for byte', async () => {
		const result = await getImage([{ course: 101 }]);
		expect(result.error).toBeUndefined();
		const binary = result.items[0].binary?.data as IBinaryData;
		expect(binary.id).toMatch(/^filesystem/);
		expect(binary.data).not.toBe(coursePng(101).toString('base64'));
		await expectImage(result.items[0], 101);
	});
});
