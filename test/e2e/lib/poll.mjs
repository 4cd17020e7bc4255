// What the Knolyx Poll Trigger e2e test adds on top of the shared helpers: a workflow with the
// Poll Trigger, and the sandbox's control endpoints that play people using the platform's own
// pages (sandbox/routes/poll-control.ts).

import { PACKAGE_NAME } from '../../../scripts/n8n-runtime.mjs';
import { chainWorkflow, KNOLYX_CREDENTIALS } from './n8n.mjs';

export const POLL_TYPE = `${PACKAGE_NAME}.knolyxPollTrigger`;

/**
 * A workflow: Knolyx Poll Trigger (New Attendee of one event) → a Set node that maps the attendee,
 * polled on `pollTimes` (n8n's own Poll Times parameter, e.g. { item: [{ mode: 'everyMinute' }] }).
 */
export function attendeeWorkflow({ id, name, communityId, eventId, pollTimes }) {
	return chainWorkflow({
		id,
		name,
		nodes: [
			{
				name: 'Knolyx Poll Trigger',
				type: POLL_TYPE,
				parameters: {
					pollTimes,
					event: 'newAttendee',
					attendeesOf: 'event',
					communityId: String(communityId),
					eventId: { __rl: true, mode: 'id', value: String(eventId) },
				},
				credentials: KNOLYX_CREDENTIALS,
			},
			{
				name: 'Welcome message',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				parameters: {
					mode: 'manual',
					assignments: {
						assignments: [
							{ id: `${id}-to`, name: 'to', value: '={{ $json.email }}', type: 'string' },
							{
								id: `${id}-text`,
								name: 'text',
								value: '=Welcome {{ $json.name }} to event {{ $json.eventId }}',
								type: 'string',
							},
						],
					},
					options: {},
				},
			},
		],
	});
}

/** Registers one person for an event on the platform (a new person unless `email` is given); resolves the attendee. */
export async function registerAttendee(sb, eventId, who = { count: 1 }) {
	const { attendees } = await sb.request('POST', `/sandbox/events/${eventId}/attendees`, who, {
		expectStatus: 201,
	});
	return attendees[0];
}

/** Registers `count` new people for an event at once; resolves the attendees. */
export async function registerMany(sb, eventId, count) {
	const { attendees } = await sb.request(
		'POST',
		`/sandbox/events/${eventId}/attendees`,
		{ count },
		{ expectStatus: 201 },
	);
	return attendees;
}

/** Arms an edit the sandbox makes while a list is read, just before its page `beforePage` (sandbox/poll-edits.ts). */
export async function duringRead(sb, edit) {
	await sb.request('POST', '/sandbox/read-edits', edit, { expectStatus: 201 });
}

/** The edits armed and not yet made. */
export async function pendingEdits(sb) {
	return (await sb.request('GET', '/sandbox/read-edits')).pending;
}
