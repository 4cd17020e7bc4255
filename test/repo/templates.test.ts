/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- development tooling: reads the example files and runs scripts/templates.mjs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The payment and CRM templates (examples/template-*.json) share the code that skips and remembers
 * handled events (issue 36): "Remember the event as handled" is the same in every template, and
 * "Skip events already handled" is the same but for the one thing that differs per tool, the key
 * of an event (`keyOf` and the comment line naming it). The templates with a retry schedule share
 * its code too: the nodes that keep a failed write as pending and close it once written. A fix to
 * one copy has to reach them all.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Node {
	name: string;
	parameters: { jsCode?: string };
	[setting: string]: unknown;
}

interface Workflow {
	nodes: Array<Node & { position?: number[] }>;
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const templates = readdirSync(EXAMPLES)
	.filter((f) => /^template-.*\.json$/.test(f))
	.map((file) => {
		const wf = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Workflow;
		return { file, nodes: wf.nodes, connections: wf.connections };
	})
	.filter(({ nodes }) => nodes.some((n) => n.name === 'Skip events already handled'));

const codeOf = (nodes: Node[], name: string) => {
	const code = nodes.find((n) => n.name === name)?.parameters.jsCode;
	if (code === undefined) throw new Error(`no Code node "${name}"`);
	return code;
};

/** Each entry's `value` equals the first entry's (the file named on a failure). */
function expectSameInEach(entries: Array<{ file: string; value: unknown }>) {
	for (const { file, value } of entries)
		expect({ file, value }).toEqual({ file, value: entries[0].value });
}

/** The Skip code with the tool's own part (the key) taken out. */
const sharedPartOfSkip = (code: string) =>
	code
		.replace(/^\/\/ The key: .*$/m, '// The key: <per tool>')
		.replace(/const keyOf = \(event\) => \{\n[\s\S]*?\n\};/, 'const keyOf = <per tool>;');

describe('the code that skips and remembers handled events, in every payment and CRM template', () => {
	test('six templates have it', () => {
		expect(templates.map((t) => t.file)).toHaveLength(6);
	});

	test('"Remember the event as handled" is the same code in each', () => {
		expectSameInEach(
			templates.map(({ file, nodes }) => ({
				file,
				value: codeOf(nodes, 'Remember the event as handled'),
			})),
		);
	});

	test('"Skip events already handled" is the same code in each but for the key of an event', () => {
		expectSameInEach(
			templates.map(({ file, nodes }) => {
				const code = codeOf(nodes, 'Skip events already handled');
				expect(code).toMatch(/^\/\/ The key: /m);
				expect(code).toMatch(/const keyOf = \(event\) => \{\n/);
				return { file, value: sharedPartOfSkip(code) };
			}),
		);
	});
});

/**
 * The retry schedule of failed writes, the pending-writes table and the stop that tells a person
 * are written once, in scripts/templates.mjs: a change there is written into the six templates by
 * `node scripts/templates.mjs`; a template whose shared nodes were edited by hand, or copied in
 * from another template or an older version, differs from what it writes.
 */
describe('the shared part of the payment and CRM templates, written by scripts/templates.mjs', () => {
	const SCRIPT = join(__dirname, '..', '..', 'scripts', 'templates.mjs');
	const check = (dir?: string) =>
		spawnSync(process.execPath, [SCRIPT, '--check', ...(dir ? ['--dir', dir] : [])], {
			encoding: 'utf8',
		});

	test('every template holds it as the script writes it', () => {
		const run = check();
		expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
	});

	test.each([
		[
			'the retry code copied back in (the old "Keep the write as pending" Code node)',
			(wf: Workflow) => {
				const keep = wf.nodes.find((n) => n.name === 'Keep the write as pending')!;
				Object.assign(keep, {
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: { jsCode: 'const MAX_ATTEMPTS = 96;\nreturn $input.all();\n' },
				});
			},
		],
		[
			'one shared node edited by hand (a claim of another status)',
			(wf: Workflow) => {
				const claim = wf.nodes.find((n) => n.name === 'Claim pending writes')! as unknown as {
					parameters: { filters: { conditions: Array<{ keyValue: string }> } };
				};
				claim.parameters.filters.conditions[0].keyValue = 'retrying';
			},
		],
		[
			'the table chosen in one node from a list, as before',
			(wf: Workflow) => {
				const node = wf.nodes.find((n) => n.name === 'Writes this run claimed')! as unknown as {
					parameters: { dataTableId: unknown };
				};
				node.parameters.dataTableId = { __rl: true, mode: 'list', value: 'abc' };
			},
		],
		[
			'a shared connection cut (the trigger no longer makes the table first)',
			(wf: Workflow) => {
				const trigger = Object.keys(wf.connections).find((from) => / On |^On /.test(from))!;
				wf.connections[trigger].main[0] = wf.connections[trigger].main[0].filter(
					(l) => l.node !== 'Pending writes table ID on n8n 1.x',
				);
			},
		],
	])('a template with %s fails the check, naming it', (_, change) => {
		const dir = mkdtempSync(join(tmpdir(), 'knolyx-templates-'));
		try {
			for (const { file, nodes, connections } of templates)
				writeFileSync(join(dir, file), JSON.stringify({ nodes, connections }));
			expect(check(dir).status).toBe(0);
			const file = 'template-pipedrive-deal-won-enrolment.json';
			const wf = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Workflow;
			change(wf);
			writeFileSync(join(dir, file), JSON.stringify(wf));
			const run = check(dir);
			expect(run.status).toBe(1);
			expect(run.stderr).toContain(
				`The shared part differs from scripts/templates.mjs in: ${file}.`,
			);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	// A node's next nodes run top first (n8n's v1 order): each trigger and the schedule make the
	// table first; the schedule reads what to tell a person last, after every claimed write has run.
	test('each trigger and the schedule make the table first; the schedule reads what to tell a person last', () => {
		for (const { file, nodes, connections } of templates) {
			const at = (name: string) => nodes.find((n) => n.name === name)!;
			const starts = nodes
				.filter((n) => /Trigger$/.test((n as { type?: string }).type ?? ''))
				.map((n) => n.name);
			expect(starts.length).toBeGreaterThanOrEqual(2);
			for (const start of starts) {
				const next = connections[start].main[0].map((l) => l.node);
				const byHeight = [...next].sort((a, b) => at(a).position![1] - at(b).position![1]);
				expect({ file, start, next }).toEqual({ file, start, next: byHeight });
				expect({ file, start, first: next[0] }).toEqual({
					file,
					start,
					first: 'Pending writes table ID on n8n 1.x',
				});
			}
			// A light canvas (issue 56, point 3): what runs after every claimed write follows the claim
			// (the claimed writes first, highest), or the drop after it, or a sweep that failed.
			const light = connections['Claim pending writes'].main[0].length > 1;
			const afterDrop =
				light &&
				connections['Drop what no step wrote']?.main[0]?.map((l) => l.node).join() ===
					'What this run must tell a person';
			const schedule =
				connections[light ? 'Claim pending writes' : 'Retry pending writes every 15 minutes']
					.main[0];
			expect({ file, last: schedule.at(-1)!.node }).toEqual({
				file,
				last: afterDrop ? 'Drop what no step wrote' : 'What this run must tell a person',
			});
			if (light) {
				const next = schedule.map((l) => l.node);
				const byHeight = [...next].sort((a, b) => at(a).position![1] - at(b).position![1]);
				expect({ file, next }).toEqual({ file, next: byHeight });
				expect({ file, first: next[0] }).toEqual({ file, first: 'Writes this run claimed' });
				expect(connections['Remember why the sweep failed'].main[0].map((l) => l.node)).toEqual([
					'What this run must tell a person',
				]);
			}
		}
	});

	// The sweep (issue 56): its nodes run in one order, which the canvas positions decide (n8n's v1
	// order runs a node's next nodes from the highest down, each branch to its end).
	test('every payment and CRM template sweeps before the claims, which follow a sweep that read the tool; each change no row records is kept as pending; the time of the sweep moves after the list; a failed list is remembered, not a failed run', () => {
		const sweeping = templates.filter(({ nodes }) =>
			nodes.some((n) => n.name === 'When the last sweep ran'),
		);
		expect(sweeping.map(({ file }) => file)).toEqual([
			'template-hubspot-deal-won-enrolment.json',
			'template-paypal-enrolment.json',
			'template-pipedrive-deal-won-enrolment.json',
			'template-shopify-enrolment.json',
			'template-stripe-enrolment.json',
			'template-woocommerce-enrolment.json',
		]);
		for (const { file, nodes, connections } of sweeping) {
			const at = (name: string) => nodes.find((n) => n.name === name)!.position!;
			const next = (name: string) => connections[name].main[0].map((l) => l.node);
			const schedule = next('Retry pending writes every 15 minutes');
			expect({ file, schedule }).toEqual({
				file,
				schedule: expect.arrayContaining(['When the last sweep ran']),
			});
			expect({ file, schedule }).toEqual({
				file,
				schedule: expect.not.arrayContaining(['Claim writes of a stopped run']),
			});
			expect(next('Remember this sweep')).toEqual(['Claim writes of a stopped run']);
			const [list] = next('When the last sweep ran');
			const afterList = next(list);
			expect({ file, last: afterList.at(-1) }).toEqual({ file, last: 'Remember this sweep' });
			// Its error output (issue 56, point 4): the cause is remembered; told once, at the run's end.
			expect(nodes.find((n) => n.name === list)!.onError).toBe('continueErrorOutput');
			expect(connections[list].main[1].map((l) => l.node)).toEqual([
				'Remember why the sweep failed',
			]);
			expect(at(afterList[0])[1]).toBeLessThan(at('Remember this sweep')[1]);
			expect(next('Changes not recorded yet')).toEqual(['Keep each change as pending']);
			const record = nodes.find((n) => n.name === 'Keep each change as pending')!;
			expect(record.parameters).toMatchObject({ operation: 'upsert' });
			expect(nodes.find((n) => n.name === 'Close its pending write')!.parameters).toMatchObject({
				operation: 'upsert',
			});
		}
	});

	test('no Code node keeps or closes pending writes any more (Data table nodes do)', () => {
		for (const { file, nodes } of templates)
			expect({
				file,
				code: nodes
					.filter((n) => (n as { type?: string }).type === 'n8n-nodes-base.code')
					.map((n) => n.name)
					.filter((name) => /pending|closed/i.test(name)),
			}).toEqual({ file, code: [] });
	});
});

/**
 * Every example n8n serves at a URL of its own and that can write to Knolyx is closed by default
 * (issue 56): its trigger asks for a credential before n8n publishes it, and the file carries none
 * but Flow B's (the e2e and `npm run dev` import that one). The one open door is the public event
 * sign-up form: registering oneself for an event is what it is for.
 */
describe('examples that can write are closed by default', () => {
	const SERVED = ['n8n-nodes-base.webhook', 'n8n-nodes-base.formTrigger'];
	const MCP = '@n8n/n8n-nodes-langchain.mcpTrigger';
	const OPEN_BY_DESIGN = ['template-form-event-registration.json'];
	const examples = readdirSync(EXAMPLES)
		.filter((f) => f.endsWith('.json'))
		.map((file) => ({
			file,
			wf: JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as {
				nodes: Array<{
					type: string;
					name: string;
					parameters: { authentication?: string };
					credentials?: Record<string, unknown>;
				}>;
			},
		}));

	test('each URL-served trigger that can write asks for Basic, Header or Bearer Auth', () => {
		const served = examples.flatMap(({ file, wf }) =>
			wf.nodes
				.filter((n) => SERVED.includes(n.type) || n.type === MCP)
				.filter(() => wf.nodes.some((n) => n.type.startsWith('n8n-nodes-knolyx.')))
				.map((n) => ({ file, node: n.name, auth: n.parameters.authentication ?? 'none' })),
		);
		expect(served.map((s) => s.file).sort()).toEqual([
			'flow-b-payment-enrolment.json',
			'mcp-agent-tools.json',
			'template-bulk-enrolment.json',
			'template-form-event-registration.json',
		]);
		for (const s of served.filter((x) => !OPEN_BY_DESIGN.includes(x.file)))
			expect(s).toEqual({
				...s,
				auth: expect.stringMatching(/^(basicAuth|headerAuth|bearerAuth)$/),
			});
	});

	test("the MCP example's trigger ships with Bearer Auth and no credential: n8n publishes it once the user made one", () => {
		const { wf } = examples.find((e) => e.file === 'mcp-agent-tools.json')!;
		const trigger = wf.nodes.find((n) => n.type === MCP)!;
		expect(trigger.parameters.authentication).toBe('bearerAuth');
		expect(trigger.credentials).toBeUndefined();
	});
});
