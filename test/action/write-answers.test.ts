/**
 * Issue 45, writes: a 2xx text is the platform's acknowledgement only when it is short (at most
 * 512 characters, docs/api.md); a longer one fails naming what came. And Send Welcome Email,
 * added but resolving to no value, is refused naming the field and the item, nothing sent.
 */
import type { INodeParameters } from 'n8n-workflow';

import { clearEdges, setEdge } from '../harness';
import { rl, run, useSandbox } from './setup';

const ctx = useSandbox();
beforeEach(async () => {
	await clearEdges(ctx.sandbox.url);
});

const NOTICE =
	`Scheduled maintenance. ${'The platform is being upgraded and some requests may not be processed until the work ends. '.repeat(14)}`.slice(
		0,
		1260,
	);

describe('a 2xx text answer to a write', () => {
	const attend = (): INodeParameters => ({
		resource: 'event',
		operation: 'attend',
		communityId: String(ctx.demo.communityId),
		eventId: String(ctx.demo.eventId),
		userId: String(ctx.demo.users['ada@example.com']),
	});
	const addMember = (): INodeParameters => ({
		resource: 'workgroup',
		operation: 'addMember',
		workgroupId: rl(204),
		email: 'alan@example.com',
	});

	it.each([
		['Event → Attend', attend, 'POST', '/attend/'],
		['Workgroup → Add Member', addMember, 'PUT', '/member/'],
	])(
		'%s answered 200 text/plain with a 1 260-character notice fails, naming what came',
		async (_operation, parameters, method, part) => {
			expect(NOTICE).toHaveLength(1260);
			const path =
				method === 'POST'
					? `/public/api/v1/community/${ctx.demo.communityId}/event/${ctx.demo.eventId}/attend/${ctx.demo.users['ada@example.com']}`
					: '/public/api/v1/workgroup/204/member/alan%40example.com/';
			expect(path).toContain(part);
			await setEdge(ctx.sandbox.url, {
				path,
				method,
				answer: { status: 200, contentType: 'text/plain', body: NOTICE },
			});
			const result = await run(ctx.sandbox, parameters(), [{}], { continueOnFail: true });
			expect(result.json).toHaveLength(1);
			expect(String(result.json[0].error)).toMatch(
				/answered (POST|PUT) \/.+ with 1260 characters of text, not an acknowledgement \[200\]/,
			);
		},
	);

	// Issue 55: a text confirms no write by itself, and Add Member is confirmed only by the answer
	// the contract names (its e-mail); so this plays Cancel Attendance, whose text answer the
	// event's attendee list confirms (Ada does not attend).
	it('a 512-character text is still the acknowledgement', async () => {
		await setEdge(ctx.sandbox.url, {
			path: `/public/api/v1/community/${ctx.demo.communityId}/event/${ctx.demo.eventId}/attend/${ctx.demo.users['ada@example.com']}`,
			method: 'DELETE',
			answer: { status: 200, contentType: 'text/plain', body: 'k'.repeat(512) },
		});
		const result = await run(ctx.sandbox, { ...attend(), operation: 'cancelAttendance' });
		expect(result.error).toBeUndefined();
		expect(String(result.json[0].answer)).toHaveLength(500);
	});
});

describe('Send Welcome Email added, resolving to no value', () => {
	const provision = (sendWelcomeEmail: string): INodeParameters => ({
		resource: 'user',
		operation: 'provision',
		email: 'import@example.com',
		firstName: 'Im',
		lastName: 'Port',
		options: { sendWelcomeEmail },
	});

	it.each([
		['an empty value', '={{ "" }}'],
		['null', '={{ null }}'],
		['a missing field', '={{ $json.sendWelcome }}'],
	])('%s is refused naming the field and the item; nothing is sent', async (_what, value) => {
		const result = await run(ctx.sandbox, provision(value), [{ email: 'x' }]);
		expect(result.error?.message).toBe(
			'Send Welcome Email: was added but has no value; set it to true or false, or remove the option to leave the e-mail to Knolyx (item 0)',
		);
		expect(ctx.sandbox.stats().requests).toBe(0);
		expect(ctx.sandbox.state.onboardingEmails).toEqual([]);
	});
});
