/** Answers that are files (the course image): the bytes with the MIME type and file name the answer gives. */

export interface KnolyxFile {
	data: Buffer;
	/** Content-Type without its parameters, e.g. "image/png"; undefined when the answer has none. */
	mimeType?: string;
	/** The image format the bytes themselves show (magic numbers), e.g. "image/png"; undefined when they are no image. */
	imageType?: string;
	/**
	 * From Content-Disposition, decoded but as the answer gives it (it may hold a path, a device
	 * name, any extension): `safeFileName` (helpers/fileName.ts) makes a name of it. Undefined
	 * when the answer has none.
	 */
	fileName?: string;
}

interface Answer {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

const header = (headers: Record<string, unknown> | undefined, name: string): string | undefined => {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	const text = Array.isArray(value) ? value[0] : value;
	return typeof text === 'string' && text.trim() !== '' ? text.trim() : undefined;
};

/** The most of a Content-Disposition read (a name is cut far shorter: helpers/fileName.ts). */
const MAX_DISPOSITION_READ = 16_384;

const isSpace = (character: string | undefined) =>
	character === ' ' || character === '\t' || character === '\r' || character === '\n';

/**
 * The parameters of a Content-Disposition (`name=value`, `name="quoted \"value\""`), names in
 * lower case, the first of each kept. One pass over the text, no regular expression.
 */
function dispositionParameters(header: string): Map<string, string> {
	const text = header.slice(0, MAX_DISPOSITION_READ);
	const parameters = new Map<string, string>();
	// The disposition type comes first; parameters follow each ';'.
	let at = text.indexOf(';');
	while (at !== -1 && at < text.length) {
		at += 1;
		const equals = text.indexOf('=', at);
		const semicolon = text.indexOf(';', at);
		if (equals === -1) break;
		if (semicolon !== -1 && semicolon < equals) {
			at = semicolon;
			continue;
		}
		const name = text.slice(at, equals).trim().toLowerCase();
		let start = equals + 1;
		while (isSpace(text[start])) start += 1;
		let value = '';
		if (text[start] === '"') {
			let end = start + 1;
			while (end < text.length && text[end] !== '"') {
				if (text[end] === '\\' && end + 1 < text.length) end += 1;
				value += text[end];
				end += 1;
			}
			at = text.indexOf(';', end);
		} else {
			const end = text.indexOf(';', start);
			value = text.slice(start, end === -1 ? text.length : end).trim();
			at = end;
		}
		if (!parameters.has(name)) parameters.set(name, value);
	}
	return parameters;
}

/** `filename*=UTF-8''…` (RFC 6266/5987) first, then `filename="…"`, decoded but as given (helpers/fileName.ts makes it safe). */
function fileNameOf(contentDisposition: string | undefined): string | undefined {
	if (!contentDisposition) return undefined;
	const parameters = dispositionParameters(contentDisposition);
	const extended = parameters.get('filename*');
	if (extended !== undefined) {
		// charset'language'percent-encoded
		const charsetEnd = extended.indexOf("'");
		const languageEnd = charsetEnd === -1 ? -1 : extended.indexOf("'", charsetEnd + 1);
		const encoded = languageEnd === -1 ? '' : extended.slice(languageEnd + 1).trim();
		if (encoded !== '') {
			try {
				return decodeURIComponent(encoded);
			} catch {
				// Not UTF-8 percent-encoding: the plain name, if any.
			}
		}
	}
	const plain = parameters.get('filename');
	return plain === undefined || plain.trim() === '' ? undefined : plain.trim();
}

/** Image formats by their first bytes (null: any byte). */
const SIGNATURES: Array<{ mimeType: string; at?: number; bytes: Array<number | null> }> = [
	{ mimeType: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
	{ mimeType: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
	{ mimeType: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38, null, 0x61] },
	{
		mimeType: 'image/webp',
		bytes: [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50],
	},
	{ mimeType: 'image/bmp', bytes: [0x42, 0x4d, null, null, null, null, 0x00, 0x00, 0x00, 0x00] },
	{ mimeType: 'image/tiff', bytes: [0x49, 0x49, 0x2a, 0x00] },
	{ mimeType: 'image/tiff', bytes: [0x4d, 0x4d, 0x00, 0x2a] },
	{ mimeType: 'image/x-icon', bytes: [0x00, 0x00, 0x01, 0x00] },
	{ mimeType: 'image/avif', at: 4, bytes: [0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69, 0x66] },
	{ mimeType: 'image/avif', at: 4, bytes: [0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69, 0x73] },
];

/** The image format of some bytes from their magic numbers (an SVG from its root element); undefined when they are no image. */
export function imageTypeOf(data: Buffer): string | undefined {
	for (const { mimeType, at = 0, bytes } of SIGNATURES) {
		if (
			data.length >= at + bytes.length &&
			bytes.every((byte, index) => byte === null || data[at + index] === byte)
		)
			return mimeType;
	}
	// An SVG is text: an XML declaration, comments or a doctype may come before its <svg> root.
	const head = data.subarray(0, 4096).toString('utf8');
	return svgRootAt(head, head.startsWith('\ufeff') ? 1 : 0) ? 'image/svg+xml' : undefined;
}

/** Whether an `<svg` root follows from `at` after an XML declaration, comments and a doctype (one pass, no regular expression). */
function svgRootAt(head: string, at: number): boolean {
	// ASCII letters in lower case only: the copy keeps every position of `head`.
	const lower = head.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
	const skipSpaces = () => {
		while (isSpace(head[at])) at += 1;
	};
	skipSpaces();
	if (lower.startsWith('<?xml', at)) {
		const end = head.indexOf('?>', at);
		if (end === -1 || head.slice(at, end).includes('>')) return false;
		at = end + 2;
	}
	for (;;) {
		skipSpaces();
		let end: number;
		if (head.startsWith('<!--', at)) end = head.indexOf('-->', at + 4) + 3;
		else if (lower.startsWith('<!doctype svg', at)) end = head.indexOf('>', at) + 1;
		else break;
		if (end <= 0) return false;
		at = end;
	}
	const after = head[at + 4];
	return lower.startsWith('<svg', at) && (after === '>' || isSpace(after));
}

/** A successful file answer's bytes, with the MIME type and file name its headers give. */
export function fileOf(answer: Answer): KnolyxFile {
	const raw = answer.body;
	const data = Buffer.isBuffer(raw)
		? raw
		: raw instanceof ArrayBuffer
			? Buffer.from(raw)
			: Buffer.from(typeof raw === 'string' ? raw : '');
	return {
		data,
		mimeType: header(answer.headers, 'content-type')?.split(';')[0].trim().toLowerCase(),
		imageType: imageTypeOf(data),
		fileName: fileNameOf(header(answer.headers, 'content-disposition')),
	};
}
