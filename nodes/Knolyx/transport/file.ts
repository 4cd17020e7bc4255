/** Answers that are files (the course image): the bytes with the MIME type and file name the answer gives. */

export interface KnolyxFile {
	data: Buffer;
	/** Content-Type without its parameters, e.g. "image/png"; undefined when the answer has none. */
	mimeType?: string;
	/** From Content-Disposition, reduced to a bare file name; undefined when the answer has none. */
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

/** `filename*=UTF-8''…` (RFC 6266/5987) first, then `filename="…"`; never a path. */
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
	const base = name?.split(/[\\/]/).pop()?.replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
	return base && base !== '.' && base !== '..' ? base : undefined;
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
		fileName: fileNameOf(header(answer.headers, 'content-disposition')),
	};
}
