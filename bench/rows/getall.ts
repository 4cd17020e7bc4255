/** Benchmark 4. Return All. */
import { QUICK, LATENCY_MS, log } from '../config';
import { sections, goal, table, fmtMs } from '../report';
import { round, type SandboxProcess } from '../lib';
import { measure } from '../measure';

export async function benchGetAll(sandbox: SandboxProcess): Promise<void> {
	const courses = QUICK ? 1000 : 10_000;
	log(`4. Return All over ${courses} courses, latency ${LATENCY_MS} ms`);
	let total = 0;
	const m = await measure(
		sandbox,
		{ latencyMs: LATENCY_MS },
		() => ({ kind: 'getAll', url: sandbox.url }),
		async () => {
			await sandbox.call('seed', { spec: { generate: { courses } } });
			total = courses + 3; // + the demo seed's three courses
		},
	);
	const maxPage = 100; // the sandbox's (and the platform's known) largest page
	// Every page of entries, and the empty page after the last that ends the list (a short page
	// is no end since issue 55: the platform may shorten one in the middle of a list).
	const pages = Math.ceil(total / maxPage) + 1;
	log(`  ${m.result.ms} ms, ${m.requests} requests for ${m.result.outputItems} courses`);
	sections.push(
		[
			`### 4. Return All: ${total} courses (page size ${maxPage}, the largest the API serves), latency ${LATENCY_MS} ms`,
			'',
			table(
				['courses returned', 'requests', 'pages needed', 'wall time', '÷ (pages × latency)'],
				[
					[
						m.result.outputItems,
						m.requests,
						pages,
						fmtMs(m.result.ms),
						`${round(m.result.ms / (pages * LATENCY_MS))}×`,
					],
				],
			),
		].join('\n'),
	);
	goal(
		'4 Return All',
		'requests ÷ pages needed',
		`${m.requests} / ${pages}`,
		'1 request per page',
		m.requests === pages && m.result.outputItems === total,
	);
	goal(
		'4 Return All',
		'wall time ÷ (pages × latency)',
		`${round(m.result.ms / (pages * LATENCY_MS))}×`,
		'close to 1× (pages are sequential)',
		undefined,
	);
}

// ---------------------------------------------------------------------------
