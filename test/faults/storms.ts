/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Fault storms through the workflow harness, Continue On Fail on: one workflow per storm, its
 * items fanned out to provision, add member, enrol, register and rule edits (add and remove a
 * workgroup in two rules of one course that also holds a rule nobody touches).
 *
 * For every storm: each item succeeds or is a clear error item (paired, short, no HTML, no
 * stack, no request dump); no write has a second effect (no second user, onboarding e-mail,
 * membership, attendance or rule); nothing reported as done is missing at the end; and when
 * no answer was ever lost after a write was applied, the sandbox saw no repeated write at all.
 *
 * The suites are storms-rate-limit.test.ts (the 429 storm, which waits out Retry-After: 43 s in
 * a fresh CI run, 2026-11-28) and storms.test.ts (the other seven, about as long together), so
 * that jest runs the two at once.
 */
import type { INodeParameters } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import type { FaultConfig, Sandbox } from '../../sandbox';
import { createNodeTypes, manualWorkflow, runWorkflow } from '../harness';
import { credentialsFor, rl, useSandbox } from '../action/setup';
import {
	faultSummary,
	faultTotal,
	recordCounts,
	repeatedWrites,
	tally,
	type Tally,
	waitIdle,
} from './helpers';

const N = 24;
const NODE = 'knolyx';
const KEEP_RULE = {
	name: 'Keep as is',
	type: 'PUBLIC',
	startDateTime: '2020-01-01 00:00:00',
	endDateTime: '2070-01-01 00:00:00',
	restrictions: { minimumTime: true, browseOrder: 'sequential', x_future: { a: [1, 2] } },
	associations: { USER: [1001], DEPARTMENT: [7], JOB: [8], WORKGROUP: [204] },
	action: 'STUDENTS',
	diplomaTemplateId: 9,
};
const ADD_RULE = 'STORM_ADD';
const REMOVE_RULE = 'STORM_REMOVE';
/** Workgroup ids of the rule edits (association ids are not checked by the platform). */
const addedWg = (n: number) => 5000 + n;
const removedWg = (n: number) => 6000 + n;
const STAYS_WG = 7000;
const removalOf = (n: number) => (n % 2 === 0 ? '2031-06-30 12:00:00' : null);

const email = (branch: string, n: number) => `${branch}${n}@storm.example`;

interface Branch {
	name: string;
	parameters: INodeParameters;
}

function branches(courseId: number, requestOptions: INodeParameters): Branch[] {
	const user = (prefix: string) => ({
		email: `={{ "${prefix}" + $json.n + "@storm.example" }}`,
		firstName: '={{ "First" + $json.n }}',
		lastName: 'Storm',
	});
	return [
		{
			name: 'Provision',
			parameters: { resource: 'user', operation: 'provision', ...user('prov'), gender: 'FEMALE' },
		},
		{
			name: 'Add Member',
			parameters: {
				resource: 'workgroup',
				operation: 'addMember',
				workgroupId: rl(202),
				email: '={{ "mem" + $json.n + "@storm.example" }}',
				removalDate: '={{ $json.n % 2 === 0 ? "2031-06-30 12:00:00" : "" }}',
			},
		},
		{
			name: 'Enrol',
			parameters: { resource: 'user', operation: 'enrol', ...user('enr'), workgroupId: rl(201) },
		},
		{
			name: 'Register',
			parameters: {
				resource: 'event',
				operation: 'register',
				...user('reg'),
				workgroupId: rl(204),
				communityId: '301',
				eventId: '401',
			},
		},
		{
			name: 'Rule Add',
			parameters: {
				resource: 'rule',
				operation: 'addWorkgroup',
				courseId: rl(courseId),
				ruleName: ADD_RULE,
				workgroupId: '={{ 5000 + $json.n }}',
			},
		},
		{
			name: 'Rule Remove',
			parameters: {
				resource: 'rule',
				operation: 'removeWorkgroup',
				courseId: rl(courseId),
				ruleName: REMOVE_RULE,
				workgroupId: '={{ 6000 + $json.n }}',
			},
		},
	].map((branch) => ({ ...branch, parameters: { ...branch.parameters, requestOptions } }));
}

/** Manual Trigger → Set Items (N items) → every branch, each a Knolyx node with Continue On Fail. */
async function runStorm(sandbox: Sandbox, courseId: number, requestOptions: INodeParameters) {
	const list = branches(courseId, requestOptions);
	const result = await runWorkflow({
		...manualWorkflow({
			items: Array.from({ length: N }, (_, n) => ({ n })),
			steps: list.map((branch) => ({
				name: branch.name,
				type: NODE,
				parameters: branch.parameters,
				onError: 'continueRegularOutput',
			})),
			layout: 'branches',
		}),
		nodeTypes: createNodeTypes({ [NODE]: new Knolyx() }),
		credentials: { knolyxApi: { ...credentialsFor(sandbox) } },
		credentialTypes: [new KnolyxApi()],
	});
	expect(result.error).toBeUndefined();
	return Object.fromEntries(
		list.map((branch) => [branch.name, tally(result.output(branch.name), N, branch.name)]),
	) as Record<string, Tally>;
}

function prepare(sandbox: Sandbox): number {
	const seeded = sandbox.seed({
		courses: [{ title: 'Storm course' }],
		users: Array.from({ length: N }, (_, n) => ({
			firstName: `Member${n}`,
			lastName: 'Storm',
			email: email('mem', n),
		})),
	});
	const courseId = seeded.courses[0];
	sandbox.seed({
		rules: {
			[courseId]: [
				KEEP_RULE,
				{
					...KEEP_RULE,
					name: REMOVE_RULE,
					type: 'PRIVATE',
					associations: {
						WORKGROUP: [...Array.from({ length: N }, (_, n) => removedWg(n)), STAYS_WG],
						USER: [1002],
					},
				},
			],
		},
	});
	sandbox.resetStats();
	return courseId;
}

type Json = Record<string, unknown>;
const wgs = (rule: Json | undefined) =>
	((rule?.associations as Json | undefined)?.WORKGROUP as number[] | undefined) ?? [];

/**
 * Checks the platform's final state against the items: everything reported done holds, nothing
 * exists twice. Returns the number of lost edits and of duplicated effects.
 */
function checkState(
	sandbox: Sandbox,
	courseId: number,
	keepBefore: Json,
	removeBefore: Json,
	out: Record<string, Tally>,
) {
	const state = sandbox.state;
	const lost: string[] = [];
	const duplicates: string[] = [];

	// One onboarding e-mail per created user, never two.
	const mails = new Map<string, number>();
	for (const mail of state.onboardingEmails)
		mails.set(mail.to.toLowerCase(), (mails.get(mail.to.toLowerCase()) ?? 0) + 1);
	for (const [to, count] of mails)
		if (count > 1) duplicates.push(`${count} onboarding e-mails to ${to}`);
	const emails = [...state.users.values()].map((user) => user.email.toLowerCase());
	if (new Set(emails).size !== emails.length) duplicates.push('two users with one e-mail');

	const user = (address: string) => state.findUserByEmail(address);
	const member = (wg: number, address: string) =>
		state.memberships.get(wg)?.get(address.toLowerCase());
	for (let n = 0; n < N; n++) {
		if (out.Provision.ok.has(n)) {
			const u = user(email('prov', n));
			if (!u || u.firstName !== `First${n}` || u.gender !== 'FEMALE') lost.push(`provision ${n}`);
			if (mails.get(email('prov', n)) !== 1) lost.push(`onboarding e-mail of provision ${n}`);
		}
		if (out['Add Member'].ok.has(n)) {
			const m = member(202, email('mem', n));
			if (!m || m.removalDate !== removalOf(n)) lost.push(`membership ${n}: ${JSON.stringify(m)}`);
		}
		if (out.Enrol.ok.has(n)) {
			if (!user(email('enr', n)) || !member(201, email('enr', n))) lost.push(`enrol ${n}`);
		}
		if (out.Register.ok.has(n)) {
			const u = user(email('reg', n));
			if (!u || !member(204, email('reg', n)) || !state.attendance.get(401)?.has(u.id))
				lost.push(`register ${n}`);
			if (u && out.Register.ok.get(n)?.userId !== u.id)
				lost.push(`register ${n}: wrong user id in the output`);
		}
	}

	const rules = (state.rules.get(courseId) ?? []) as Json[];
	const names = rules.map((rule) => rule.name as string);
	if (new Set(names).size !== names.length)
		duplicates.push(`rule names repeated: ${names.join(', ')}`);
	const keep = rules.find((rule) => rule.name === KEEP_RULE.name);
	if (JSON.stringify(keep) !== JSON.stringify(keepBefore)) lost.push('the untouched rule changed');
	const addRule = rules.find((rule) => rule.name === ADD_RULE);
	const removeRule = rules.find((rule) => rule.name === REMOVE_RULE);
	if (!removeRule) lost.push('the rule workgroups were removed from is gone');
	const { associations: removeAssocBefore, ...removeRestBefore } = removeBefore;
	const { associations: removeAssocAfter, ...removeRestAfter } = removeRule ?? {};
	if (JSON.stringify(removeRestAfter) !== JSON.stringify(removeRestBefore))
		lost.push('the other fields of the edited rule changed');
	if (
		JSON.stringify((removeAssocAfter as Json | undefined)?.USER) !==
		JSON.stringify((removeAssocBefore as Json).USER)
	)
		lost.push('USER association changed');
	if (!wgs(removeRule).includes(STAYS_WG)) lost.push(`workgroup ${STAYS_WG} was removed`);
	const addWgs = wgs(addRule);
	if (new Set(addWgs).size !== addWgs.length) duplicates.push('a workgroup twice in a rule');
	for (let n = 0; n < N; n++) {
		if (out['Rule Add'].ok.has(n) && !addWgs.includes(addedWg(n))) lost.push(`rule add ${n}`);
		if (out['Rule Remove'].ok.has(n) && wgs(removeRule).includes(removedWg(n)))
			lost.push(`rule remove ${n}`);
	}
	// Every workgroup in the add rule was asked for by an item (nothing invented).
	for (const id of addWgs) if (id < 5000 || id >= 5000 + N) lost.push(`unexpected workgroup ${id}`);
	return { lost, duplicates, ruleCount: rules.length };
}

interface Storm {
	name: string;
	faults: Partial<FaultConfig>;
	requestOptions?: INodeParameters;
	/** Whether an answer may be lost after the platform applied a write (so a retry repeats it). */
	appliedThenLost?: boolean;
	/** Whether every item must succeed (the faults are all retried). */
	allSucceed?: boolean;
	/** Wait this long after the run: requests the client gave up on are still being handled. */
	settleMs?: number;
}

/** The storm of storms-rate-limit.test.ts. */
export const RATE_LIMIT_STORM = '429 storm with Retry-After';

export const STORMS: Storm[] = [
	{
		name: RATE_LIMIT_STORM,
		faults: { rateLimitPerSecond: 25, latencyMs: 2 },
		allSucceed: true,
	},
	{
		name: '5xx burst (500, 502, 503, 504)',
		faults: { errorRate: 0.3, errorStatuses: [500, 502, 503, 504], seed: 21 },
	},
	{
		name: 'retried 502/503/504 burst',
		faults: { errorRate: 0.25, errorStatuses: [502, 503, 504], seed: 5 },
		allSucceed: true,
	},
	{ name: 'connections reset mid-request', faults: { resetRate: 0.25, seed: 8 }, allSucceed: true },
	{
		name: 'connections reset after the write applied',
		faults: { resetAfterApplyRate: 0.3, seed: 13 },
		appliedThenLost: true,
		allSucceed: true,
	},
	{
		name: 'slow answers past a 1 s timeout',
		faults: { slowMs: 1500, slowRate: 0.12, seed: 4 },
		requestOptions: { timeout: 1 },
		appliedThenLost: true,
		settleMs: 1700,
	},
	{ name: 'malformed HTML error bodies', faults: { malformedRate: 0.15, seed: 17 } },
	{
		name: 'everything at once',
		faults: {
			rateLimitPerSecond: 40,
			errorRate: 0.1,
			errorStatuses: [500, 502, 503],
			malformedRate: 0.05,
			resetRate: 0.08,
			resetAfterApplyRate: 0.08,
			slowMs: 1500,
			slowRate: 0.05,
			seed: 99,
		},
		requestOptions: { timeout: 1 },
		appliedThenLost: true,
		settleMs: 1700,
	},
];

/** The storms `storms` (of STORMS), each a describe with its test, on a sandbox of the file's own. */
export function describeStorms(storms: Storm[]): void {
	const ctx = useSandbox();
	describe.each(storms)('$name', (storm) => {
		it('every item succeeds or is a clear error item; no write duplicated; nothing lost', async () => {
			const sandbox = ctx.sandbox;
			const courseId = prepare(sandbox);
			const [keepBefore, removeBefore] = structuredClone(
				sandbox.state.rules.get(courseId) ?? [],
			) as Json[];
			sandbox.setFaults(storm.faults);

			const started = Date.now();
			const out = await runStorm(sandbox, courseId, storm.requestOptions ?? {});
			const elapsed = Date.now() - started;
			await waitIdle(sandbox);
			if (storm.settleMs) await new Promise((resolve) => setTimeout(resolve, storm.settleMs));
			const stats = sandbox.stats();
			sandbox.resetFaults();

			const { lost, duplicates, ruleCount } = checkState(
				sandbox,
				courseId,
				keepBefore,
				removeBefore,
				out,
			);
			const all = Object.values(out);
			const succeeded = all.reduce((sum, t) => sum + t.succeeded, 0);
			const failed = all.reduce((sum, t) => sum + t.failed, 0);
			const repeats = repeatedWrites(stats);
			recordCounts({
				suite: 'storms',
				scenario: storm.name,
				faults: faultTotal(stats),
				items: N * all.length,
				succeeded,
				failed,
				duplicates: duplicates.length,
				lost: lost.length,
				note: `${faultSummary(stats)}; ${stats.requests} requests in ${(elapsed / 1000).toFixed(1)} s; ${stats.duplicateWrites} idempotent repeats`,
			});

			expect(faultTotal(stats)).toBeGreaterThan(0);
			expect(lost).toEqual([]);
			expect(duplicates).toEqual([]);
			expect(ruleCount).toBeLessThanOrEqual(3);
			if (storm.allSucceed) {
				expect(
					Object.fromEntries(
						Object.entries(out).map(([name, t]) => [name, [...t.errors.values()]]),
					),
				).toEqual(Object.fromEntries(Object.keys(out).map((name) => [name, []])));
			}
			if (!storm.appliedThenLost) {
				// No answer was lost after a write was applied: no write reached the platform twice.
				expect(stats.duplicateWrites).toBe(0);
				expect(repeats).toEqual(
					// The rule list is saved again only when a save was refused before it applied
					// (a 5xx/HTML answer fails the batch instead); membership writes are one per item.
					Object.fromEntries(Object.entries(repeats).filter(([key]) => key.startsWith('rules:'))),
				);
			} else {
				// Repeats are the same request sent again after its answer was lost: provision of the
				// same user (updates nothing, no second e-mail), the same membership, attendance
				// answered 409 (kept as "already attending"), or a rule list already saved.
				for (const key of Object.keys(repeats))
					expect(key).toMatch(/^(provision|member|attend|rules):/);
			}
		});
	});
}
