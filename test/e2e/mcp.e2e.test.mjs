// End-to-end: the Knolyx tool offered to an outside AI agent through n8n's MCP Server Trigger.
// A real n8n (the run's install, see scripts/e2e.mjs) publishes the example workflow
// examples/mcp-agent-tools.json (plus tools an agent may not run unattended, Replace All,
// Webhook → Create and Course Access Rule → Create or Update, Replace All with only the delete
// switch on, and a tool whose resource and operation the agent chooses, to prove they are refused); a real MCP client (@modelcontextprotocol/sdk) plays the agent: it lists the tools,
// reads their descriptions and argument schemas, and calls them with the arguments a model
// would send. No language model is involved. The sandbox's state is checked after each call.
//
// Skipped, with the reason printed, when the installed n8n has no MCP Server Trigger.

import { KNOLYX_CREDENTIALS, readExample, startTestFile, TYPES } from './lib/n8n.mjs';
import { callTool, connectMcp, MCP_TRIGGER_TYPE, mcpTriggerInstalled, mcpUrl } from './lib/mcp.mjs';
import { endTestFile, RUN_DIR } from './lib/processes.mjs';
import { editWorkflow } from './lib/template-setup.mjs';

const TOOL_TYPE = `${TYPES.action}Tool`;
const installed = mcpTriggerInstalled();
if (!installed.available) console.log(`[e2e mcp] SKIPPED: ${installed.reason}`);
const describeIfMcp = installed.available ? describe : describe.skip;

// ----------------------------------------------------------------- the workflow

const example = readExample('mcp-agent-tools.json');
const trigger = example.nodes.find((n) => n.type === MCP_TRIGGER_TYPE);
const WORKFLOW_ID = 'e2eMcpAgentTools';
// One destructive tool, which the example does not offer: an agent asking for it must be refused.
const REPLACE_ALL = {
	parameters: {
		resource: 'rule',
		operation: 'replaceAll',
		courseId: {
			__rl: true,
			mode: 'id',
			value: "={{ $fromAI('courseId', 'Numeric ID of the course', 'number') }}",
		},
		rules: "={{ $fromAI('rules', 'The complete new list of rules, as JSON', 'string') }}",
		descriptionType: 'manual',
		toolDescription:
			'Replace the complete list of access rules of a course. Rules left out are deleted.',
	},
	id: 'c3f5e3c0-0001-4c9a-8e83-0000000000e2',
	name: 'Replace course access rules',
	type: TOOL_TYPE,
	typeVersion: 1,
	position: [1080, 240],
	credentials: KNOLYX_CREDENTIALS,
};
/** A tool node the example does not offer, at row `row` below it. */
const guardedTool = (name, row, parameters) => ({
	parameters: { ...parameters, descriptionType: 'manual' },
	id: `d4a6f4d1-0002-4c9a-8e83-00000000000${row}`,
	name,
	type: TOOL_TYPE,
	typeVersion: 1,
	position: [1080, 240 + 160 * row],
	credentials: KNOLYX_CREDENTIALS,
});
// A new data flow and wider course access: refused for an agent like the deletes.
const CREATE_WEBHOOK = guardedTool('Create webhook', 1, {
	resource: 'webhook',
	operation: 'create',
	name: "={{ $fromAI('name', 'A name for the webhook', 'string') }}",
	url: "={{ $fromAI('url', 'The https URL that receives the events', 'string') }}",
	toolDescription:
		'Register a URL that receives every student event from now on. Returns the new webhook; nothing is deleted.',
});
const UPDATE_RULE = guardedTool('Update course access rule', 2, {
	resource: 'rule',
	operation: 'upsert',
	courseId: {
		__rl: true,
		mode: 'id',
		value: "={{ $fromAI('courseId', 'Numeric ID of the course', 'number') }}",
	},
	ruleName: "={{ $fromAI('ruleName', 'The name of the rule', 'string') }}",
	type: "={{ $fromAI('type', 'PRIVATE or PUBLIC', 'string') }}",
	toolDescription:
		'Create an access rule of a course or change its type (PRIVATE or PUBLIC). Returns the saved rule; nothing is deleted.',
});
// Replace All can delete and grant: a person who allowed deletes only has not allowed it (issue 30).
const REPLACE_ALL_DELETES_ALLOWED = guardedTool('Replace rules, deletes allowed', 3, {
	...REPLACE_ALL.parameters,
	allowDestructiveToolUse: true,
	toolDescription:
		'Replace the complete list of access rules of a course. Rules left out are deleted; a person allowed deletes.',
});
// A tool whose resource and operation the agent chooses through $fromAI is not here: n8n 2.41.1
// refuses to publish it ("Missing or invalid required parameters": every operation's required
// fields would need a value), and n8n 1.123.81 offers only `resource` and fails the call with
// "Could not get parameter" before anything is sent. What the node does when such a call reaches
// it is in the harness's table (test/action/agent-consent.test.ts, every operation chosen through
// $fromAI × every switch combination).
const extraTools = [REPLACE_ALL, CREATE_WEBHOOK, UPDATE_RULE, REPLACE_ALL_DELETES_ALLOWED];
// The example ships its apply tool with the grant switch off; here a person has switched it on,
// so the agent can apply a preview the person approved.
const APPLY_TOOL = 'Apply previewed course access';
const exampleNodes = example.nodes.map((n) =>
	n.name === APPLY_TOOL
		? { ...n, parameters: { ...n.parameters, allowAccessGrantToolUse: true } }
		: n,
);
const workflow = {
	...example,
	id: WORKFLOW_ID,
	nodes: [...exampleNodes, ...extraTools],
	connections: {
		...example.connections,
		...Object.fromEntries(
			extraTools.map((tool) => [
				tool.name,
				{ ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] },
			]),
		),
	},
};
const toolNodes = workflow.nodes.filter((n) => n.type === TOOL_TYPE);
/** n8n's tool name of a node (n8n-workflow's nodeNameToToolName). */
const toolName = (node) => node.name.replace(/[^a-zA-Z0-9_-]+/g, '_');
/** The $fromAI keys of a node: the arguments the agent must send. */
const fromAiKeys = (node) =>
	[
		...new Set(
			[...JSON.stringify(node.parameters).matchAll(/\$fromAI\('(\w+)'/g)].map((m) => m[1]),
		),
	].sort();

// Demo seed ids (sandbox/README.md), as in examples/mcp-agent-tools.json.
const SEED = {
	course: 101,
	courseWorkgroup: 201,
	community: 301,
	communityWorkgroup: 204,
	event: 401,
	rule: 501,
};
const KATHERINE = {
	email: 'katherine.johnson@example.com',
	firstName: 'Katherine',
	lastName: 'Johnson',
};
const DOROTHY = { email: 'dorothy.vaughan@example.com', firstName: 'Dorothy', lastName: 'Vaughan' };

// The token a person sets up as the note says (a Bearer Auth credential on the trigger); the
// client sends it on every request.
const MCP_TOKEN = 'e2e-only-mcp-token-not-a-secret-0123456789';
const BEARER = { Authorization: `Bearer ${MCP_TOKEN}` };

// ----------------------------------------------------------------- the run

let sandbox;
/** @type {SandboxClient} */
let sb;
let n8n;
/** @type {N8nRest} */
let rest;
let url;
let client;
/** The rules of every course before any tool ran: agents must never change them here. */
let rulesBefore;

describeIfMcp(
	`Knolyx tools for an outside AI agent through the MCP Server Trigger (n8n ${installed.n8nVersion})`,
	() => {
		beforeAll(async () => {
			({ sandbox, sb, n8n, rest } = await startTestFile({ workflows: [workflow] }));
			rulesBefore = (await sb.state()).rules;
			url = mcpUrl(n8n.url, { path: trigger.parameters.path, typeVersion: trigger.typeVersion });
			console.log(
				`[e2e mcp] run folder ${RUN_DIR}; sandbox ${sandbox.url}; n8n ${installed.n8nVersion} ${n8n.url}; MCP ${url}`,
			);
		}, 300_000);

		afterAll(async () => {
			await client?.close().catch(() => {});
			await endTestFile('mcp', { n8n, sandbox });
		}, 60_000);

		test('n8n lists the MCP Server Trigger and the Knolyx tool, with the agent-safety switches', async () => {
			const types = await rest.nodeTypes();
			const mcp = types.filter((t) => t.name === MCP_TRIGGER_TYPE);
			expect(mcp.length).toBeGreaterThan(0);
			const versions = mcp.flatMap((t) => (Array.isArray(t.version) ? t.version : [t.version]));
			expect(versions).toContain(trigger.typeVersion);
			const tool = types.find((t) => t.name === TOOL_TYPE);
			expect(tool).toMatchObject({ displayName: 'Knolyx Tool', outputs: ['ai_tool'] });
			for (const name of [
				'allowDestructiveToolUse',
				'allowDataFlowToolUse',
				'allowAccessGrantToolUse',
			]) {
				expect(tool.properties.find((p) => p.name === name)).toMatchObject({
					type: 'boolean',
					default: false,
				});
			}
		});

		test('closed by default: the trigger asks for a Bearer credential; without one no client gets the tools', async () => {
			expect(trigger.parameters.authentication).toBe('bearerAuth');
			expect(trigger.credentials).toBeUndefined();
			// n8n 2 refuses to publish a trigger without its required credential; n8n 1.x publishes it,
			// and then its authentication check answers every request with an error (Webhook/utils:
			// "No authentication data defined on node!").
			const published = await rest.activateWorkflow(WORKFLOW_ID).then(
				() => true,
				() => false,
			);
			expect({ line: installed.n8nVersion, published }).toEqual({
				line: installed.n8nVersion,
				published: !installed.n8nVersion.startsWith('2.'),
			});
			const transport = trigger.typeVersion >= 2 ? 'streamableHttp' : 'sse';
			for (const headers of [{}, BEARER]) {
				const refused = await connectMcp(url, transport, headers).then(
					async (c) => {
						await c.close();
						return 'connected';
					},
					(e) => e.message,
				);
				expect(refused).not.toBe('connected');
			}
			if (published) await rest.deactivateWorkflow(WORKFLOW_ID);
		});

		test('with the credential set (as the note says), publishing serves the MCP endpoint, to the token only', async () => {
			const credential = await rest.request('POST', '/rest/credentials', {
				name: 'MCP client token',
				type: 'httpBearerAuth',
				data: { token: MCP_TOKEN },
			});
			await editWorkflow(rest, WORKFLOW_ID, (wf) => {
				const node = wf.nodes.find((n) => n.type === MCP_TRIGGER_TYPE);
				node.credentials = { httpBearerAuth: { id: credential.id, name: credential.name } };
				return wf;
			});
			// The production URL answering MCP is the proof of publication (the REST answer differs between n8n lines).
			await rest.activateWorkflow(WORKFLOW_ID);
			const transport = trigger.typeVersion >= 2 ? 'streamableHttp' : 'sse';
			for (const headers of [{}, { Authorization: 'Bearer wrong-token' }]) {
				const refused = await connectMcp(url, transport, headers).then(
					async (c) => {
						await c.close();
						return 'connected';
					},
					(e) => e.message,
				);
				expect(refused).toMatch(/Authorization data is wrong|\b40[13]\b/);
			}
			client = await connectMcp(url, transport, BEARER);
			expect(client.getServerVersion()).toMatchObject({ name: expect.any(String) });
		});

		test('tools/list: every tool has its name, the description written for a model and an argument schema', async () => {
			const { tools } = await client.listTools();
			expect(tools.map((t) => t.name).sort()).toEqual(toolNodes.map(toolName).sort());
			for (const node of toolNodes) {
				const tool = tools.find((t) => t.name === toolName(node));
				expect(tool.description).toBe(node.parameters.toolDescription);
				// What it does, what it returns, and what it never changes, in words a model reads.
				expect(tool.description.length).toBeGreaterThan(80);
				expect(tool.description).toMatch(/Returns|deleted/);
				const keys = fromAiKeys(node);
				expect(tool.inputSchema.type).toBe('object');
				expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(keys);
				expect([...(tool.inputSchema.required ?? [])].sort()).toEqual(keys);
				for (const key of keys) {
					const schema = tool.inputSchema.properties[key];
					expect({
						key,
						type: schema.type,
						described: (schema.description ?? '').length > 5,
					}).toEqual({
						key,
						type: /Id$/.test(key) ? 'number' : 'string',
						described: true,
					});
				}
			}
			// The read-only list tools take no argument; the others name exactly what they need.
			const schemaOf = (name) =>
				Object.keys(tools.find((t) => t.name === name).inputSchema.properties ?? {}).sort();
			expect(schemaOf('List_courses')).toEqual([]);
			expect(schemaOf('Enrol_user_in_workgroup')).toEqual([
				'email',
				'firstName',
				'lastName',
				'workgroupId',
			]);
			expect(schemaOf('Register_user_for_event')).toEqual([
				'email',
				'eventId',
				'firstName',
				'lastName',
			]);
			expect(schemaOf('Get_course_access_rules')).toEqual(['courseId']);
		});

		test('the same tools over the other transport (SSE)', async () => {
			if (trigger.typeVersion < 2) return; // version 1.x serves SSE only: already used above
			const sse = await connectMcp(url, 'sse', BEARER);
			try {
				const { tools } = await sse.listTools();
				expect(tools.map((t) => t.name).sort()).toEqual(toolNodes.map(toolName).sort());
				const courses = await callTool(sse, 'List_courses', {});
				expect(courses.isError).toBe(false);
				expect(courses.json.map((c) => c.id)).toContain(SEED.course);
			} finally {
				await sse.close();
			}
		});

		test('List_courses, List_workgroups and List_events answer with what Knolyx holds', async () => {
			const state = await sb.state();
			const courses = await callTool(client, 'List_courses', {});
			expect(courses.isError).toBe(false);
			expect(courses.json.map(({ id, title }) => ({ id, title }))).toEqual(
				state.courses.map(({ id, title }) => ({ id, title })),
			);
			const workgroups = await callTool(client, 'List_workgroups', {});
			expect(workgroups.json.map(({ id, name }) => ({ id, name }))).toEqual(
				state.workgroups.map(({ id, name }) => ({ id, name })),
			);
			const events = await callTool(client, 'List_events', {});
			expect(events.json.map(({ id, title }) => ({ id, title }))).toEqual(
				state.events
					.filter((e) => e.communityId === SEED.community)
					.map(({ id, title }) => ({ id, title })),
			);
		});

		test('Enrol_user_in_workgroup: the user is created and enrolled; a second call changes nothing', async () => {
			const args = { ...KATHERINE, workgroupId: SEED.courseWorkgroup };
			const first = await callTool(client, 'Enrol_user_in_workgroup', args);
			expect(first.isError).toBe(false);
			expect(first.json).toEqual([
				expect.objectContaining({
					email: KATHERINE.email,
					created: true,
					workgroupId: SEED.courseWorkgroup,
					userId: expect.any(Number),
				}),
			]);
			const state = await sb.businessState();
			const user = state.users.find((u) => u.email === KATHERINE.email);
			expect(user).toMatchObject({
				id: first.json[0].userId,
				firstName: KATHERINE.firstName,
				lastName: KATHERINE.lastName,
			});
			expect(state.workgroups.find((w) => w.id === SEED.courseWorkgroup).members).toContainEqual(
				expect.objectContaining({ email: KATHERINE.email, userId: user.id, removalDate: null }),
			);

			const again = await callTool(client, 'Enrol_user_in_workgroup', args);
			expect(again.json).toEqual([
				expect.objectContaining({ email: KATHERINE.email, created: false, userId: user.id }),
			]);
			expect(await sb.businessState()).toEqual(state);
		});

		test('Register_user_for_event: the user is in the community workgroup and attends the event', async () => {
			const answer = await callTool(client, 'Register_user_for_event', {
				...DOROTHY,
				eventId: SEED.event,
			});
			expect(answer.isError).toBe(false);
			expect(answer.json).toEqual([
				expect.objectContaining({
					email: DOROTHY.email,
					created: true,
					eventId: SEED.event,
					attending: true,
					alreadyAttending: false,
				}),
			]);
			const state = await sb.businessState();
			const user = state.users.find((u) => u.email === DOROTHY.email);
			expect(state.workgroups.find((w) => w.id === SEED.communityWorkgroup).members).toContainEqual(
				expect.objectContaining({ email: DOROTHY.email, userId: user.id }),
			);
			expect(state.events.find((e) => e.id === SEED.event).attendeeIds).toContain(user.id);

			const again = await callTool(client, 'Register_user_for_event', {
				...DOROTHY,
				eventId: SEED.event,
			});
			expect(again.json).toEqual([
				expect.objectContaining({ created: false, attending: true, alreadyAttending: true }),
			]);
		});

		test('Get_course_access_rules returns the rules as stored, and they are untouched', async () => {
			const answer = await callTool(client, 'Get_course_access_rules', { courseId: SEED.course });
			expect(answer.isError).toBe(false);
			const { rules } = await sb.state();
			expect(answer.json).toEqual(rules[String(SEED.course)]);
			expect(answer.json.map((r) => r.id)).toContain(SEED.rule);
			expect(rules).toEqual(rulesBefore);
		});

		test('a bad e-mail: a clear error naming the field and the value, and nothing is sent to Knolyx', async () => {
			const before = (await sb.stats()).byRoute;
			const stateBefore = await sb.businessState();
			const answer = await callTool(client, 'Enrol_user_in_workgroup', {
				email: 'katherine.johnson at example.com',
				firstName: 'Katherine',
				lastName: 'Johnson',
				workgroupId: SEED.courseWorkgroup,
			});
			expect(answer.isError).toBe(true);
			expect(answer.text).toMatch(/Email/);
			expect(answer.text).toMatch(/katherine\.johnson at example\.com/);
			expect((await sb.stats()).byRoute).toEqual(before);
			expect(await sb.businessState()).toEqual(stateBefore);
		});

		test('a 404: a clear error naming what was not found', async () => {
			const answer = await callTool(client, 'Get_course_access_rules', { courseId: 999999 });
			expect(answer.isError).toBe(true);
			expect(answer.text).toMatch(/course 999999/);
			expect(answer.text).toMatch(/not found/i);

			const enrol = await callTool(client, 'Enrol_user_in_workgroup', {
				...KATHERINE,
				workgroupId: 999998,
			});
			expect(enrol.isError).toBe(true);
			expect(enrol.text).toMatch(/workgroup 999998/);
		});

		test('Replace All offered as a tool is refused with a clear text; the rules stay exactly as they were', async () => {
			const before = (await sb.stats()).byRoute;
			const answer = await callTool(client, 'Replace_course_access_rules', {
				courseId: SEED.course,
				// A valid list, which Knolyx would save (deleting rule 501) if the tool ran.
				rules: JSON.stringify([
					{
						name: 'ONLY_THIS_RULE',
						type: 'PUBLIC',
						startDateTime: '2026-01-01 00:00:00',
						endDateTime: '2076-01-01 00:00:00',
						restrictions: { minimumTime: false, browseOrder: 'anyOrder' },
						associations: { WORKGROUP: [] },
						action: 'STUDENTS',
					},
				]),
			});
			expect(answer.isError).toBe(true);
			expect(answer.text).toMatch(
				/Refused: Course Access Rule → Replace All deletes every access rule of the course/,
			);
			expect(answer.text).toMatch(/Nothing was sent to Knolyx/);
			expect(answer.text).toMatch(
				/switch on "Allow the Agent to Delete Data" and "Allow the Agent to Grant Course Access"/,
			);
			expect((await sb.stats()).byRoute).toEqual(before);
			expect((await sb.state()).rules).toEqual(rulesBefore);
		});

		test('Replace All with only the delete switch on is refused: no rule made PUBLIC', async () => {
			const before = (await sb.stats()).byRoute;
			// Every rule kept, every rule made PUBLIC: nothing deleted, everyone gets the course.
			const rules = JSON.stringify(
				rulesBefore[String(SEED.course)].map((rule) => ({ ...rule, type: 'PUBLIC' })),
			);
			const deletesAllowed = await callTool(client, 'Replace_rules_deletes_allowed', {
				courseId: SEED.course,
				rules,
			});
			expect(deletesAllowed.isError).toBe(true);
			expect(deletesAllowed.text).toMatch(/Refused: Course Access Rule → Replace All/);
			expect(deletesAllowed.text).toMatch(/Allow the Agent to Grant Course Access/);
			expect((await sb.stats()).byRoute).toEqual(before);
			expect((await sb.state()).rules).toEqual(rulesBefore);
		});

		test('Webhook → Create and Course Access Rule → Create or Update offered as tools are refused; no webhook, the rules unchanged', async () => {
			const before = (await sb.stats()).byRoute;
			const webhooksBefore = await sb.webhooks();
			const webhook = await callTool(client, 'Create_webhook', {
				name: 'Backup',
				url: 'https://collector.example.net/students',
			});
			expect(webhook.isError).toBe(true);
			expect(webhook.text).toMatch(
				/Refused: Webhook → Create registers a URL to which Knolyx then sends every student event/,
			);
			expect(webhook.text).toMatch(/Nothing was sent to Knolyx/);
			const rule = await callTool(client, 'Update_course_access_rule', {
				courseId: SEED.course,
				ruleName: rulesBefore[String(SEED.course)][0].name,
				type: 'PUBLIC',
			});
			expect(rule.isError).toBe(true);
			expect(rule.text).toMatch(
				/Refused: Course Access Rule → Create or Update can change who may take the course/,
			);
			expect((await sb.stats()).byRoute).toEqual(before);
			expect(await sb.webhooks()).toEqual(webhooksBefore);
			expect((await sb.state()).rules).toEqual(rulesBefore);
		});

		// Last: the only test that changes a course's rules (the ones above check they are untouched).
		test('Preview, then apply: the preview sends no write and shows the difference; applying it saves exactly that list, once', async () => {
			const save = 'POST /public/api/v1/business-rule/course/{id}';
			const savesBefore = (await sb.stats()).byRoute[save] ?? 0;
			const args = { courseId: SEED.course, workgroupId: 202 };
			const preview = await callTool(client, 'Preview_giving_a_workgroup_course_access', args);
			expect(preview.isError).toBe(false);
			const [shown] = preview.json;
			expect(shown).toMatchObject({
				preview: true,
				ruleChanges: [{ rule: `PAYMENT_INTEGRATION_COURSE_${SEED.course}`, change: 'added' }],
				accessChanges: [
					{ association: 'WORKGROUP', id: '202', courseId: SEED.course, access: 'gains' },
				],
			});
			// Named as well as by id (issue 55 §6): the demo key may read course titles and workgroups.
			expect(shown.summary).toBe(
				`Rule "PAYMENT_INTEGRATION_COURSE_${SEED.course}" added. Workgroup "Advanced Automation" (202) gains course "Intro to n8n" (${SEED.course}).`,
			);
			expect((await sb.stats()).byRoute[save] ?? 0).toBe(savesBefore);
			expect((await sb.state()).rules).toEqual(rulesBefore);

			const applied = await callTool(client, 'Apply_previewed_course_access', {
				...args,
				change: shown.change,
			});
			expect(applied.isError).toBe(false);
			expect(applied.json[0]).toMatchObject({ action: 'created', changed: true, preview: false });
			expect(applied.json[0].before).toEqual(rulesBefore[String(SEED.course)]);
			const withoutIds = (rules) => rules.map(({ id: _id, ...rule }) => rule);
			const now = (await sb.state()).rules[String(SEED.course)];
			expect(withoutIds(now)).toEqual(withoutIds(shown.rules));
			expect((await sb.stats()).byRoute[save]).toBe(savesBefore + 1);

			// The same preview applied again: the list is already the one shown, nothing is sent.
			const again = await callTool(client, 'Apply_previewed_course_access', {
				...args,
				change: shown.change,
			});
			expect(again.isError).toBe(false);
			expect(again.json[0]).toMatchObject({ changed: false });
			expect((await sb.stats()).byRoute[save]).toBe(savesBefore + 1);
		});
	},
);
