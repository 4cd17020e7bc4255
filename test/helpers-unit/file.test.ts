import { fileOf } from '../../nodes/Knolyx/transport/file';

// The file name read from Content-Disposition (every case) is tested through the node over HTTP:
// test/action/transport.test.ts, "the file name of a course image", and
// test/action/course-image.test.ts, "the file name"; the safe name itself in fileName.test.ts.
describe('fileOf', () => {
	it('a 2xx answer becomes the bytes with the MIME type (no parameters) and file name', () => {
		const data = Buffer.from([1, 2, 3]);
		const file = fileOf({
			statusCode: 200,
			headers: {
				'content-type': 'Image/PNG; charset=binary',
				'content-disposition': 'inline; filename="c.png"',
			},
			body: data,
		});
		expect(file).toEqual({ data, mimeType: 'image/png', fileName: 'c.png' });
	});

	it('gives the name as the header has it (decoded): the operation makes it safe, knowing the bytes', () => {
		const file = fileOf({
			statusCode: 200,
			headers: { 'content-disposition': "attachment; filename*=UTF-8''..%2FCON.html%3Ax." },
			body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		});
		expect(file).toMatchObject({ imageType: 'image/png', fileName: '../CON.html:x.' });
	});
});
