/**
 * The name a downloaded file is output with. Whatever name the answer gives, the result is one
 * name (never a path), one that Windows stores as given (n8n runs there too, and workflows write
 * binaries to disk by their name), at most 255 bytes of UTF-8, and its extension is one of the
 * type its bytes show, so whoever saves or serves it by name gets what the bytes are.
 */

import { cutOnCodePoint } from './readableText';

/** The extensions of each image type the node recognises by its bytes; the first is the one it gives. */
const IMAGE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
	'image/png': ['png'],
	'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
	'image/gif': ['gif'],
	'image/webp': ['webp'],
	'image/svg+xml': ['svg'],
	'image/avif': ['avif'],
	'image/bmp': ['bmp', 'dib'],
	'image/tiff': ['tiff', 'tif'],
	'image/x-icon': ['ico'],
};

/** The most a file name may take in bytes (UTF-8) on common file systems. */
const MAX_NAME_BYTES = 255;

/**
 * How much of a name is read (UTF-16 units): the name kept is at most 255 bytes, and its end
 * only ever loses the extension the bytes replace, so the rest of a longer name (a header may
 * hold kilobytes of colons) is not worked on.
 */
const MAX_READ = 1024;

/**
 * Characters a name loses: controls (Cc), invisible formatting (Cf: a right-to-left override, a
 * zero-width space), line and paragraph separators (Zl, Zp), and halves of surrogate pairs (Cs).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** Space separators (Zs) other than the space itself (a no-break or an ideographic space) become a space. */
const SPACES = /[^\P{Zs} ]/gu;

/** Characters Windows refuses in a name (a colon opens an NTFS alternate stream); each becomes '_'. */
const WINDOWS_FORBIDDEN = /[<>:"|?*]/g;

/**
 * Windows device names, which name the device whatever follows the first dot (NUL.txt and
 * NUL.tar.gz are NUL), in any case, also with spaces before that dot; COM and LPT also with the
 * superscript digits ¹ ² ³, which Windows reserves too.
 */
const DEVICE_NAME = /^(con|prn|aux|nul|conin\$|conout\$|(com|lpt)[0-9¹²³]) *(\.|$)/i;

/** What follows the last dot when it is 1 to 10 ASCII letters or digits ("html", "v2", "7z"). */
const EXTENSION = /\.([a-z0-9]{1,10})$/i;

/**
 * The safe name of a file whose bytes are of `mimeType`, from the name an answer gave (undefined:
 * none). Only what follows the last / or \ is kept, and of that its first 1024 UTF-16 units, cut
 * on a whole character; controls, invisible formatting characters (a right-to-left override, a
 * zero-width space), line and paragraph separators and halves of surrogate pairs are dropped;
 * other space separators (a no-break space) become a space; < > : " | ? * become '_'; leading
 * and trailing spaces and trailing dots go. Nothing left (".", "..", " . "), or only the type's
 * extension (".png"): `fallbackStem` (with that extension). The extension then follows the bytes: kept when it is one of the
 * type's own ("photo.jpeg" for a JPEG), replaced when it is another ("invoice.html" →
 * "invoice.png"), appended when there is none ("cover" → "cover.png"). A Windows device name
 * (CON, PRN, AUX, NUL, COM0-9, LPT0-9, …) gets '_' in front ("_CON.png"). Last, a name over 255
 * bytes of UTF-8 is cut, keeping its extension.
 */
export function safeFileName(
	given: string | undefined,
	mimeType: string,
	fallbackStem: string,
): string {
	const text = given ?? '';
	const cleaned = cutOnCodePoint(
		text.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1),
		MAX_READ,
	)
		.replace(INVISIBLE, '')
		.replace(SPACES, ' ')
		.replace(WINDOWS_FORBIDDEN, '_')
		.trim();
	let name = withoutTrailingDots(cleaned);
	// By own property only: a type named like an inherited property (`constructor`) has none.
	const extensions = Object.hasOwn(IMAGE_EXTENSIONS, mimeType)
		? IMAGE_EXTENSIONS[mimeType]
		: undefined;
	if (extensions) {
		// A leading dot opens no extension (".html" is a name), unless it is the type's own.
		const found = EXTENSION.exec(name);
		const own = found !== null && extensions.includes(found[1].toLowerCase());
		const current = found !== null && (own || found.index > 0) ? found : null;
		// A name that is only the type's extension (".png") has no stem: the fallback gets it.
		if (current && own && current.index === 0) name = `${fallbackStem}${name}`;
		else if (!own)
			name = `${current ? name.slice(0, current.index) : name || fallbackStem}.${extensions[0]}`;
	} else if (name === '') name = fallbackStem;
	if (DEVICE_NAME.test(name)) name = `_${name}`;
	return fitName(name);
}

/** The name without the dots and spaces it ends with, which Windows drops (a loop: no regular expression backtracks on a long run). */
function withoutTrailingDots(name: string): string {
	let end = name.length;
	while (end > 0 && (name[end - 1] === '.' || name[end - 1] === ' ')) end -= 1;
	return name.slice(0, end);
}

/** Cuts a name to MAX_NAME_BYTES of UTF-8, keeping its extension and whole characters. */
function fitName(name: string): string {
	if (Buffer.byteLength(name, 'utf8') <= MAX_NAME_BYTES) return name;
	const dot = name.lastIndexOf('.');
	const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
	let stem = '';
	let room = MAX_NAME_BYTES - Buffer.byteLength(extension, 'utf8');
	for (const character of name.slice(0, name.length - extension.length)) {
		const size = Buffer.byteLength(character, 'utf8');
		if (size > room) break;
		stem += character;
		room -= size;
	}
	return `${stem}${extension}`;
}
