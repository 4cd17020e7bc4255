/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/** A 16×16 single-colour PNG per course, built with zlib (no image files shipped). */
import { crc32, deflateSync } from 'node:zlib';

const SIZE = 16;

function chunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(typed) >>> 0);
	return Buffer.concat([length, typed, crc]);
}

const cache = new Map<number, Buffer>();

export function coursePng(courseId: number): Buffer {
	const cached = cache.get(courseId);
	if (cached) return cached;
	const rgb = [(courseId * 67) % 256, (courseId * 131) % 256, (courseId * 199) % 256];
	const header = Buffer.alloc(13);
	header.writeUInt32BE(SIZE, 0);
	header.writeUInt32BE(SIZE, 4);
	header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, default compression/filter/interlace
	const row = Buffer.from([0, ...Array.from({ length: SIZE }, () => rgb).flat()]);
	const pixels = deflateSync(Buffer.concat(Array.from({ length: SIZE }, () => row)));
	const png = Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', pixels),
		chunk('IEND', Buffer.alloc(0)),
	]);
	cache.set(courseId, png);
	return png;
}
