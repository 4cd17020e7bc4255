/** Benchmark 5. Trigger. */
import { QUICK, JOB_TIMEOUT_MS, log } from '../config';
import { sections, notes, goal, table } from '../report';
import { round, runJob, type SandboxProcess } from '../lib';
import { type TriggerResult } from '../trigger-worker';

export async function benchTrigger(sandbox: SandboxProcess): Promise<void> {
	const deliveries = QUICK ? 1000 : 6000;
	log(`5. trigger: ${deliveries} deliveries, 10 % resent ids`);
	await sandbox.call('reset');
	const r = await runJob<TriggerResult>(
		{
			url: sandbox.url,
			deliveries,
			resentShare: 0.1,
			fill: QUICK ? 200 : 1000,
			warmUp: QUICK ? 200 : 3000,
		},
		JOB_TIMEOUT_MS,
		'trigger-worker.ts',
	);
	if (r.error) {
		log(`  trigger benchmark failed: ${r.error.split('\n')[0]}`);
		notes.push(`The trigger benchmark failed: ${r.error.split('\n')[0]}`);
		goal('5 trigger', 'handler overhead ÷ bare JSON handler', 'not measured', '–', undefined);
		return;
	}
	const k = r.knolyx;
	const b = r.bare;
	const ba = r.bareAnswering;
	const first = r.knolyxByChunk[0];
	const last = r.knolyxByChunk.at(-1) ?? NaN;
	const growth = last / first;
	// The same, relative to the answering bare handler in the same chunks (takes out what the machine did meanwhile).
	const baseFirst = r.answeringByChunk[0];
	const baseLast = r.answeringByChunk.at(-1) ?? NaN;
	const adjusted = last / baseLast / (first / baseFirst);
	log(
		`  handler median ${k.handlerUsMedian} µs vs bare ${b.handlerUsMedian} µs (answering itself ${ba.handlerUsMedian} µs); first/last 500: ${first}/${last} µs; executions ${k.executions} for ${r.uniqueIds} unique ids`,
	);
	const kb = (bytes: number) => `${round(bytes / 1024, 0)} KB`;
	const row = (name: string, x: TriggerResult['bare'], extra: Array<string | number>) => [
		name,
		`${x.handlerUsMedian} µs`,
		`${round(x.handlerUsTotal / 1000, 0)} ms`,
		`${x.roundTripUsMedian} µs`,
		...extra,
	];
	sections.push(
		[
			`### 5. Trigger: ${r.deliveries} deliveries (${r.deliveries - r.uniqueIds} resent ids) into the webhook handler`,
			'',
			`Hosted like n8n hosts them (n8n-core WebhookContext over real express on 127.0.0.1, production URL), one delivery at a time, the three handlers in turn in chunks of 250, after ${r.warmUp} warm-up deliveries into separate hosts of the same nodes. "Handler" = time inside webhook(); "round trip" = the HTTP PUT as the platform sees it. The Knolyx Trigger writes its HTTP answer inside webhook() (n8n 2.41 saves the seen id before the execution only then); the plain bare handler leaves the answer to the host, after the measured time; the answering bare handler writes the same answer itself.`,
			'',
			table(
				[
					'handler',
					'handler median',
					'handler total',
					'round trip median',
					'executions started',
					'answers',
					'Knolyx ÷ this (median)',
				],
				[
					row('Knolyx Trigger (token check, parse, filter, dedupe, item, answer)', k, [
						k.executions,
						Object.entries(k.statuses)
							.map(([s, c]) => `${c}× ${s}`)
							.join(', '),
						'1×',
					]),
					row('bare handler, answers itself (JSON.parse + the same 200 answer)', ba, [
						ba.executions,
						'',
						`${round(k.handlerUsMedian / ba.handlerUsMedian, 1)}×`,
					]),
					row('bare handler (JSON.parse only; the host answers)', b, [
						b.executions,
						'',
						`${round(k.handlerUsMedian / b.handlerUsMedian, 1)}×`,
					]),
				],
			),
			'',
			`Knolyx handler median per 500 deliveries, in order: ${r.knolyxByChunk.map((v) => `${v}`).join(', ')} µs (the stored window held ${r.windowAtLastChunk} ids when the last 500 began); the answering bare handler's in the same chunks: ${r.answeringByChunk.join(', ')} µs. Other processes kept ${r.otherCores === undefined ? '?' : round(r.otherCores, 1)} cores busy meanwhile.`,
			'',
			`Seen-id store at its bound (${r.store.bound} ids, reached with ${r.uniqueAfterFill} unique ids; ${r.store.entriesAtEnd} kept): static data of the node ${kb(r.store.staticDataJsonBytes)} as JSON (what n8n saves with the workflow after an execution that changed it); retained heap ${kb(r.store.seenStoreHeapBytes)} for the static-data store and ${kb(r.store.recentIdsHeapBytes)} for the process-local window. Executions after the fill: ${r.executionsAfterFill} for ${r.uniqueAfterFill} unique ids.`,
		].join('\n'),
	);
	goal(
		'5 trigger',
		'handler time ÷ bare JSON handler that answers itself (median)',
		`${round(k.handlerUsMedian / ba.handlerUsMedian, 1)}× (+${k.handlerUsMedian - ba.handlerUsMedian} µs)`,
		'≤ 5×',
		k.handlerUsMedian / ba.handlerUsMedian <= 5,
	);
	goal(
		'5 trigger',
		'same ÷ bare JSON handler whose answer the host writes (the measure of issue 6)',
		`${round(k.handlerUsMedian / b.handlerUsMedian, 1)}× (+${k.handlerUsMedian - b.handlerUsMedian} µs)`,
		'≤ 5×',
		k.handlerUsMedian / b.handlerUsMedian <= 5,
		() =>
			`The difference is the HTTP answer: the Knolyx Trigger writes it inside webhook() (express res.json: ETag hash, headers, socket write), the bare handler does not; the bare handler that writes the same answer itself takes ${ba.handlerUsMedian} µs (see the table). The remaining handler time is n8n's getNodeParameter and getWebhookResourceUrl, the token check and the dedupe; none of it grows with the window.`,
	);
	goal(
		'5 trigger',
		'flat: median of the last 500 ÷ the first 500 (÷ the same for the answering bare handler)',
		`${round(growth, 2)}× (${first} → ${last} µs at a window of ${r.windowAtLastChunk} ids; ${round(adjusted, 2)}× relative)`,
		'≤ 1.1× at a full window',
		growth <= 1.1 && r.windowAtLastChunk >= r.store.bound,
		() =>
			`Relative to the answering bare handler in the same chunks (${baseFirst} → ${baseLast} µs) the ratio is ${round(adjusted, 2)}×: the machine, not the window, moved.`,
	);
	goal(
		'5 trigger',
		'executions started',
		`${k.executions} for ${r.uniqueIds} unique ids`,
		'exactly the unique ids',
		k.executions === r.uniqueIds && r.executionsAfterFill === r.uniqueAfterFill,
	);
	goal(
		'5 trigger',
		'seen-id store at its bound',
		`${r.store.entriesAtEnd} ids, ${kb(r.store.staticDataJsonBytes)} JSON, ${kb(r.store.seenStoreHeapBytes + r.store.recentIdsHeapBytes)} heap`,
		'bounded',
		r.store.entriesAtEnd <= r.store.bound,
	);
}
