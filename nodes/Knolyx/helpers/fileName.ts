/**
 * The name a downloaded file is output with. Whatever name the answer gives, the result is one
 * name (never a path), one that Windows stores as given (n8n runs there too, and workflows write
 * binaries to disk by their name), at most 255 bytes of UTF-8, and its extension is one of the
 * type its bytes show, so whoever saves or serves it by name gets what the bytes are.
 */

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

/** Characters Windows refuses in a name (a colon opens an NTFS alternate stream); each becomes '_'. */
const WINDOWS_FORBIDDEN = /[<>:"|?*]/g;

/**
 * Windows device names, which name the device whatever follows the first dot (NUL.txt and
 * NUL.tar.gz are NUL), in any case, also with spaces before that dot; COM and LPT also with the
 * superscript digits ¹ ² ³, which Windows reserves too.
 */
const DEVICE_NAME = /^(con|prn|aux|nul|conin\$|conout\$|(com|lpt)[0-9¹²³]) *(\.|$)/i;

/** What follows the last dot when it is 1 to 10 ASCII letters or digits ("html", "v2", "7z"). */
const EXTENSION = /(?<=.)\.([a-z0-9]{1,10})$/i;

/**
 * The safe name of a file whose bytes are of `mimeType`, from the name an answer gave (undefined:
 * none). Only what follows the last / or \ is kept, and of that its first 1024 characters;
 * control and invisible formatting characters (a right-to-left override) are dropped;
 * < > : " | ? * become '_'; leading and trailing spaces and trailing dots go. Nothing left (".",
 * "..", " . "): `fallbackStem`. The extension then follows the bytes: kept when it is one of the
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
	const cleaned = text
		.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1)
		.slice(0, MAX_READ)
		.replace(/[\p{Cc}\p{Cf}]/gu, '')
		.replace(WINDOWS_FORBIDDEN, '_')
		.trim();
	let name = withoutTrailingDots(cleaned) || fallbackStem;
	const extensions = IMAGE_EXTENSIONS[mimeType];
	if (extensions) {
		const current = EXTENSION.exec(name);
		if (!current || !extensions.includes(current[1].toLowerCase()))
			name = `${current ? name.slice(0, current.index) : name}.${extensions[0]}`;
	}
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
