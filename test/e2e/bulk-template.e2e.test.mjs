// The bulk template (examples/template-bulk-enrolment.json, issue 43) in a real n8n (2.41.1, or
// 1.123.81 with `--n8n 1.123.81`) against the Knolyx sandbox, set up as its note says: the
// Knolyx credential, a Basic Auth credential on the form, published. A school's CSV file is
// uploaded over real HTTP to the form's production URL (multipart, as the form's page sends it)
// and followed to the form's ending page (lib/form-upload.mjs); what happened is read from the
// sandbox's own state and counters, then compared with the summary and the report the admin got.
//
//   1. the file as a user imports it: the note, the nodes, the Knolyx node's settings.
//   2. the form without its Basic Auth user and password: 401, nothing runs.
//   3. 30 rows (new students, students Knolyx has, one student in two workgroups, six bad rows)
//      under a rate limit of 20 requests a second: every good row enrolled once, no welcome
//      e-mail, each bad row reported with its row, e-mail and reason; counts exact.
//   4. the report uploaded again with the failed rows fixed: the fixed rows enrolled, the others
//      already existed, nothing written twice.
//   5. the admin's own browser (Chromium): 2 000 rows uploaded through the form page, which waits
//      for the import by itself and ends on the summary, downloading the report.
// Run with `npm run test:e2e -- bulk-template` (and `-- --n8n 1.123.81 bulk-template`).

import crypto from 'node:crypto';
import fs from 'node:fs';

import { N8N_VERSION, readExample, waitForExecutions, execution, nodeOutput } from './lib/n8n.mjs';
import { launchBrowser, screenshot } from './lib/browser.mjs';
import { parseCsv, toCsv, uploadToForm } from './lib/form-upload.mjs';
import { endTestFile, RUN_DIR } from './lib/processes.mjs';
import { startTestFile } from './lib/n8n.mjs';
import {
	editWorkflow,
	isKnolyxType,
	PATH_FROM_WEBHOOK_ID,
	prepareTemplate,
	tagWorkflow,
	withoutTags,
} from './lib/templates.mjs';

const FILE = 'template-bulk-enrolment.json';
const WF = prepareTemplate(FILE, 'tplBulkEnrol0001');
const KNOLYX_NODE = 'Enrol in the workgroup (no welcome e-mail)';
const RATE_LIMIT = 20; // requests a second: 30 rows (60 requests) meet it

// The Basic Auth credential the note asks for: its own user name and a long random password.
const FORM_AUTH = { user: 'school-admin', password: crypto.randomBytes(24).toString('base64url') };
const basic = ({ user, password }) => ({
	authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

// Demo seed (sandbox/README.md): workgroups 201-204; Ada (member of 204) and Alan exist.
const EXISTING = [
	{ firstName: 'Grace', lastName: 'Hopper', email: 'grace@school.example' },
	{ firstName: 'Edsger', lastName: 'Dijkstra', email: 'edsger@school.example' },
	{ firstName: 'Barbara', lastName: 'Liskov', email: 'barbara@school.example' },
];

let sandbox;
let sb;
let n8n;
let rest;
let formUrl;
/** The workgroup the sandbox made for this run (the school year), and its first member. */
let schoolYear;

beforeAll(async () => {
	let timings;
	({ sandbox, sb, n8n, rest, timings } = await startTestFile({ workflows: [withoutTags(WF)] }));
	await tagWorkflow(
		rest,
		WF.id,
		WF.tags.map((t) => t.name),
	);
	// The school's Knolyx: a workgroup of its own, three students who already have an account,
	// one of them already in that workgroup.
	const seeded = await sb.request('POST', '/sandbox/seed', {
		workgroups: [{ name: 'Class of 2027' }],
		users: EXISTING,
	});
	[schoolYear] = seeded.workgroups;
	await sb.request('POST', '/sandbox/seed', {
		members: [{ workgroupId: schoolYear, email: EXISTING[0].email }],
	});
	// Set up as the note says: a Basic Auth credential on the form, then publish.
	const credential = await rest.request('POST', '/rest/credentials', {
		name: 'Student list upload',
		type: 'httpBasicAuth',
		data: FORM_AUTH,
	});
	let webhookId;
	await editWorkflow(rest, WF.id, (wf) => {
		const form = wf.nodes.find((n) => n.type === 'n8n-nodes-base.formTrigger');
		form.credentials = { httpBasicAuth: { id: credential.id, name: credential.name } };
		webhookId = form.webhookId;
		return wf;
	});
	await rest.activateWorkflow(WF.id);
	formUrl = `${n8n.url}/form/${webhookId}`;
	console.log(
		`[e2e bulk-template] run folder ${RUN_DIR}; sandbox ${sandbox.url}; n8n ${N8N_VERSION} at ${n8n.url}; form ${formUrl}; ${JSON.stringify(timings)}`,
	);
}, 300_000);

afterAll(async () => {
	await endTestFile('bulk-template', { n8n, sandbox });
}, 60_000);

// ----------------------------------------------------------------- 1.

describe('1. the file as a user imports it', () => {
	const file = readExample(FILE);
	const byName = new Map(file.nodes.map((n) => [n.name, n]));

	test('a gallery note first (yellow, # Enrol …, How it works, Set up steps, self-hosted n8n, who can reach the URL); the name starts with the verb; tag Knolyx', () => {
		const [note] = file.nodes;
		expect(note.type).toBe('n8n-nodes-base.stickyNote');
		expect(note.parameters.color ?? 1).toBe(1);
		const text = note.parameters.content;
		expect(text.startsWith(`# ${file.name}\n`)).toBe(true);
		expect(file.name).toMatch(/^Enrol /);
		for (const part of ['\n## How it works\n', '\n## Set up steps\n', 'self-hosted n8n'])
			expect(text).toContain(part);
		expect(text).toMatch(/\*\*Who can reach the URL\*\*/);
		// What an admin must know before a run of thousands: no publishing needed, and Google Sheets.
		expect(text).toMatch(/no publishing needed/);
		expect(text).toMatch(/Google Sheets → Get Row\(s\)/);
		expect(file.tags.map((t) => t.name)).toContain('Knolyx');
	});

	test('no credentials, no webhook ID, no path; every node but the trigger fed; types and versions this n8n has', async () => {
		const raw = JSON.parse(JSON.stringify(readExample(FILE)));
		expect(raw.nodes.filter((n) => n.credentials).map((n) => n.name)).toEqual([]);
		const stored = await rest.request('GET', `/rest/workflows/${WF.id}`);
		expect(stored.nodes.map((n) => n.name).sort()).toEqual([...byName.keys()].sort());
		const types = new Set();
		for (const t of await rest.nodeTypes())
			for (const v of [].concat(t.version)) types.add(`${t.name}@${v}`);
		expect(
			file.nodes.map((n) => `${n.type}@${n.typeVersion}`).filter((t) => !types.has(t)),
		).toEqual([]);
		const fed = new Set(
			Object.values(file.connections).flatMap(({ main }) => main.flat().map((c) => c.node)),
		);
		expect(
			file.nodes
				.filter((n) => n.type !== 'n8n-nodes-base.stickyNote' && !n.type.endsWith('Trigger'))
				.filter((n) => !fed.has(n.name))
				.map((n) => n.name),
		).toEqual([]);
		const form = file.nodes.find((n) => n.type === 'n8n-nodes-base.formTrigger');
		expect(PATH_FROM_WEBHOOK_ID).toContain(form.type);
		expect(form.parameters.path ?? form.parameters.options?.path ?? '').toBe('');
		expect(form.parameters.authentication).toBe('basicAuth');
	});

	test('the Knolyx node: Enrol in Workgroup, Send Welcome Email added and off, the adaptive concurrency default, failures to the error output', () => {
		const knolyx = file.nodes.filter((n) => isKnolyxType(n.type));
		expect(knolyx.map((n) => n.name)).toEqual([KNOLYX_NODE]);
		const [node] = knolyx;
		expect([node.parameters.resource, node.parameters.operation]).toEqual(['user', 'enrol']);
		expect(node.parameters.options).toEqual({ sendWelcomeEmail: false });
		expect(node.parameters.requestOptions).toBeUndefined();
		expect(node.onError).toBe('continueErrorOutput');
		const [success, failure] = file.connections[KNOLYX_NODE].main;
		expect([success.length, failure.length]).toEqual([1, 1]);
	});
});

// ----------------------------------------------------------------- 2.

describe('2. who can reach the form', () => {
	test.each([
		['no user and password', {}],
		['a wrong password', basic({ user: FORM_AUTH.user, password: 'wrong' })],
	])('%s: 401 and no execution', async (_label, headers) => {
		const got = await uploadToForm(formUrl, {
			file: { name: 'students.csv', content: 'email,first_name,last_name,workgroup_id\n' },
			headers,
		});
		expect(got.status).toBe(401);
		const list = await rest.request(
			'GET',
			`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: WF.id }))}`,
		);
		expect(list.results ?? []).toEqual([]);
	});
});

// ----------------------------------------------------------------- 3. and 4.

const HEADER = ['email', 'first_name', 'last_name', 'workgroup_id'];
const student = (n, workgroup) => ({
	email: `student${n}@school.example`,
	first_name: `First${n}`,
	last_name: n === 7 ? 'Smith, Jr.' : `Last${n}`, // a cell the CSV must quote
	workgroup_id: workgroup,
});

/**
 * The school's file: rows in the file's order (row = index + 2: the header is row 1), each with
 * what must come of it. `reason` (bad rows) must match what the summary says.
 */
function schoolFile() {
	const good = [];
	for (let n = 1; n <= 16; n++) good.push(student(n, [201, 202, 203, schoolYear][n % 4]));
	good.push(student(1, 201)); // the same student in a second workgroup
	good.push({
		email: 'ada@example.com',
		first_name: 'Ada',
		last_name: 'Lovelace',
		workgroup_id: 204,
	}); // already a member
	good.push({
		email: 'ALAN@example.com',
		first_name: 'Alan',
		last_name: 'Turing',
		workgroup_id: 201,
	}); // Knolyx matches e-mails in any case
	good.push(
		...EXISTING.map((u, i) => ({
			email: u.email,
			first_name: u.firstName,
			last_name: u.lastName,
			workgroup_id: [schoolYear, 202, 203][i],
		})),
	);
	const bad = [
		[
			{ email: '', first_name: 'No', last_name: 'Email', workgroup_id: 201 },
			/^Email: is required and was empty$/,
		],
		[
			{ email: 'not-an-email', first_name: 'Bad', last_name: 'Address', workgroup_id: 201 },
			/^Email: .*"not-an-email".*e-mail address/,
		],
		[
			{ email: 'no.group@school.example', first_name: 'No', last_name: 'Group', workgroup_id: '' },
			/^Workgroup: is required and was empty$/,
		],
		[
			{
				email: 'letters@school.example',
				first_name: 'Letters',
				last_name: 'Group',
				workgroup_id: 'abc',
			},
			/^Workgroup: "abc" is not a numeric ID$/,
		],
		[
			{ email: 'no.name@school.example', first_name: '', last_name: 'Nameless', workgroup_id: 202 },
			/^First Name: is required and was empty$/,
		],
		[
			{
				email: 'lost.group@school.example',
				first_name: 'Lost',
				last_name: 'Group',
				workgroup_id: 999,
			},
			/^Knolyx: Entity not found \(workgroup 999 .*\) \[404\]$/,
		],
	];
	// Bad rows spread through the file, not at its end.
	const rows = [...good.map((r) => ({ ...r, good: true }))];
	bad.forEach(([r, reason], i) => rows.splice(3 + i * 4, 0, { ...r, good: false, reason }));
	return rows.map((r, i) => ({ ...r, row: i + 2 }));
}

const csvOf = (rows) => toCsv([HEADER, ...rows.map((r) => HEADER.map((h) => r[h]))]);
const lower = (email) => email.toLowerCase();
/** The sandbox's write counters by key, e-mails in lower case (Knolyx matches them in any case). */
const writesOf = (stats) => {
	const writes = {};
	for (const [key, count] of Object.entries(stats.writes))
		writes[lower(key)] = (writes[lower(key)] ?? 0) + count;
	return writes;
};

/** Every workgroup's members by id: { id: [email, ...] } (sorted), from a sandbox state dump. */
const membersByGroup = (state) =>
	Object.fromEntries(
		state.workgroups.map((w) => [w.id, w.members.map((m) => lower(m.email)).sort()]),
	);

describe('3. a school file of 30 rows, under a rate limit of 20 requests a second', () => {
	let rows;
	let before;
	let got;
	let after;
	let stats;
	let report;

	beforeAll(async () => {
		rows = schoolFile();
		before = await sb.state();
		expect(before.onboardingEmails).toEqual([]);
		await sb.setFaults({ rateLimitPerSecond: RATE_LIMIT });
		await sb.request('POST', '/sandbox/stats/reset');
		got = await uploadToForm(formUrl, {
			file: { name: 'students.csv', content: csvOf(rows) },
			headers: basic(FORM_AUTH),
		});
		stats = await sb.stats();
		await sb.resetFaults();
		after = await sb.state();
		report = parseCsv(got.files[0]?.text ?? '');
	}, 300_000);

	test('the upload is answered at once; the ending page follows; the execution succeeds, once', async () => {
		expect(got.status).toBe(200);
		expect(got.formWaitingUrl).toMatch(/\/form-waiting\/\d+/);
		expect(got.executionState).toBe('form-waiting');
		expect(got.finishStatus).toBe(200);
		const [ex] = await waitForExecutions(rest, WF.id, 1, { timeoutMs: 60_000 });
		expect([ex.id, ex.status]).toEqual([got.executionId, 'success']);
	});

	test("every good row: the user exists with the names of the file and is a member of the row's workgroup, written once; no one else was added anywhere", () => {
		const expected = membersByGroup(before);
		for (const r of rows.filter((x) => x.good)) {
			const user = after.users.find((u) => lower(u.email) === lower(r.email));
			expect({ row: r.row, first: user?.firstName, last: user?.lastName }).toEqual({
				row: r.row,
				first: r.first_name,
				last: r.last_name,
			});
			expected[r.workgroup_id] = [...new Set([...expected[r.workgroup_id], lower(r.email)])].sort();
			// The membership reached the sandbox's state once (a retry after a 429 is refused before it).
			expect({
				row: r.row,
				writes: writesOf(stats)[`member:${r.workgroup_id}:${lower(r.email)}`],
			}).toEqual({
				row: r.row,
				writes: 1,
			});
		}
		expect(membersByGroup(after)).toEqual(expected);
	});

	test('nothing written twice: one provisioning per row that passed the checks, the only repeat the student who is in the file twice', () => {
		const sent = rows.filter((r) => r.good || /Knolyx/.test(String(r.reason)));
		const perEmail = {};
		for (const r of sent) perEmail[lower(r.email)] = (perEmail[lower(r.email)] ?? 0) + 1;
		expect(
			Object.fromEntries(
				Object.entries(writesOf(stats))
					.filter(([k]) => k.startsWith('provision:'))
					.map(([k, v]) => [k.slice('provision:'.length), v]),
			),
		).toEqual(perEmail);
		expect(stats.duplicateWrites).toBe(1);
	});

	test('the rate limit was met (429 answers) and no row was lost to it', () => {
		expect(stats.faultsInjected.rateLimit).toBeGreaterThan(0);
		const lost = rows.filter(
			(r) =>
				!report.some((line) => Number(line.row) === r.row) ||
				(r.good && !membersByGroup(after)[r.workgroup_id]?.includes(lower(r.email))),
		);
		expect(lost).toEqual([]);
	});

	test('no welcome e-mail: the sandbox sent none (it sends one to every new user unless disableWelcomeEmail is true)', () => {
		const created = after.users.filter((u) => !before.users.some((b) => b.id === u.id));
		expect(created.length).toBeGreaterThan(10);
		expect(after.onboardingEmails).toEqual([]);
	});

	test('the bad rows: nobody added; only the row Knolyx refused (unknown workgroup) left an account, as the note says', () => {
		const users = new Set(after.users.map((u) => lower(u.email)));
		const members = Object.values(membersByGroup(after)).flat();
		for (const r of rows.filter((x) => !x.good)) {
			expect({ row: r.row, member: members.includes(lower(r.email)) }).toEqual({
				row: r.row,
				member: false,
			});
			const refusedByKnolyx = /Knolyx/.test(String(r.reason));
			expect({ row: r.row, account: r.email !== '' && users.has(lower(r.email)) }).toEqual({
				row: r.row,
				account: refusedByKnolyx,
			});
		}
	});

	test('the ending page: the counts and every failed row with its row number, e-mail and reason', () => {
		const goodRows = rows.filter((r) => r.good);
		const known = new Set(before.users.map((u) => lower(u.email)));
		const created = new Set(goodRows.map((r) => lower(r.email)).filter((e) => !known.has(e))).size;
		const bad = rows.filter((r) => !r.good);
		expect(got.title).toBe(`${bad.length} of ${rows.length} rows failed`);
		const lines = got.message.split('\n');
		expect(lines.slice(0, 3)).toEqual([
			`Created: ${created}`,
			`Already existed (enrolled all the same): ${goodRows.length - created}`,
			`Failed: ${bad.length}`,
		]);
		const failures = lines.filter((l) => l.startsWith('Row '));
		expect(failures).toHaveLength(bad.length);
		for (const r of bad) {
			const line = failures.find((l) =>
				l.startsWith(`Row ${r.row}${r.email ? ` (${r.email})` : ''}: `),
			);
			expect({ row: r.row, line: Boolean(line) }).toEqual({ row: r.row, line: true });
			expect(line.slice(line.indexOf(': ') + 2)).toMatch(r.reason);
		}
	});

	test('the report file: every row once with its result, failed rows first, each reason as on the page', () => {
		expect(got.files.map((f) => [f.fileName, f.type])).toEqual([
			['knolyx-enrolment-report.csv', 'text/csv'],
		]);
		expect(report.map((l) => Number(l.row)).sort((a, b) => a - b)).toEqual(rows.map((r) => r.row));
		const firstGood = report.findIndex((l) => l.result !== 'failed');
		expect(report.slice(firstGood).every((l) => l.result !== 'failed')).toBe(true);
		for (const r of rows) {
			const line = report.find((l) => Number(l.row) === r.row);
			expect({
				row: r.row,
				email: line.email,
				workgroup: line.workgroup_id,
				last: line.last_name,
			}).toEqual({
				row: r.row,
				email: r.email,
				workgroup: String(r.workgroup_id),
				last: r.last_name,
			});
			if (r.good) expect(['created', 'already existed']).toContain(line.result);
			else {
				expect(line.result).toBe('failed');
				expect(line.reason).toMatch(r.reason);
			}
		}
		// Of a student in the file twice, one row created the account, the other found it.
		const twice = report.filter((l) => l.email === 'student1@school.example').map((l) => l.result);
		expect(twice.sort()).toEqual(['already existed', 'created']);
	});

	test("the workflow's own count (Count the results) is the page's", async () => {
		const ex = await execution(rest, got.executionId);
		const [counts] = nodeOutput(ex, 'Count the results');
		const lines = got.message.split('\n');
		expect([
			`Created: ${counts.created}`,
			`Already existed (enrolled all the same): ${counts.alreadyExisted}`,
			`Failed: ${counts.failed}`,
		]).toEqual(lines.slice(0, 3));
	});

	describe('4. the report uploaded again, its failed rows fixed', () => {
		let again;
		let afterAgain;
		let statsAgain;
		const FIXES = {
			'': { email: 'has.email.now@school.example' },
			'not-an-email': { email: 'bad.address@school.example' },
			'no.group@school.example': { workgroup_id: '203' },
			'letters@school.example': { workgroup_id: '203' },
			'no.name@school.example': { first_name: 'Named' },
			'lost.group@school.example': { workgroup_id: '201' },
		};

		beforeAll(async () => {
			const fixed = report.map((l) => (l.result === 'failed' ? { ...l, ...FIXES[l.email] } : l));
			await sb.request('POST', '/sandbox/stats/reset');
			again = await uploadToForm(formUrl, {
				file: {
					name: 'knolyx-enrolment-report.csv',
					content: toCsv([Object.keys(fixed[0]), ...fixed.map((l) => Object.values(l))]),
				},
				headers: basic(FORM_AUTH),
			});
			statsAgain = await sb.stats();
			afterAgain = await sb.state();
			again.fixed = fixed;
		}, 300_000);

		test('every row enrolled: the fixed ones as new (lost.group as existing: Knolyx made the account the first time); nothing failed; no welcome e-mail', () => {
			expect(again.title).toBe('Every student is enrolled');
			const fixedNew = Object.values(FIXES).length - 1;
			expect(again.message.split('\n').slice(0, 3)).toEqual([
				`Created: ${fixedNew}`,
				`Already existed (enrolled all the same): ${rows.length - fixedNew}`,
				'Failed: 0',
			]);
			const members = membersByGroup(afterAgain);
			for (const l of again.fixed)
				expect({ row: l.row, member: members[l.workgroup_id]?.includes(lower(l.email)) }).toEqual({
					row: l.row,
					member: true,
				});
			expect(afterAgain.onboardingEmails).toEqual([]);
		});

		test('each row written once: one membership write per row, no write beyond them', () => {
			const memberWrites = Object.entries(writesOf(statsAgain)).filter(([k]) =>
				k.startsWith('member:'),
			);
			expect(memberWrites.map(([, v]) => v)).toEqual(memberWrites.map(() => 1));
			expect(memberWrites).toHaveLength(again.fixed.length);
		});
	});
});

// ----------------------------------------------------------------- 5.

describe("5. the admin's own browser: 2 000 rows through the form page in Chromium", () => {
	const N = 2000;
	let browser;
	let page;
	let download;
	let heading;
	let after;

	beforeAll(async () => {
		({ page, ...browser } = await launchBrowser());
		// The Basic Auth the form asks for, on every request of the page (its polls included).
		await browser.context.setExtraHTTPHeaders(basic(FORM_AUTH));
		const rows = Array.from({ length: N }, (_, i) => [
			`browser${i}@school.example`,
			'Browser',
			`Student ${i}`,
			[201, 202, 203][i % 3],
		]);
		await page.goto(formUrl);
		await page.locator('input[type=file]').setInputFiles({
			name: 'students.csv',
			mimeType: 'text/csv',
			buffer: Buffer.from(toCsv([HEADER, ...rows])),
		});
		const downloaded = page.waitForEvent('download', { timeout: 600_000 });
		await page.locator('#submit-btn').click();
		download = await downloaded;
		heading = await page.locator('h1').first().textContent();
		await screenshot(page, `bulk-template-ending-${N8N_VERSION}`);
		after = await sb.state();
	}, 660_000);

	afterAll(async () => {
		await browser?.close();
	});

	test('the page ends on the summary and downloads the report of every row; the sandbox has every student in their workgroup, and sent no welcome e-mail', async () => {
		expect(heading?.trim()).toBe('Every student is enrolled');
		expect(download.suggestedFilename()).toBe('knolyx-enrolment-report.csv');
		const report = parseCsv(fs.readFileSync(await download.path(), 'utf8'));
		expect(report).toHaveLength(N);
		expect(report.filter((l) => l.result === 'created')).toHaveLength(N);
		const members = membersByGroup(after);
		const missing = report.filter((l) => !members[l.workgroup_id]?.includes(l.email));
		expect(missing).toEqual([]);
		expect(after.onboardingEmails).toEqual([]);
	});
});
