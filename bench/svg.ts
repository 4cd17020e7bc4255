/**
 * The rate-limit run as a picture (bench/rate-limit.svg), drawn from the sandbox's own
 * request log of that run (bench/sandbox-server.ts, `traceStart`/`traceGet`): one panel
 * per variant, requests per second and requests in flight over time, the 429 answers
 * marked. Plain SVG text, no library, no external service.
 */
import type { RequestTrace } from './measure';

export interface TracedRun {
	name: string;
	trace: RequestTrace;
	/** What a 429 means for this client: retried (Knolyx node) or a failed item (HTTP Request node without retry). */
	throttledMeans: string;
}

const BUCKET_MS = 250;
const WIDTH = 900;
const PANEL_HEIGHT = 220;
const MARGIN = { left: 60, right: 60, top: 34, bottom: 34 };

const escape = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Per bucket: requests started per second, requests in flight at the bucket's end, 429 answers. */
function series(trace: RequestTrace, buckets: number) {
	const perSecond = new Array<number>(buckets).fill(0);
	const throttled = new Array<number>(buckets).fill(0);
	const inFlight = new Array<number>(buckets).fill(0);
	for (const [start, end, status] of trace) {
		const b = Math.min(buckets - 1, Math.floor(start / BUCKET_MS));
		perSecond[b] += 1000 / BUCKET_MS;
		if (status === 429) throttled[Math.min(buckets - 1, Math.floor(end / BUCKET_MS))]++;
		for (let i = b; i < buckets; i++) {
			const edge = (i + 1) * BUCKET_MS;
			if (edge >= end) break;
			if (edge >= start) inFlight[i]++;
		}
	}
	return { perSecond, throttled, inFlight };
}

export function rateLimitSvg(runs: TracedRun[], limitPerSecond: number, title: string): string {
	const endMs = Math.max(1000, ...runs.flatMap((r) => r.trace.map(([, end]) => end)));
	const buckets = Math.ceil(endMs / BUCKET_MS);
	const data = runs.map((r) => ({ run: r, ...series(r.trace, buckets) }));
	const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
	const plotHeight = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
	const x = (ms: number) => MARGIN.left + (ms / endMs) * plotWidth;
	const rateMax = Math.max(limitPerSecond * 1.5, ...data.flatMap((d) => d.perSecond));
	const flightMax = Math.max(10, ...data.flatMap((d) => d.inFlight));
	const parts: string[] = [];
	const height = PANEL_HEIGHT * runs.length + 30;
	parts.push(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
		`<rect width="100%" height="100%" fill="white"/>`,
		`<text x="${WIDTH / 2}" y="18" text-anchor="middle" font-size="14" font-weight="bold">${escape(title)}</text>`,
	);
	data.forEach((d, panel) => {
		const top = 24 + panel * PANEL_HEIGHT;
		const yRate = (v: number) => top + MARGIN.top + plotHeight - (v / rateMax) * plotHeight;
		const yFlight = (v: number) => top + MARGIN.top + plotHeight - (v / flightMax) * plotHeight;
		const total429 = d.throttled.reduce((a, b) => a + b, 0);
		parts.push(
			`<text x="${MARGIN.left}" y="${top + 20}" font-size="12" font-weight="bold">${escape(d.run.name)}: ${d.run.trace.length} requests, ${total429} answered 429 (${escape(d.run.throttledMeans)})</text>`,
			`<rect x="${MARGIN.left}" y="${top + MARGIN.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#999"/>`,
		);
		// Axes: time below, requests/s left, in flight right.
		const step = endMs > 30_000 ? 5000 : endMs > 10_000 ? 2000 : 1000;
		for (let t = 0; t <= endMs; t += step) {
			parts.push(
				`<line x1="${x(t)}" y1="${top + MARGIN.top + plotHeight}" x2="${x(t)}" y2="${top + MARGIN.top + plotHeight + 4}" stroke="#999"/>`,
				`<text x="${x(t)}" y="${top + MARGIN.top + plotHeight + 15}" text-anchor="middle">${t / 1000} s</text>`,
			);
		}
		for (const v of [0, Math.round(rateMax / 2), Math.round(rateMax)]) {
			parts.push(
				`<text x="${MARGIN.left - 6}" y="${yRate(v) + 4}" text-anchor="end" fill="#1f5fbf">${v}/s</text>`,
			);
		}
		for (const v of [0, Math.round(flightMax / 2), Math.round(flightMax)]) {
			parts.push(
				`<text x="${WIDTH - MARGIN.right + 6}" y="${yFlight(v) + 4}" fill="#2a9d3a">${v}</text>`,
			);
		}
		parts.push(
			`<line x1="${MARGIN.left}" y1="${yRate(limitPerSecond)}" x2="${MARGIN.left + plotWidth}" y2="${yRate(limitPerSecond)}" stroke="#1f5fbf" stroke-dasharray="5,4" stroke-opacity="0.6"/>`,
			`<text x="${MARGIN.left + plotWidth - 4}" y="${yRate(limitPerSecond) - 4}" text-anchor="end" fill="#1f5fbf">limit ${limitPerSecond}/s</text>`,
		);
		// 429 answers: a red bar per bucket, height by count, from the bottom.
		const maxThrottled = Math.max(1, ...d.throttled);
		d.throttled.forEach((count, i) => {
			if (count === 0) return;
			const h = Math.max(3, (count / maxThrottled) * plotHeight * 0.35);
			parts.push(
				`<rect x="${x(i * BUCKET_MS)}" y="${top + MARGIN.top + plotHeight - h}" width="${Math.max(1.5, x(BUCKET_MS) - x(0) - 0.5)}" height="${h}" fill="#d62728" fill-opacity="0.75"><title>${count}× 429 at ${(i * BUCKET_MS) / 1000} s</title></rect>`,
			);
		});
		const line = (values: number[], y: (v: number) => number) =>
			values
				.map(
					(v, i) =>
						`${i === 0 ? 'M' : 'L'}${x((i + 0.5) * BUCKET_MS).toFixed(1)},${y(v).toFixed(1)}`,
				)
				.join(' ');
		parts.push(
			`<path d="${line(d.perSecond, yRate)}" fill="none" stroke="#1f5fbf" stroke-width="1.5"/>`,
			`<path d="${line(d.inFlight, yFlight)}" fill="none" stroke="#2a9d3a" stroke-width="1.2"/>`,
		);
	});
	const legendY = height - 8;
	parts.push(
		`<line x1="${MARGIN.left}" y1="${legendY - 4}" x2="${MARGIN.left + 20}" y2="${legendY - 4}" stroke="#1f5fbf" stroke-width="2"/>`,
		`<text x="${MARGIN.left + 25}" y="${legendY}">requests started per second (${BUCKET_MS} ms buckets, left axis)</text>`,
		`<line x1="${MARGIN.left + 330}" y1="${legendY - 4}" x2="${MARGIN.left + 350}" y2="${legendY - 4}" stroke="#2a9d3a" stroke-width="2"/>`,
		`<text x="${MARGIN.left + 355}" y="${legendY}">requests in flight at the server (right axis)</text>`,
		`<rect x="${MARGIN.left + 610}" y="${legendY - 9}" width="10" height="10" fill="#d62728"/>`,
		`<text x="${MARGIN.left + 625}" y="${legendY}">429 answers</text>`,
		'</svg>',
	);
	return parts.join('\n') + '\n';
}
