// What the Knolyx Poll Trigger e2e test adds on top of the shared helpers: a workflow with the
// Poll Trigger, and the sandbox's control endpoints that play people using the platform's own
// pages (sandbox/routes/poll-control.ts).

import fs from 'node:fs';
import path from 'node:path';

import { linkPackage, PACKAGE_NAME, runN8nCli, startN8n } from '../../../scripts/n8n-runtime.mjs';
import { CREDENTIAL } from './n8n.mjs';
import { RUN_DIR, trackPid } from './processes.mjs';

export const POLL_TYPE = `${PACKAGE_NAME}.knolyxPollTrigger`;

/**
 * The poll test's own n8n user folder, so that it does not share a database with the other e2e
 * file when both run in one jest run. Its n8n.log is kept as test-artifacts/e2e/poll-n8n.log (endTestFile).
 */
export const POLL_USER_FOLDER = path.join(RUN_DIR, 'n8n-poll');

/** Links the package and imports the sandbox credential and `workflows` with n8n's CLI. */
export async function preparePollUserFolder({ sandboxUrl, apiKey, projectId, workflows }) {
	await linkPackage({ userFolder: POLL_USER_FOLDER });
	const dir = path.join(RUN_DIR, 'import-poll');
	fs.mkdirSync(path.join(dir, 'workflows'), { recursive: true });
	fs.writeFileSync(path.join(dir, 'credentials.json'), JSON.stringify([{ ...CREDENTIAL, data: { baseUrl: sandboxUrl, projectId, apiKey } }]));
	for (const wf of workflows) fs.writeFileSync(path.join(dir, 'workflows', `${wf.id}.json`), JSON.stringify(wf));
	await runN8nCli(['import:credentials', `--input=${path.join(dir, 'credentials.json')}`], { userFolder: POLL_USER_FOLDER });
	await runN8nCli(['import:workflow', '--separate', `--input=${path.join(dir, 'workflows')}`], { userFolder: POLL_USER_FOLDER });
}

/** Starts (or restarts) the poll test's n8n; its process group is recorded for the run's cleanup. */
export async function startPollServer({ port } = {}) {
	const n8n = await startN8n({ port, userFolder: POLL_USER_FOLDER });
	trackPid(n8n.pid, 'n8n-poll');
	return n8n;
}

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
							{ id: `${id}-text`, name: 'text', value: '=Welcome {{ $json.name }} to event {{ $json.eventId }}', type: 'string' },
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
	const { attendees } = await sb.request('POST', `/sandbox/events/${eventId}/attendees`, who, { expectStatus: 201 });
	return attendees[0];
}
