/** Benchmark 5. Trigger. */
import { QUICK, JOB_TIMEOUT_MS, log } from '../config';
import { sections, notes, goal, table } from '../report';
import { round, runJob, type SandboxProcess } from '../lib';
import { type TriggerResult } from '../trigger-worker';

export async function benchTrigger(sandbox: SandboxProcess): Promise<void> {
	const deliveries = QUICK ? 1000 : 6000;
	log(`5. trigger: ${deliveries} deliveries, 10 % resent ids`);
	await sandbox.call('reset');
	const r = await runJob<TriggerResult>({ url: sandbox.url, deliveries, resentShare: 0.1, fill: QUICK ? 200 : 1000 }, JOB_TIMEOUT_MS, 'trigger-worker.ts');
	if (r.error) {
		log(`  trigger benchmark failed: ${r.error.split('\n')[0]}`);
		notes.push(`The trigger benchmark failed: ${r.error.split('\n')[0]}`);
		goal('5 trigger', 'handler overhead ÷ bare JSON handler', 'not measured', '–', undefined);
		return;
	}
	const k = r.knolyx;
	const b = r.bare;
	log(`  handler median ${k.handlerUsMedian} µs vs bare ${b.handlerUsMedian} µs; executions ${k.executions} for ${r.uniqueIds} unique ids`);
	const kb = (bytes: number) => `${round(bytes / 1024, 0)} KB`;
	sections.push(
		[
			`### 5. Trigger: ${r.deliveries} deliveries (${r.deliveries - r.uniqueIds} resent ids) into the webhook handler`,
			'',
			'Both nodes hosted like n8n hosts them (n8n-core WebhookContext over real express on 127.0.0.1), one delivery at a time, alternating in chunks of 250. "Handler" = time inside webhook(); "round trip" = the HTTP PUT as the platform sees it.',
			'',
			table(
				['handler', 'handler median', 'handler total', 'round trip median', 'executions started', 'answers'],
				[
					['Knolyx Trigger (token check, dedupe, item building)', `${k.handlerUsMedian} µs`, `${round(k.handlerUsTotal / 1000, 0)} ms`, `${k.roundTripUsMedian} µs`, k.executions, Object.entries(k.statuses).map(([s, c]) => `${c}× ${s}`).join(', ')],
					['bare handler (JSON.parse only)', `${b.handlerUsMedian} µs`, `${round(b.handlerUsTotal / 1000, 0)} ms`, `${b.roundTripUsMedian} µs`, b.executions, ''],
					['ratio', `${round(k.handlerUsMedian / b.handlerUsMedian, 1)}×`, `${round(k.handlerUsTotal / b.handlerUsTotal, 1)}×`, `${round(k.roundTripUsMedian / b.roundTripUsMedian, 2)}×`, '', ''],
				],
			),
			'',
			`Knolyx handler median per 500 deliveries, in order: ${r.knolyxByChunk.map((v) => `${v}`).join(', ')} µs. Other processes kept ${r.otherCores === undefined ? '?' : round(r.otherCores, 1)} cores busy meanwhile.`,
			'',
			'Where the handler time goes (CPU profile of this benchmark, separate run): 39 % in `mergeRecent` (nodes/Knolyx/trigger/dedupe.ts), which builds a `Set` of the whole stored window (up to 5 000 ids) on every delivery, plus `lacksRecent`, `hasSeen` (`lastIndexOf` over the stored ids) and `readSeenStore` (copies and checks both arrays): work that grows with the window. Before `mergeRecent` came (commit cf3242d) the median here was 132 µs (11× the bare handler). What would make it flat: merge only the recent ids newer than the store\'s newest entry (both are in time order), and look ids up in the process-local `Map` before touching the stored arrays.',
			'',
			`Seen-id store at its bound (${r.store.bound} ids, reached with ${r.uniqueAfterFill} unique ids; ${r.store.entriesAtEnd} kept): static data of the node ${kb(r.store.staticDataJsonBytes)} as JSON (what n8n saves with the workflow after an execution that changed it); retained heap ${kb(r.store.seenStoreHeapBytes)} for the static-data store and ${kb(r.store.recentIdsHeapBytes)} for the process-local window. Executions after the fill: ${r.executionsAfterFill} for ${r.uniqueAfterFill} unique ids.`,
		].join('\n'),
	);
	goal('5 trigger', 'handler time ÷ bare JSON handler (median)', `${round(k.handlerUsMedian / b.handlerUsMedian, 1)}× (+${k.handlerUsMedian - b.handlerUsMedian} µs)`, 'report', undefined);
	goal('5 trigger', 'executions started', `${k.executions} for ${r.uniqueIds} unique ids`, 'exactly the unique ids', k.executions === r.uniqueIds && r.executionsAfterFill === r.uniqueAfterFill);
	goal('5 trigger', 'seen-id store at its bound', `${r.store.entriesAtEnd} ids, ${kb(r.store.staticDataJsonBytes)} JSON, ${kb(r.store.seenStoreHeapBytes + r.store.recentIdsHeapBytes)} heap`, 'bounded', r.store.entriesAtEnd <= r.store.bound);
}

// ---------------------------------------------------------------------------
