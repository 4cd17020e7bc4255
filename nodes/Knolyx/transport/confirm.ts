import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isRecord } from '../helpers/objects';
import { cutOnCodePoint } from '../helpers/readableText';

/**
 * What a write's 2xx answer confirms (docs/api.md, "What confirms a write"): the one place that
 * decides, for every write of the node. No word of an answer is read: "OK" and "Forbidden" are
 * the same to it.
 * - `silent`: nothing in it (an empty body): a 2xx the docs call success with nothing that says
 *   otherwise. Confirmed.
 * - `record`: a JSON object: the platform's record of the write. Confirmed where the docs show no
 *   answer; where the contract names one (Add Member: the member's e-mail), only that.
 * - `said`: anything else: a text (handed on by decode.ts as `{ answer }`), a JSON string, number,
 *   `true`, `false`, `null` or list. Not a confirmation by itself: the write is checked by a read
 *   (or, when idempotent, sent once more) where it can be, else reported as not confirmed.
 */
export type WriteAnswer =
	| { kind: 'silent' }
	| { kind: 'record'; record: IDataObject }
	| { kind: 'said'; shown: string };

/** The most of an answer a message quotes. */
const SHOWN_LENGTH = 200;

/** A text answer as decode.ts hands it on: `{ answer }` and nothing else. */
function textOf(body: unknown): string | undefined {
	if (!isRecord(body)) return undefined;
	const keys = Object.keys(body);
	return keys.length === 1 && keys[0] === 'answer' && typeof body.answer === 'string'
		? body.answer
		: undefined;
}

/** An answer as a message quotes it: a text or a JSON string in quotes, other JSON as written. */
function shownOf(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > SHOWN_LENGTH ? `${cutOnCodePoint(text, SHOWN_LENGTH)}…` : text;
}

/** What a write's 2xx answer (as decoded by the client) says. */
export function writeAnswerOf(body: unknown): WriteAnswer {
	if (body === undefined) return { kind: 'silent' };
	const text = textOf(body);
	if (text !== undefined)
		return text.trim() === '' ? { kind: 'silent' } : { kind: 'said', shown: shownOf(text) };
	if (isRecord(body)) return { kind: 'record', record: body };
	return { kind: 'said', shown: shownOf(body) };
}

/**
 * Whether an answer is the one the contract names for a write, holding what was written: a JSON
 * object whose `field` is `value` (an e-mail compared without regard to case).
 */
export function namesWrite(answer: WriteAnswer, field: string, value: string): boolean {
	if (answer.kind !== 'record') return false;
	const given = answer.record[field];
	return typeof given === 'string' && given.trim().toLowerCase() === value.toLowerCase();
}

/** How an answer is quoted in a message. */
export function quoted(answer: WriteAnswer): string {
	if (answer.kind === 'said') return answer.shown;
	if (answer.kind === 'silent') return 'nothing';
	return shownOf(answer.record);
}

/**
 * A write the platform did not confirm: `what` names the write ("Attendance of user 1001 at event
 * 401"), `checked` what the check found ("the event's attendee list does not show the user").
 */
export function notConfirmed(
	node: INode,
	details: {
		what: string;
		answer: WriteAnswer;
		status: number;
		checked?: string;
		itemIndex?: number;
	},
): NodeApiError {
	const { what, answer, status, checked, itemIndex } = details;
	const item = itemIndex === undefined ? '' : ` (item ${itemIndex})`;
	const said = quoted(answer);
	return new NodeApiError(node, { message: `not confirmed: ${said}` } as JsonObject, {
		message: `${what} not confirmed${item}: Knolyx answered ${said} [${status}]${checked ? `, and ${checked}` : ''}`,
		description:
			'Knolyx answered with success, but what it said is not the answer that confirms this write, and no read showed the write done, so the node does not report it done. The write may not have been applied: check in Knolyx, then run the item again (the write is safe to repeat).',
		httpCode: String(status),
		itemIndex,
	});
}
