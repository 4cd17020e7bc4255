/**
 * When n8n answers a delivery, by n8n line. Whichever the line, the platform hears "received"
 * only once n8n holds the execution (docs/triggers.md, "Delivery guarantee"):
 *
 * - n8n 2.8 and later answer a webhook in mode 'onReceived' only after WorkflowRunner.run has
 *   created the execution (dist/webhooks/webhook-helpers.js: shouldDeferOnReceivedResponse), and
 *   answer an error when it cannot. The answer then waits for nothing more.
 * - n8n 1.x (and 2.0-2.7) answer 'onReceived' before they create the execution. There the answer
 *   comes from the execution's first step, the node's execute() (mode 'responseNode').
 *
 * A community node cannot ask n8n for its version (no `process`, no import but n8n-workflow, and
 * an n8n-workflow installed beside the package by hand may be of another version). It recognises
 * the line by n8n's own context objects instead: n8n-core's node context has
 * `assertCredentialUsableByNode` from a release after 2.8.1 on (2.41.1 has it; 2.8.1 and 1.123.x
 * have not). A release of the later 2.x line without it is answered from execute(): slower, never
 * less safe.
 */
import type { IDataObject } from 'n8n-workflow';

export type AnswerMode = 'onReceived' | 'responseNode';

/** Whether a context n8n handed the node comes from a line that answers 'onReceived' only after creating the execution. */
export function answersAfterCreation(ctx: object): boolean {
	return typeof (ctx as IDataObject).assertCredentialUsableByNode === 'function';
}

let learned = false;

/**
 * Remembers, for this process, that n8n answers 'onReceived' after creating the execution. Called
 * with every context n8n hands the trigger (activation, deliveries); never turns back.
 */
export function learnLine(ctx: object): void {
	if (!learned && answersAfterCreation(ctx)) learned = true;
}

/**
 * The mode n8n reads from the node's webhook description for each delivery (a getter there):
 * 'responseNode' until this process has seen n8n's line, then 'onReceived' where that line allows.
 */
export function answerMode(): AnswerMode {
	return learned ? 'onReceived' : 'responseNode';
}

/** For tests: forgets the line learned. */
export function forgetLine(): void {
	learned = false;
}
