/**
 * What became of the executions worker-1's log called running when the suite SIGKILLed it.
 *
 * The worker's log is written asynchronously: an execution that finished just before the kill can
 * lack its "finished" line (seen once, 2026-11-29: a success the log called running). What n8n
 * stored tells: a success that stopped before the worker was dead had ended before the kill; one
 * that stopped later was run again elsewhere (or reported for a run that was cut), and fails.
 *
 * killVerdict(running ids, n8n's executions {id, status, stoppedAt}, the time the worker was dead)
 * → { cutShort, endedBefore, ok }: ok when at least one was cut short (ended other than success)
 * and every other one is a success that stopped before the kill.
 */
export function killVerdict(runningOnWorker, execs, killedAt) {
	const of = (id) => execs.find((e) => String(e.id) === String(id));
	const cutShort = runningOnWorker.filter((id) => {
		const e = of(id);
		return e !== undefined && e.status !== 'success';
	});
	const endedBefore = runningOnWorker.filter((id) => {
		const e = of(id);
		return e?.status === 'success' && Date.parse(e.stoppedAt ?? '') <= killedAt;
	});
	return {
		cutShort,
		endedBefore,
		ok: cutShort.length > 0 && cutShort.length + endedBefore.length === runningOnWorker.length,
	};
}
