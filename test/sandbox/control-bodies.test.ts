/**
 * The poll control endpoints and the edge rules check their bodies with the one schema helper
 * (sandbox/validation.ts): a bad body is a 400 whose message names the field, and nothing in the
 * sandbox changes (its data, the armed read edits, the edge rules).
 */
import { controlClient, useSandbox } from './helpers';

describe('sandbox: poll control and edge bodies', () => {
	const sandbox = useSandbox();

	/** What a refused body must leave as it was. */
	const snapshot = async () => {
		const control = controlClient(sandbox());
		return JSON.stringify({
			state: sandbox().state.toJSON(),
			readEdits: (await control.get('/read-edits')).data,
			edges: (await control.get('/edges')).data,
		});
	};

	it.each([
		['/events/401/attendees', { colour: 'red' }, /^colour is not a setting here; use userId, /],
		['/events/401/attendees', { userId: 0 }, /^userId must be an integer >= 1$/],
		['/events/401/attendees', { email: 'ada' }, /^email must be an e-mail address$/],
		[
			'/events/401/attendees',
			{ userId: 1001, email: 'ada@example.com' },
			/^email cannot be given with userId: give at most one of userId, email, count$/,
		],
		[
			'/events/401/attendees',
			{ count: 2, lastName: 'Lovelace' },
			/^lastName is only taken when email is given$/,
		],
		['/events/401/attendees', { count: 100_001 }, /^count must be an integer from 1 to 100000$/],
		[
			'/communities/301/events',
			{ endDateTime: '2030-02-30 09:00:00' },
			/^endDateTime must be a date-time in format yyyy-MM-dd HH:mm:ss/,
		],
		['/communities/301/events', { title: '  ' }, /^title must be a non-empty text$/],
		['/courses', { description: '' }, /^description must be a non-empty text$/],
		['/courses', { image: 'no' }, /^image must be true or false$/],
		['/events/401/cancellations', { from: 'last' }, /^count must be an integer from 1 to /],
		[
			'/events/401/cancellations',
			{ count: 1, from: 'middle' },
			/^from must be one of "first", "last"$/,
		],
		[
			'/read-edits',
			{ list: 'courses', communityId: 301, id: 101, action: 'delete', beforePage: 1 },
			/^communityId is only taken when list is events$/,
		],
		[
			'/read-edits',
			{ list: 'attendees', id: 1001, action: 'delete', beforePage: 1 },
			/^eventId is required when list is attendees$/,
		],
		[
			'/read-edits',
			{ list: 'courses', id: 101, action: 'delete' },
			/^beforePage must be an integer >= 1$/,
		],
		[
			'/edges',
			{ path: '/x', answer: {}, colour: 'red' },
			/^colour is not a rule field here; use path, /,
		],
		['/edges', { answer: {} }, /^path must be a path that starts with \/ and holds no query/],
		['/edges', { path: '/x?y=1', answer: {} }, /^path must be a path that starts with \//],
		['/edges', { path: '/x', method: 'TRACE', answer: {} }, /^method must be one of "GET", /],
		['/edges', { path: '/x', redirect: {} }, /^redirect\.location must be an http\(s\) URL/],
		[
			'/edges',
			{ path: '/x', redirect: { location: '/y\r\nSet-Cookie: a=b' } },
			/^redirect\.location must be an http\(s\) URL/,
		],
		[
			'/edges',
			{ path: '/x', answer: { contentDisposition: 'a\nb' } },
			/^answer\.contentDisposition must be one line of text of at most 4000 characters$/,
		],
		[
			'/edges',
			{ path: '/x', answer: { body: 'x', png: true } },
			/^answer\.png cannot be given with answer\.body: give at most one of answer\.body, answer\.png$/,
		],
		[
			'/edges',
			{ path: '/x', stream: { totalBytes: 0 } },
			/^stream\.totalBytes must be an integer >= 1$/,
		],
		[
			'/edges',
			{ path: '/x', redirect: { location: '/y' }, stream: {} },
			/^stream cannot be given with redirect: give exactly one of redirect, answer, stream$/,
		],
	] as const)(
		'POST %s %j answers 400 naming the field and changes nothing',
		async (path, body, message) => {
			const before = await snapshot();
			const res = await controlClient(sandbox()).post(path, body);
			expect([res.status, res.data.message]).toEqual([400, expect.stringMatching(message)]);
			expect(await snapshot()).toBe(before);
		},
	);

	it('a body that is not JSON is refused, not read as "no fields"', async () => {
		const before = await snapshot();
		for (const path of ['/events/401/attendees', '/courses', '/read-edits', '/edges']) {
			const res = await controlClient(sandbox()).post(path, 'count=5', {
				headers: { 'Content-Type': 'text/plain' },
			});
			expect({ path, status: res.status }).toEqual({ path, status: 400 });
		}
		expect(await snapshot()).toBe(before);
	});

	it('takes what it took before: a lower-case method, png: false beside a body, e-mail with spaces', async () => {
		const control = controlClient(sandbox());
		const rule = await control.post('/edges', {
			path: '/x',
			method: 'get',
			answer: { body: 'hi', png: false },
		});
		expect([rule.status, rule.data.rule]).toEqual([
			201,
			{
				id: 1,
				path: '/x',
				method: 'GET',
				answer: {
					status: 200,
					contentType: 'application/json',
					trickleMs: 0,
					body: 'hi',
					png: false,
				},
			},
		]);
		const stream = await control.post('/edges', { path: '/y', stream: { contentType: null } });
		expect(stream.data.rule.stream).toEqual({
			status: 200,
			contentType: null,
			png: false,
			chunkBytes: 65_536,
			everyMs: 0,
		});
		const ada = await control.post('/events/401/attendees', {
			email: ' grace@example.com ',
			firstName: ' Grace ',
		});
		expect([ada.status, ada.data.attendees[0].email, ada.data.attendees[0].name]).toEqual([
			201,
			'grace@example.com',
			'Grace Attendee',
		]);
	});
});
