import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';
import { namesWrite, notConfirmed, writeAnswerOf } from '../confirm';
import { readPages } from '../paging';
import type { Paging } from './types';
import { isRecord } from '../../helpers/objects';
import type { Id } from '../../helpers/validation';

/** Workgroups and their members. */

/** `workgroupList`. */
export async function listWorkgroups(client: KnolyxClient, paging: Paging): Promise<IDataObject[]> {
	return await readPages<IDataObject>(client, ENDPOINTS.workgroupList, paging);
}

/**
 * `memberAdd`: adds (or updates) a membership; removalDate null = never removed. Confirmed by the
 * answer the contract names (endpoint 10: a JSON object whose `email` is the member's) or by a
 * 2xx with nothing in it. Any other answer (a text, `null`, `false`, an object without the
 * e-mail) is sent once more (the call is idempotent); the second answer decides, or the item
 * fails as not confirmed, naming what Knolyx answered.
 */
export async function addMember(
	client: KnolyxClient,
	member: { workgroupId: Id; email: string; removalDate: string | null },
	itemIndex?: number,
): Promise<IDataObject> {
	const { workgroupId, email, removalDate } = member;
	const send = async () =>
		await client.call(ENDPOINTS.memberAdd, {
			params: { workgroupId, email },
			body: { removalDate },
			itemIndex,
		});
	const confirms = (body: unknown) => {
		const answer = writeAnswerOf(body);
		return answer.kind === 'silent' || namesWrite(answer, 'email', email);
	};
	let { body, statusCode } = await send();
	if (!confirms(body)) ({ body, statusCode } = await send());
	if (!confirms(body))
		throw notConfirmed(client.node, {
			what: `Membership of ${email} in workgroup ${workgroupId}`,
			answer: writeAnswerOf(body),
			status: statusCode,
			checked:
				'the same answer came when it was sent again (the contract names an answer holding the e-mail)',
			itemIndex,
		});
	return { workgroupId, email, removalDate, ...(isRecord(body) ? body : {}) };
}

/**
 * `memberRemove`: confirmed by a 2xx with nothing in it or a JSON object. Any other answer is
 * checked by sending the removal once more (idempotent): a 404 then says the member is gone; any
 * other answer fails as not confirmed.
 */
export async function removeMember(
	client: KnolyxClient,
	member: { workgroupId: Id; email: string },
	itemIndex?: number,
): Promise<KnolyxResponse> {
	const send = async (acceptStatuses?: number[]) =>
		await client.call(ENDPOINTS.memberRemove, { params: member, itemIndex, acceptStatuses });
	const response = await send();
	const answer = writeAnswerOf(response.body);
	if (response.alreadyDone || answer.kind !== 'said') return response;
	const again = await send([404]);
	if (again.statusCode === 404) return response;
	throw notConfirmed(client.node, {
		what: `Removal of ${member.email} from workgroup ${member.workgroupId}`,
		answer,
		status: response.statusCode,
		checked: `a second removal was answered ${again.statusCode}, not 404 (the member is gone)`,
		itemIndex,
	});
}
