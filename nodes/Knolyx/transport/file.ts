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

/** `filename*=UTF-8''…` (RFC 6266/5987) first, then `filename="…"`, decoded but as given (helpers/fileName.ts makes it safe). */
function fileNameOf(contentDisposition: string | undefined): string | undefined {
	if (!contentDisposition) return undefined;
	let name: string | undefined;
	const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(contentDisposition);
	if (extended) {
		try {
			name = decodeURIComponent(extended[2].trim());
		} catch {
			name = undefined;
		}
	}
	if (name === undefined) {
		const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(contentDisposition);
		name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]).trim() : undefined;
	}
	return name;
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
	const head = data
		.subarray(0, 4096)
		.toString('utf8')
		.replace(/^\ufeff/, '');
	const prolog = head.replace(
		/^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE svg[^>]*>)\s*)*/i,
		'',
	);
	return /^<svg[\s>]/i.test(prolog) ? 'image/svg+xml' : undefined;
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
