import { fileNameOf, fileOf } from '../../nodes/Knolyx/transport/file';

describe('fileNameOf (Content-Disposition of a file answer)', () => {
	it.each([
		['attachment; filename="cover.png"', 'cover.png'],
		['inline; filename=cover.jpg', 'cover.jpg'],
		["attachment; filename=\"fallback.png\"; filename*=UTF-8''caf%C3%A9%20cover.png", 'café cover.png'],
		['attachment; filename="say \\"hi\\".png"', 'say "hi".png'],
		['attachment; filename="../../etc/passwd"', 'passwd'],
		['attachment; filename="C:\\\\temp\\\\x.png"', 'x.png'],
		['attachment; filename="a\u202egnp.exe"', 'agnp.exe'],
		['attachment; filename=".."', undefined],
		['attachment', undefined],
		[undefined, undefined],
	])('%s → %s', (header, expected) => {
		expect(fileNameOf(header)).toBe(expected);
	});
});

describe('fileOf', () => {
	it('a 2xx answer becomes the bytes with the MIME type (no parameters) and file name', () => {
		const data = Buffer.from([1, 2, 3]);
		const file = fileOf({ statusCode: 200, headers: { 'content-type': 'Image/PNG; charset=binary', 'content-disposition': 'inline; filename="c.png"' }, body: data });
		expect(file).toEqual({ data, mimeType: 'image/png', fileName: 'c.png' });
	});
});
