/** The sandbox's edge rules (sandbox/edges.ts) over its HTTP control endpoint, for tests. */
import type { EdgeAnswerLog, EdgeRule } from '../../sandbox/edges';

export type EdgeReport = EdgeRule & { served: number; answers: EdgeAnswerLog[] };

/** Sets one edge rule on the sandbox at `sandboxUrl`; fails the test when the sandbox refuses it. */
export async function setEdge(sandboxUrl: string, rule: Record<string, unknown>): Promise<void> {
	const res = await fetch(`${sandboxUrl}/sandbox/edges`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(rule),
	});
	if (res.status !== 201) throw new Error(`edge rule refused: ${res.status} ${await res.text()}`);
}

/** The rules with what each served (answers written, closed early or not). */
export async function edgeReport(sandboxUrl: string): Promise<EdgeReport[]> {
	const res = await fetch(`${sandboxUrl}/sandbox/edges`);
	return ((await res.json()) as { rules: EdgeReport[] }).rules;
}

export async function clearEdges(sandboxUrl: string): Promise<void> {
	await fetch(`${sandboxUrl}/sandbox/edges`, { method: 'DELETE' });
}

/**
 * The report once the first rule's first answer has ended (finished, or closed by the client):
 * the sandbox answers when its connection's close event has come, which it sees a moment after
 * the client closed it.
 */
export async function settledEdgeReport(sandboxUrl: string): Promise<EdgeReport[]> {
	const res = await fetch(`${sandboxUrl}/sandbox/edges?settled=first`);
	return ((await res.json()) as { rules: EdgeReport[] }).rules;
}
