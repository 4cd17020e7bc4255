import { fileOf } from '../../nodes/Knolyx/transport/file';

// The file name read from Content-Disposition (every case) is tested through the node over HTTP:
// test/action/transport.test.ts, "the file name of a course image".
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
});
