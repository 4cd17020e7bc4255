// End-to-end in a real n8n 2.41.1 (the built package linked as a community
// package, one n8n process, own user folder, 127.0.0.1 only) against the Knolyx
// sandbox: the node's *On Error* modes and fields left unchanged.
//
//   1. Continue (using error output): the failed items (403, 404, bad input)
//      leave by the error output, each merged with its input; the success by
//      the success output; the nodes after each output get exactly those.
//   2. Continue (regular output): every item, in input order, on one output.
//   3. Gender left at its default ("Leave Unchanged"): Event → Register of an
//      existing FEMALE (and MALE) student keeps her gender; a new user gets the
//      platform's default.
//   4. Course → Get Image: the image stored by n8n's own binary data mode (the
//      filesystem by default) and read back byte for byte.
// Run with `npm run test:e2e -- test/e2e/on-error` (scripts/e2e.mjs).

import { N8N_MAJOR, N8N_VERSION } from '../../scripts/n8n-runtime.mjs';

import { KNOLYX_CREDENTIALS, nodeOutput, runManually, startTestFile, TYPES } from './lib/n8n.mjs';
import { endTestFile, RUN_DIR } from './lib/processes.mjs';
import { DEMO } from './lib/sandbox.mjs';

// Demo seed (sandbox/README.md): Ada (1001, FEMALE) is in workgroup 204, which gives access to
// community 301 of event 401; Alan (1002, MALE) has no access to it.
const SEED = { community: 301, event: 401, communityWorkgroup: 204, ada: 1001, alan: 1002 };
const TRIGGER = 'Run';

const ATTEND_ROWS = [
	{ label: 'ok', user: SEED.ada, event: SEED.event },
	{ label: 'no access (403)', user: SEED.alan, event: SEED.event },
	{ label: 'no such event (404)', user: SEED.ada, event: 999 },
	{ label: 'bad input', user: 'not-a-number', event: SEED.event },
];

/** Manual trigger → Set (raw JSON `{ rows }`) → Split Out rows → `node`, whose outputs go to NoOp nodes. */
function workflow(id, name, rows, node, outputNames) {
	const at = (x) => [x * 220, 0];
	const nodes = [
		{
			id: `${id}-t`,
			name: TRIGGER,
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: at(0),
			parameters: {},
		},
		{
			id: `${id}-s`,
			name: 'Rows',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: at(1),
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ rows }), options: {} },
		},
		{
			id: `${id}-o`,
			name: 'Split',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: at(2),
			parameters: { fieldToSplitOut: 'rows', options: {} },
		},
		{
			id: `${id}-k`,
			type: TYPES.action,
			typeVersion: 1,
			position: at(3),
			credentials: KNOLYX_CREDENTIALS,
			...node,
		},
		...outputNames.map((out, index) => ({
			id: `${id}-n${index}`,
			name: out,
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [4 * 220, index * 200],
			parameters: {},
		})),
	];
	const to = (target) => [{ node: target, type: 'main', index: 0 }];
	return {
		id,
		name,
		nodes,
		connections: {
			[TRIGGER]: { main: [to('Rows')] },
			Rows: { main: [to('Split')] },
			Split: { main: [to(node.name)] },
			[node.name]: { main: outputNames.map(to) },
		},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

const attendNode = (onError) => ({
	name: 'Attend',
	onError,
	parameters: {
		resource: 'event',
		operation: 'attend',
		communityId: String(SEED.community),
		eventId: '={{ $json.event }}',
		userId: '={{ $json.user }}',
	},
});

const WF = {
	errorOutput: workflow(
		'e2eOnErrorOutput',
		'e2e: On Error, using error output',
		ATTEND_ROWS,
		attendNode('continueErrorOutput'),
		['Succeeded', 'Failed'],
	),
	regularOutput: workflow(
		'e2eOnErrorRegula',
		'e2e: On Error, regular output',
		ATTEND_ROWS,
		attendNode('continueRegularOutput'),
		['All'],
	),
	gender: workflow(
		'e2eGenderUnchang',
		'e2e: Register with Gender left unchanged',
		[
			{ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
			{ email: 'alan@example.com', firstName: 'Alan', lastName: 'Turing' },
			{ email: 'newcomer@example.com', firstName: 'New', lastName: 'Comer' },
		],
		{
			name: 'Register',
			// No gender parameter: what the editor saves when Gender stays at its default.
			parameters: {
				resource: 'event',
				operation: 'register',
				email: '={{ $json.email }}',
				firstName: '={{ $json.firstName }}',
				lastName: '={{ $json.lastName }}',
				workgroupId: { __rl: true, mode: 'id', value: String(SEED.communityWorkgroup) },
				communityId: String(SEED.community),
				eventId: String(SEED.event),
			},
		},
		['Registered'],
	),
	image: workflow(
		'e2eCourseImageFs',
		'e2e: Course image as binary data',
		[{ course: 101 }],
		{
			name: 'Get Image',
			parameters: {
				resource: 'course',
				operation: 'getImage',
				courseId: { __rl: true, mode: 'id', value: '={{ $json.course }}' },
				binaryPropertyName: 'cover',
			},
		},
		['Image'],
	),
};

/** Every main output of a node's first run: [[json...], [json...]]. */
function outputsOf(ex, nodeName) {
	const main = ex.run?.resultData?.runData?.[nodeName]?.[0]?.data?.main ?? [];
	return main.map((items) => (items ?? []).map((item) => item.json));
}
function pairedOf(ex, nodeName, output) {
	return (ex.run.resultData.runData[nodeName][0].data.main[output] ?? []).map(
		(item) => item.pairedItem,
	);
}
const succeeded = (ex) => ({ status: ex.status, error: ex.run.resultData.error?.message });

let sandbox;
let sb;
let n8n;
let rest;

/**
 * The e2e files of one run share the run folder: the sandbox finds its URL in RUN_DIR/sandbox.log
 * (appended to, so an earlier file's stopped sandbox would be found first) and n8n keeps its
 * database in one user folder. This file starts from, and leaves, neither.
 */
beforeAll(async () => {
	({ sandbox, sb, n8n, rest } = await startTestFile({ workflows: Object.values(WF) }));
	console.log(`[e2e on-error] run folder ${RUN_DIR}; sandbox ${sandbox.url}; n8n ${n8n.url}`);
}, 300_000);

afterAll(async () => {
	await endTestFile('on-error', { n8n, sandbox });
}, 60_000);

describe(`On Error in n8n ${N8N_VERSION}`, () => {
	test('Continue (using error output): 403, 404 and bad input leave by the error output, paired with their input', async () => {
		const ex = await runManually(rest, WF.errorOutput.id, TRIGGER);
		expect(succeeded(ex)).toEqual({ status: 'success', error: undefined });
		const [success, failed] = outputsOf(ex, 'Attend');
		expect(success).toEqual([
			expect.objectContaining({ userId: SEED.ada, eventId: SEED.event, attending: true }),
		]);
		expect(pairedOf(ex, 'Attend', 0)).toEqual([{ item: 0 }]);
		expect(pairedOf(ex, 'Attend', 1)).toEqual([{ item: 1 }, { item: 2 }, { item: 3 }]);
		expect(failed.map((item) => item.label)).toEqual([
			'no access (403)',
			'no such event (404)',
			'bad input',
		]);
		expect(failed[0]).toMatchObject({
			user: SEED.alan,
			error: { httpCode: '403', message: expect.stringContaining('[403]') },
		});
		expect(failed[1]).toMatchObject({
			event: 999,
			error: { httpCode: '404', message: expect.stringContaining('event 999') },
		});
		expect(failed[2]).toMatchObject({
			user: 'not-a-number',
			error: { message: expect.stringMatching(/User ID: .* \(item 3\)/) },
		});
		// The nodes after each output got exactly those items.
		expect(nodeOutput(ex, 'Succeeded')).toEqual(success);
		expect(nodeOutput(ex, 'Failed')).toEqual(failed);

		const state = await sb.businessState();
		expect(state.events.find((e) => e.id === SEED.event).attendeeIds).toEqual([SEED.ada]);
	});

	test('Continue (regular output): every item on the one output in input order; failures carry error, description, httpCode', async () => {
		const ex = await runManually(rest, WF.regularOutput.id, TRIGGER);
		expect(succeeded(ex)).toEqual({ status: 'success', error: undefined });
		const outputs = outputsOf(ex, 'Attend');
		expect(outputs).toHaveLength(1);
		const [ok, forbidden, notFound, badInput] = outputs[0];
		expect(pairedOf(ex, 'Attend', 0)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(ok).toMatchObject({ userId: SEED.ada, attending: true, alreadyAttending: true });
		expect(forbidden).toEqual({
			error: expect.stringContaining('[403]'),
			description: expect.stringContaining('EVENT_MANAGE'),
			httpCode: '403',
		});
		expect(notFound).toMatchObject({
			httpCode: '404',
			error: expect.stringContaining('event 999'),
		});
		expect(badInput.error).toMatch(/User ID: .* \(item 3\)/);
		expect(nodeOutput(ex, 'All')).toEqual(outputs[0]);
	});
});

describe(`Fields left unchanged in n8n ${N8N_VERSION}`, () => {
	test('Event → Register with Gender at its default keeps an existing FEMALE (and MALE) student; a new one gets the default', async () => {
		const before = await sb.businessState();
		const genderOf = (state, email) => state.users.find((u) => u.email === email)?.gender;
		expect([genderOf(before, 'ada@example.com'), genderOf(before, 'alan@example.com')]).toEqual([
			'FEMALE',
			'MALE',
		]);

		const ex = await runManually(rest, WF.gender.id, TRIGGER);
		expect(succeeded(ex)).toEqual({ status: 'success', error: undefined });
		expect(nodeOutput(ex, 'Register').map((o) => [o.email, o.created, o.attending])).toEqual([
			['ada@example.com', false, true],
			['alan@example.com', false, true],
			['newcomer@example.com', true, true],
		]);
		const after = await sb.businessState();
		expect(genderOf(after, 'ada@example.com')).toBe('FEMALE');
		expect(genderOf(after, 'alan@example.com')).toBe('MALE');
		expect(genderOf(after, 'newcomer@example.com')).toBe('NON-BINARY');
	});
});

describe(`Binary output in n8n ${N8N_VERSION}`, () => {
	test('Course → Get Image: n8n stores the image in its binary data mode and serves it back byte for byte', async () => {
		const ex = await runManually(rest, WF.image.id, TRIGGER);
		expect(succeeded(ex)).toEqual({ status: 'success', error: undefined });
		const [item] = ex.run.resultData.runData['Get Image'][0].data.main[0];
		expect(item.json).toMatchObject({
			courseId: 101,
			fileName: 'course-101-image.png',
			mimeType: 'image/png',
		});
		const binary = item.binary.cover;
		expect(binary).toMatchObject({
			fileName: 'course-101-image.png',
			mimeType: 'image/png',
			fileExtension: 'png',
		});
		const fromPlatform = await fetch(`${sandbox.url}/public/api/v1/course/101/image`, {
			headers: { 'x-api-key': DEMO.apiKey, 'x-project-id': DEMO.projectId },
		});
		const expected = Buffer.from(await fromPlatform.arrayBuffer());
		let stored;
		if (N8N_MAJOR >= 2) {
			// n8n 2.x's default mode keeps the bytes in a file, not in the execution data.
			expect(binary.id).toMatch(/^filesystem/);
			const fromN8n = await fetch(
				`${n8n.url}/rest/binary-data?id=${encodeURIComponent(binary.id)}&action=download`,
				{
					headers: { cookie: rest.cookie },
				},
			);
			expect(fromN8n.status).toBe(200);
			stored = Buffer.from(await fromN8n.arrayBuffer());
		} else {
			// n8n 1.x's default mode keeps the bytes in the execution data, base64.
			expect(binary.id).toBeUndefined();
			stored = Buffer.from(binary.data, 'base64');
		}
		expect([stored.length, stored.equals(expected)]).toEqual([expected.length, true]);
		expect(item.json.fileSize).toBe(expected.length);
	});
});
