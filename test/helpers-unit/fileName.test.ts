import { safeFileName } from '../../nodes/Knolyx/helpers/fileName';

// Over HTTP, through the node and n8n's binary data: test/action/course-image.test.ts ("the file
// name") and test/action/transport.test.ts ("the file name of a course image").
const PNG = 'image/png';
/** Numbers in [0, 1) from a seed, the same every run. */
const randomFrom = (seed: number) => () => {
	seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
	return seed / 2 ** 31;
};
const name = (given: string | undefined, mimeType = PNG) =>
	safeFileName(given, mimeType, 'course-7-image');

describe('safeFileName: the extension follows the bytes', () => {
	it.each([
		['invoice.html', PNG, 'invoice.png'],
		['cover', PNG, 'cover.png'],
		['photo.jpeg', 'image/jpeg', 'photo.jpeg'],
		['photo.JPG', 'image/jpeg', 'photo.JPG'],
		['photo.jfif', 'image/jpeg', 'photo.jfif'],
		['photo.png', 'image/jpeg', 'photo.jpg'],
		['scan.tif', 'image/tiff', 'scan.tif'],
		['scan.tiff', 'image/tiff', 'scan.tiff'],
		['logo.svg', 'image/svg+xml', 'logo.svg'],
		['logo.html', 'image/svg+xml', 'logo.svg'],
		['anim.gif', 'image/gif', 'anim.gif'],
		['a.webp', 'image/webp', 'a.webp'],
		['a.bmp', 'image/avif', 'a.avif'],
		['icon', 'image/x-icon', 'icon.ico'],
		['old.dib', 'image/bmp', 'old.dib'],
		['archive.tar.gz', PNG, 'archive.tar.png'],
		['report.v2', PNG, 'report.png'],
		['Dr. Who', PNG, 'Dr. Who.png'],
		['a.b-c', PNG, 'a.b-c.png'],
		['a.verylongextension', PNG, 'a.verylongextension.png'],
		['.png', PNG, 'course-7-image.png'],
		['.PNG', PNG, 'course-7-image.PNG'],
		['.jpeg', 'image/jpeg', 'course-7-image.jpeg'],
		['.html', PNG, '.html.png'],
		['cover.png.', PNG, 'cover.png'],
	])('%s with %s bytes → %s', (given, mimeType, expected) => {
		expect(name(given, mimeType)).toBe(expected);
	});

	it('without a name, or with nothing left of it, the default name with the extension', () => {
		expect(name(undefined)).toBe('course-7-image.png');
		expect(name(undefined, 'image/jpeg')).toBe('course-7-image.jpg');
		for (const given of ['', ' ', '.', '..', '...', ' . . ', '/', 'a/', '..\\', '\u202e', '\u0000'])
			expect(name(given)).toBe('course-7-image.png');
	});

	it('a type it has no extension for keeps the name (made safe) as it is', () => {
		expect(name('CON:x.bin', 'application/octet-stream')).toBe('CON_x.bin');
		expect(name('NUL.bin', 'application/octet-stream')).toBe('_NUL.bin');
		expect(name(undefined, 'application/octet-stream')).toBe('course-7-image');
		for (const inherited of ['constructor', '__proto__', 'toString'])
			expect(name('a.png', inherited)).toBe('a.png');
	});
});

describe('safeFileName: names Windows stores as given', () => {
	const devices = [
		'CON',
		'PRN',
		'AUX',
		'NUL',
		'CONIN$',
		'CONOUT$',
		...['COM', 'LPT'].flatMap((kind) => [...'0123456789¹²³'].map((digit) => `${kind}${digit}`)),
	];

	it.each(devices)('%s, in any case, with or without extensions, gets "_" in front', (device) => {
		for (const spelled of [
			device,
			device.toLowerCase(),
			device[0] + device.slice(1).toLowerCase(),
		]) {
			expect(name(spelled)).toBe(`_${spelled}.png`);
			expect(name(`${spelled}.png`)).toBe(`_${spelled}.png`);
			expect(name(`${spelled}.jpg`)).toBe(`_${spelled}.png`);
			expect(name(`${spelled}.tar.png`)).toBe(`_${spelled}.tar.png`);
			expect(name(`${spelled} .png`)).toBe(`_${spelled} .png`);
			expect(name(`${spelled}.`)).toBe(`_${spelled}.png`);
			expect(name(`dir/${spelled}.png`)).toBe(`_${spelled}.png`);
		}
	});

	it.each([
		'CONTENT.png',
		'COM10.png',
		'LPT.png',
		'nullable.png',
		'xCON.png',
		'auxiliary',
		'con_1.png',
		'COM½.png',
	])('%s only looks like a device name and is kept', (given) => {
		expect(name(given)).toBe(given.endsWith('.png') ? given : `${given}.png`);
	});

	it.each([
		['cover.png:payload.exe', 'cover.png_payload.png'],
		['cover.png::$DATA', 'cover.png__$DATA.png'],
		['a<b>c|d?e*f.png', 'a_b_c_d_e_f.png'],
		['say "hi".png', 'say _hi_.png'],
		['C:\\temp\\x.png', 'x.png'],
		['../../etc/passwd', 'passwd.png'],
		['..\\..\\CON', '_CON.png'],
		['tab\there.png', 'tabhere.png'],
		['bell\u0007.png', 'bell.png'],
		['a\u202egnp.exe', 'agnp.png'],
		['cover.png . ', 'cover.png'],
		['  cover.png. . .', 'cover.png'],
		[':', '_.png'],
	])('%s → %s', (given, expected) => {
		expect(name(given)).toBe(expected);
	});

	it('a name over 255 bytes of UTF-8 is cut, keeping whole characters and the extension', () => {
		const ascii = name(`${'a'.repeat(400)}.html`);
		expect(ascii).toBe(`${'a'.repeat(251)}.png`);
		const utf8 = name(`${'é'.repeat(300)}`);
		expect(utf8).toBe(`${'é'.repeat(125)}.png`);
		expect(Buffer.byteLength(utf8, 'utf8')).toBe(254);
	});

	it('a megabyte of a name (dots and spaces, colons, separators) takes milliseconds', () => {
		const started = Date.now();
		expect(name(`cover${'. '.repeat(500_000)}x`)).toBe('cover.png');
		expect(name(`${':'.repeat(1_000_000)}.`)).toBe(`${'_'.repeat(251)}.png`);
		expect(name(`${'/'.repeat(1_000_000)}CON`)).toBe('_CON.png');
		expect(name(`a${'.a'.repeat(500_000)}!`)).toBe(`${'a.'.repeat(126)}png`);
		expect(name(`${'\u202e'.repeat(1_000_000)}x`)).toBe('course-7-image.png');
		expect(Date.now() - started).toBeLessThan(1000);
	});

	it('any name becomes one that is safe (2 000 random names from the characters that matter)', () => {
		const pool = [
			'a',
			'B',
			'.',
			' ',
			':',
			'/',
			'\\',
			'<',
			'"',
			'|',
			'?',
			'*',
			'\u0001',
			'\u202e',
			'é',
			'CON',
			'nul',
			'lpt¹',
			'..',
			'png',
			'html',
			'jpeg',
		];
		const next = randomFrom(42);
		for (let run = 0; run < 2000; run += 1) {
			const given = Array.from(
				{ length: 1 + Math.floor(next() * 12) },
				() => pool[Math.floor(next() * pool.length)],
			).join('');
			const result = name(given);
			expect(result).toMatch(/^[^<>:"/\\|?*\p{Cc}\p{Cf}]+\.png$/u);
			expect(result).not.toMatch(/^(con|prn|aux|nul|conin\$|conout\$|(com|lpt)[0-9¹²³]) *(\.|$)/i);
			expect(result).not.toMatch(/^\s/);
			expect(Buffer.byteLength(result, 'utf8')).toBeLessThanOrEqual(255);
		}
	});
});

describe('safeFileName: whole characters, no invisible or separator characters, one extension', () => {
	/** Whether a text has half of a surrogate pair (on which encodeURIComponent throws). */
	const hasLoneSurrogate = (text: string) => /\p{Cs}/u.test(text);

	it('a name whose first 1024 UTF-16 units end inside an emoji keeps no half of it', () => {
		// Dropped characters first, so the cut falls in the emoji and the rest stays short.
		const given = `a${'\u0001'.repeat(1022)}😀.png`;
		const result = name(given);
		expect(hasLoneSurrogate(result)).toBe(false);
		expect(() => encodeURIComponent(result)).not.toThrow();
		expect(result).toBe('a.png');
		const emojis = name(`${'😀'.repeat(600)}`);
		expect(hasLoneSurrogate(emojis)).toBe(false);
		expect(emojis).toBe(`${'😀'.repeat(62)}.png`);
	});

	it('lone surrogates in the name itself are dropped', () => {
		expect(name('a\ud83d.png')).toBe('a.png');
		expect(name('\ude00b\ud83d')).toBe('b.png');
	});

	it.each([
		['line separator', 'a.png\u2028', 'a.png'],
		['paragraph separator', 'a\u2029b.png', 'ab.png'],
		['line separator before the extension', 'cover\u2028.png', 'cover.png'],
		['no-break space', 'a\u00a0b.png', 'a b.png'],
		['ideographic space', 'a\u3000b.png', 'a b.png'],
		['narrow no-break space at the end', 'a.png\u202f', 'a.png'],
		['zero-width space', 'a\u200bb.png', 'ab.png'],
		['byte order mark', '\ufeffa.png', 'a.png'],
		['soft hyphen', 'a\u00adb.png', 'ab.png'],
		['C1 control', 'a\u0085b.png', 'ab.png'],
		['tag characters', 'a\u{e0041}\u{e007f}.png', 'a.png'],
		['word joiner', 'a\u2060.png\u2060', 'a.png'],
	])('%s: %j → %j', (_what, given, expected) => {
		expect(name(given)).toBe(expected);
	});

	it('the extension is appended once, whatever surrounds it', () => {
		for (const given of ['a.png', 'a.png\u2028', 'a.png\u0000', 'a.png ', 'a.png.', 'a.png\u200b'])
			expect(name(given)).toBe('a.png');
	});

	it('any name becomes one of whole characters with no control, format or separator character but the space (2 000 random names)', () => {
		const pool = [
			'a',
			'.',
			' ',
			'png',
			'😀',
			'\ud83d',
			'\ude00',
			'\u2028',
			'\u2029',
			'\u00a0',
			'\u3000',
			'\u200b',
			'\u0085',
			'\u202e',
			'\u{e0041}',
		];
		const next = randomFrom(7);
		for (let run = 0; run < 2000; run += 1) {
			const given = Array.from(
				{ length: 1 + Math.floor(next() * 600) },
				() => pool[Math.floor(next() * pool.length)],
			).join('');
			const result = name(given);
			expect(hasLoneSurrogate(result)).toBe(false);
			expect(result).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
			expect(result.replace(/ /g, '')).not.toMatch(/\p{Zs}/u);
			expect(result).toMatch(/\.png$/);
			// Safe names stay as they are: nothing is appended a second time.
			expect(name(result)).toBe(result);
			expect(Buffer.byteLength(result, 'utf8')).toBeLessThanOrEqual(255);
		}
	});
});
