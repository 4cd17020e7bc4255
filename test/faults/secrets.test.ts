/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The API key and the webhook secret never appear in anything a failing run produces: output
 * items (Continue On Fail), the run's error (message, description, JSON of the error with its
 * context, cause and response, util.inspect of it), the whole run data, the credential test's
 * answer, the trigger's HTTP answers and n8n's logs at debug level (process stdout/stderr, the
 * console and every call of n8n's logger, with its metadata).
 */
import { setConsoleSink } from './debug-log-env';

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import axios from 'axios';
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { INodeParameters } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';
import { PERMISSIONS, type Sandbox } from '../../sandbox';
import { runNode, testCredential, triggerHosts, type TriggerHost } from '../harness';
import { DEMO, rl, aRule, useSandbox } from '../action/setup';
import { recordCounts } from './helpers';

const ctx = useSandbox();

/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up keys the sandbox is seeded with; the tests prove they never leak */
/** A key that works (all permissions) and one that does not: both must stay out of everything. */
const GOOD_KEY = 'kx_live_7f3c2b9e1d4a6f80c5e2_secret_good';
const BAD_KEY = 'kx_live_0a1b2c3d4e5f60718293_secret_bad';
/** A real key, but of another project. */
const OTHER_PROJECT_KEY = 'kx_live_5566778899aabbccddee_secret_other';
/* eslint-enable @n8n/community-nodes/no-hardcoded-secrets */

/** Everything written anywhere while capturing. */
class Capture {
	readonly chunks: string[] = [];
	private restore: Array<() => void> = [];

	start(): void {
		const push = (what: unknown) =>
			this.chunks.push(typeof what === 'string' ? what : inspect(what, { depth: 12 }));
		setConsoleSink(push);
		this.restore.push(() => setConsoleSink(undefined));
		// n8n's logger (winston) writes to console._stdout/_stderr when the console has them (a jest
		// worker's console does), else through console.log/warn/error.
		const consoleStreams = console as unknown as {
			_stdout?: NodeJS.WriteStream;
			_stderr?: NodeJS.WriteStream;
		};
		const streams = new Set(
			[process.stdout, process.stderr, consoleStreams._stdout, consoleStreams._stderr].filter(
				(stream) => stream !== undefined,
			),
		);
		for (const stream of streams) {
			const own = Object.getOwnPropertyDescriptor(stream, 'write');
			stream.write = ((chunk: unknown) => {
				push(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : chunk);
				return true;
			}) as typeof stream.write;
			this.restore.push(() =>
				own ? Object.defineProperty(stream, 'write', own) : Reflect.deleteProperty(stream, 'write'),
			);
		}
		const logger = Container.get(Logger);
		for (const level of ['error', 'warn', 'info', 'debug'] as const) {
			const original = logger[level].bind(logger);
			const spy = jest.spyOn(logger, level).mockImplementation((message: string, meta?: object) => {
				push([message, meta]);
				original(message, meta as never);
			});
			this.restore.push(() => spy.mockRestore());
		}
	}

	stop(): string {
		for (const undo of this.restore.splice(0).reverse()) undo();
		return this.chunks.join('\n');
	}
}

/** Every view of an error a user, a log or an error tracker could get. */
function everythingOf(error: unknown): string {
	if (!error) return '';
	const record = error as Record<string, unknown>;
	return [
		String(record.message),
		String(record.description),
		String(record.stack),
		JSON.stringify(error),
		JSON.stringify({
			context: record.context,
			cause: record.cause,
			errorResponse: record.errorResponse,
			messages: record.messages,
		}),
		inspect(error, { depth: 12, showHidden: true }),
	].join('\n');
}

async function runKnolyx(
	sandbox: Sandbox,
	parameters: INodeParameters,
	items: object[],
	apiKey: string,
	continueOnFail: boolean,
	baseUrl = sandbox.url,
) {
	const result = await runNode({
		nodeType: new Knolyx(),
		type: 'knolyx',
		parameters,
		items: items as never,
		credentials: { knolyxApi: { baseUrl, projectId: DEMO.projectId, apiKey } },
		credentialTypes: [new KnolyxApi()],
		continueOnFail,
	});
	return [
		JSON.stringify(result.items),
		everythingOf(result.error),
		JSON.stringify(result.run),
		inspect(result.run, { depth: 20 }),
	].join('\n');
}

const leaks = (text: string, secrets: string[]) =>
	secrets.filter((secret) => text.includes(secret));

beforeEach(() => {
	ctx.sandbox.seed({
		apiKeys: [
			{ apiKey: GOOD_KEY, projectId: DEMO.projectId, permissions: [...PERMISSIONS] },
			{ apiKey: OTHER_PROJECT_KEY, projectId: 'other-project', permissions: [...PERMISSIONS] },
		],
	});
	// n8n's logger exists before the first run, so n8n-core's LoggerProxy writes through it.
	Container.get(Logger);
});

let searched = 0;

describe('the API key', () => {
	afterAll(() => {
		recordCounts({
			suite: 'secrets',
			scenario: 'failing action runs (401, 403, 404, 5xx, HTML, reset, bad input, echo)',
			faults: 0,
			items: 0,
			succeeded: 0,
			failed: 0,
			duplicates: 0,
			lost: 0,
			note: `${searched.toLocaleString('en')} characters of output, errors and logs searched, 0 secrets found`,
		});
	});

	const enrol = {
		resource: 'user',
		operation: 'enrol',
		email: '={{ $json.email }}',
		firstName: 'S',
		lastName: 'K',
		workgroupId: rl(201),
	};
	const failingRuns: Array<
		[string, (sandbox: Sandbox, continueOnFail: boolean) => Promise<string>]
	> = [
		[
			'a wrong key (401)',
			(s, c) => runKnolyx(s, enrol, [{ email: 'a@secret.example' }], BAD_KEY, c),
		],
		[
			'a key of another project (401)',
			(s, c) =>
				runKnolyx(
					s,
					{ resource: 'course', operation: 'get', courseId: rl(101) },
					[{}],
					OTHER_PROJECT_KEY,
					c,
				),
		],
		[
			'a 500 with an HTML body',
			async (s, c) => {
				s.setFaults({ malformedRate: 1 });
				return await runKnolyx(s, enrol, [{ email: 'b@secret.example' }], GOOD_KEY, c);
			},
		],
		[
			'a 500 with a JSON body',
			async (s, c) => {
				s.setFaults({ errorRate: 1, errorStatuses: [500] });
				return await runKnolyx(s, enrol, [{ email: 'c@secret.example' }], GOOD_KEY, c);
			},
		],
		[
			'a lost connection (rule list saved with Replace All)',
			async (s, c) => {
				s.setFaults({ resetRate: 1 });
				const rules = JSON.stringify([aRule('R')]);
				return await runKnolyx(
					s,
					{ resource: 'rule', operation: 'replaceAll', courseId: rl(101), rules },
					[{}],
					GOOD_KEY,
					c,
				);
			},
		],
		[
			'a 403 (a key without the permission)',
			(s, c) =>
				runKnolyx(s, { resource: 'webhook', operation: 'getAll' }, [{}], DEMO.readOnlyApiKey, c),
		],
		[
			'a 404',
			(s, c) =>
				runKnolyx(
					s,
					{
						resource: 'workgroup',
						operation: 'addMember',
						workgroupId: rl(299),
						email: 'nobody@secret.example',
					},
					[{}],
					GOOD_KEY,
					c,
				),
		],
		['invalid input', (s, c) => runKnolyx(s, enrol, [{ email: 'not-an-email' }], GOOD_KEY, c)],
		[
			'a base URL that is no URL',
			(s, c) => runKnolyx(s, enrol, [{ email: 'f@secret.example' }], GOOD_KEY, c, 'not a url'),
		],
		[
			'a base URL with a scheme n8n cannot request',
			(s, c) =>
				runKnolyx(s, enrol, [{ email: 'g@secret.example' }], GOOD_KEY, c, 'ftp://127.0.0.1:1'),
		],
		[
			'a platform that does not exist at the base URL (404 of another server)',
			(s, c) =>
				runKnolyx(s, enrol, [{ email: 'd@secret.example' }], GOOD_KEY, c, `${s.url}/elsewhere`),
		],
	];

	it.each(failingRuns)(
		'appears in no output, error or log line after %s (with and without Continue On Fail)',
		async (_name, failing) => {
			const capture = new Capture();
			capture.start();
			let produced: string;
			try {
				produced = (await failing(ctx.sandbox, true)) + (await failing(ctx.sandbox, false));
			} finally {
				ctx.sandbox.resetFaults();
			}
			const logged = capture.stop();
			// Something was produced and logged at all (the capture works).
			expect(produced).toMatch(/error/i);
			expect(logged).toMatch(/Start executing node|Workflow execution started/);
			expect(leaks(produced, [GOOD_KEY, BAD_KEY, OTHER_PROJECT_KEY])).toEqual([]);
			expect(leaks(logged, [GOOD_KEY, BAD_KEY, OTHER_PROJECT_KEY])).toEqual([]);
			searched += produced.length + logged.length;
		},
	);

	it('is not repeated back when the platform echoes it in an error message, a field name or echoed headers', async () => {
		// Some APIs answer "Invalid API key <key>": the message reaches items, errors and logs.
		const echoing = createServer((req, res) => {
			const key = String(req.headers['x-api-key']);
			res.writeHead(401, { 'Content-Type': 'application/json' }).end(
				JSON.stringify({
					status: 401,
					error: 'Unauthorized',
					message: `Invalid API key ${key}`,
					path: req.url,
					apiKey: key,
					// As a field name too (issue 37): redaction of values alone kept it.
					[key]: 'unknown key',
					echoed: { headers: req.headers },
				}),
			);
		});
		await new Promise<void>((resolve) => echoing.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(echoing.address() as AddressInfo).port}`;
		const capture = new Capture();
		capture.start();
		let produced = '';
		try {
			produced =
				(await runKnolyx(ctx.sandbox, enrol, [{ email: 'e@secret.example' }], BAD_KEY, true, url)) +
				(await runKnolyx(ctx.sandbox, enrol, [{ email: 'e@secret.example' }], BAD_KEY, false, url));
		} finally {
			await new Promise((resolve) => echoing.close(resolve));
		}
		const logged = capture.stop();
		expect(produced).toContain('Invalid API key');
		expect(leaks(produced + logged, [BAD_KEY])).toEqual([]);
	});

	it('appears in no answer of the credential test', async () => {
		const answers = await Promise.all(
			[BAD_KEY, GOOD_KEY].map((apiKey) =>
				testCredential(new KnolyxApi(), {
					baseUrl: ctx.sandbox.url,
					projectId: 'wrong-project',
					apiKey,
				}),
			),
		);
		expect(answers.map((answer) => answer.status)).toEqual(['Error', 'Error']);
		expect(leaks(JSON.stringify(answers), [GOOD_KEY, BAD_KEY])).toEqual([]);
	});
});

describe('the webhook secret (and the API key) in the trigger', () => {
	const hosts = triggerHosts();
	afterEach(() => hosts.endAll());

	async function host(apiKey: string, webhookId: string): Promise<TriggerHost> {
		return await hosts.start({
			nodeType: new KnolyxTrigger(),
			type: 'n8n-nodes-knolyx.knolyxTrigger',
			parameters: { events: ['*'], options: {} },
			credentials: { knolyxApi: { baseUrl: ctx.sandbox.url, projectId: DEMO.projectId, apiKey } },
			credentialTypes: [new KnolyxApi()],
			webhookId,
		});
	}

	it('appear in no answer, item, error or log line: wrong tokens, garbage, a failed activation and a failed delete', async () => {
		const capture = new Capture();
		capture.start();
		const produced: unknown[] = [];
		let secrets: string[] = [];
		try {
			const h = await host(GOOD_KEY, 'secret-test');
			await h.activate('trigger');
			const deadline = Date.now() + 5000;
			while (h.executions().length < 1 && Date.now() < deadline)
				await new Promise((resolve) => setTimeout(resolve, 10));
			secrets = [...ctx.sandbox.state.webhooks.values()].map((webhook) => webhook.securityToken);
			expect(secrets).toHaveLength(1);
			const [secret] = secrets;
			const put = async (body: unknown, headers: Record<string, string>, method = 'put') =>
				(
					await axios.request({
						url: h.url('trigger'),
						method,
						data: body,
						headers,
						validateStatus: () => true,
					})
				).data as unknown;
			const flipped = `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`;
			for (const token of [
				flipped,
				secret.toUpperCase(),
				secret.slice(1),
				`${secret} `,
				'x'.repeat(64),
				'',
			]) {
				produced.push(
					await put(
						{ id: 'e1', type: 'COURSE_STARTED', data: {} },
						token ? { 'X-Webhook-Security-Token': token } : {},
					),
				);
			}
			produced.push(
				await put('{"id":', {
					'X-Webhook-Security-Token': secret,
					'Content-Type': 'application/json',
				}),
			);
			produced.push(await put({ nope: true }, { 'X-Webhook-Security-Token': secret }));
			produced.push(
				await put(
					{ id: 'e2', type: 'COURSE_STARTED', data: { user: { id: 1 } } },
					{ 'X-Webhook-Security-Token': secret },
				),
			);
			produced.push(
				await put(
					{ id: 'e2', type: 'COURSE_STARTED', data: {} },
					{ 'X-Webhook-Security-Token': secret },
				),
			);
			produced.push(await put({ id: 'e3' }, { 'X-Webhook-Security-Token': secret }, 'post'));
			ctx.sandbox.activity('course-started', { email: 'ada@example.com', courseId: 101 });
			await ctx.sandbox.waitForDeliveries({ type: 'COURSE_STARTED', ok: true }, 5000);
			produced.push(h.executions());

			// A failed activation with a wrong key (the secret of that registration is in flight).
			const failing = await host(BAD_KEY, 'secret-test-bad');
			await failing
				.activate('trigger')
				.catch((error: unknown) => produced.push(everythingOf(error)));
			// A strict platform refusing the URL: the secret was sent, the answer is an error.
			ctx.sandbox.config.strict = true;
			const refused = await host(GOOD_KEY, 'secret-test-strict');
			await refused
				.activate('trigger')
				.catch((error: unknown) => produced.push(everythingOf(error)));
			ctx.sandbox.config.strict = false;
			// A delete that fails (platform down): logged, not thrown.
			ctx.sandbox.setFaults({ errorRate: 1, errorStatuses: [500] });
			await h.deactivate('trigger').catch((error: unknown) => produced.push(everythingOf(error)));
			ctx.sandbox.resetFaults();
		} finally {
			ctx.sandbox.config.strict = false;
			ctx.sandbox.resetFaults();
		}
		const logged = capture.stop();
		// Static data holds the secret by design (n8n keeps it with the workflow): not searched here.
		const text = inspect(produced, { depth: 20 });
		expect(text).toContain('Missing or invalid X-Webhook-Security-Token');
		expect(logged).toMatch(/refused a delivery/);
		const allSecrets = [
			...secrets,
			...[...ctx.sandbox.state.webhooks.values()].map((webhook) => webhook.securityToken),
			GOOD_KEY,
			BAD_KEY,
		];
		expect(leaks(text, allSecrets)).toEqual([]);
		expect(leaks(logged, allSecrets)).toEqual([]);
		expect(`${text}\n${logged}`).not.toMatch(/\b[0-9a-f]{64}\b/);
		recordCounts({
			suite: 'secrets',
			scenario: 'trigger: wrong tokens, garbage, failed activation and delete',
			faults: 1,
			items: 0,
			succeeded: 0,
			failed: 0,
			duplicates: 0,
			lost: 0,
			note: `${(text.length + logged.length).toLocaleString('en')} characters searched, 0 secrets found`,
		});
	});
});
