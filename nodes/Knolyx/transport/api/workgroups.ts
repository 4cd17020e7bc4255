import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import { ENDPOINTS } from '../catalogue';
import { readPages } from '../paging';
import type { Paging } from './types';
import { isRecord } from '../../helpers/objects';
import type { Id } from '../../helpers/validation';

/** Workgroups and their members. */

/** `workgroupList`. */
export async function listWorkgroups(client: KnolyxClient, paging: Paging): Promise<IDataObject[]> {
	return await readPages<IDataObject>(client, ENDPOINTS.workgroupList, paging);
}

/** `memberAdd`: adds (or updates) a membership; removalDate null = never removed. */
export async function addMember(
	client: KnolyxClient,
	member: { workgroupId: Id; email: string; removalDate: string | null },
	itemIndex?: number,
): Promise<IDataObject> {
	const { workgroupId, email, removalDate } = member;
	const { body } = await client.call(ENDPOINTS.memberAdd, {
		params: { workgroupId, email },
		body: { removalDate },
		itemIndex,
	});
	return { workgroupId, email, removalDate, ...(isRecord(body) ? body : {}) };
}

/** `memberRemove`. */
export async function removeMember(
	client: KnolyxClient,
	member: { workgroupId: Id; email: string },
	itemIndex?: number,
): Promise<KnolyxResponse> {
	return await client.call(ENDPOINTS.memberRemove, { params: member, itemIndex });
}
