// What the Knolyx Poll Trigger e2e test adds on top of the shared helpers: a workflow with the
// Poll Trigger, and the sandbox's control endpoints that play people using the platform's own
// pages (sandbox/routes/poll-control.ts).

import { PACKAGE_NAME } from '../../../scripts/n8n-runtime.mjs';
import { CREDENTIAL } from './n8n.mjs';

export const POLL_TYPE = `${PACKAGE_NAME}.knolyxPollTrigger`;

/**
 * A workflow: Knolyx Poll Trigger (New Attendee of one event) → a Set node that maps the attendee,
 * polled on `pollTimes` (n8n's own Poll Times parameter, e.g. { item: [{ mode: 'everyMinute' }] }).
 */
export function attendeeWorkflow({ id, name, communityId, eventId, pollTimes }) {
	const trigger = 'Knolyx Poll Trigger';
	const welcome = 'Welcome message';
	return {
		id,
		name,
		nodes: [
			{
				id: `${id}-trigger`,
				name: trigger,
				type: POLL_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes,
					event: 'newAttendee',
					attendeesOf: 'event',
					communityId: String(communityId),
					eventId: { __rl: true, mode: 'id', value: String(eventId) },
				},
				credentials: { knolyxApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
			},
			{
				id: `${id}-welcome`,
				name: welcome,
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [240, 0],
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
		connections: { [trigger]: { main: [[{ node: welcome, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
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
