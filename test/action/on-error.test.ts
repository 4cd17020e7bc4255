/**
 * The node's *On Error* setting, run by n8n-core's WorkflowExecute (which routes items to the
 * error output in handleNodeErrorOutput): "Continue (using error output)" sends exactly the failed
 * items there, each paired with its input; "Continue (regular output)" keeps the paired error
 * items on the one output; successful items are the same in both modes.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RunNodeOptions } from '../harness';
import { membership, rl, runWithOnError, useSandbox } from './setup';

const ctx = useSandbox();

async function runWith(
	onError: RunNodeOptions['onError'],
	parameters: INodeParameters,
	items: IDataObject[],
) {
	return await runWithOnError(ctx.sandbox, onError, parameters, items);
}

const paired = (items: INodeExecutionData[]) => items.map((item) => item.pairedItem);

// Ada (1001) has access to the community of event 401; Alan (1002) has none (403).
const ATTEND = {
	resource: 'event',
	operation: 'attend',
	communityId: '301',
	eventId: '={{ $json.event }}',
	userId: '={{ $json.user }}',
};
const ATTEND_ITEMS = [
	{ user: 1001, event: 401, label: 'ok' },
	{ user: 1002, event: 401, label: 'no access (403)' },
	{ user: 1001, event: 999, label: 'no such event (404)' },
	{ user: 'x', event: 401, label: 'bad input' },
];

describe('On Error: Continue (using error output)', () => {
	it('404, 403 and bad input go to the error output, paired and merged with their input; the success stays alone', async () => {
		const result = await runWith('continueErrorOutput', ATTEND, ATTEND_ITEMS);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([
			expect.objectContaining({
				communityId: 301,
				eventId: 401,
				userId: 1001,
				attending: true,
				alreadyAttending: false,
			}),
		]);
		expect(paired(result.items)).toEqual([{ item: 0 }]);
		expect(paired(result.errorItems)).toEqual([{ item: 1 }, { item: 2 }, { item: 3 }]);
		const [forbidden, notFound, badInput] = result.errorItems.map((item) => item.json);
		// n8n adds the fields of the input item; the node's own key is error: { message, description, httpCode }.
		expect(forbidden).toMatchObject({
			label: 'no access (403)',
			user: 1002,
			error: { httpCode: '403', message: expect.stringContaining('[403]') },
		});
		expect(notFound).toMatchObject({
			label: 'no such event (404)',
			error: { httpCode: '404', message: expect.stringContaining('event 999') },
		});
		expect(badInput).toMatchObject({
			label: 'bad input',
			user: 'x',
			error: { message: expect.stringMatching(/User ID: .* \(item 3\)/) },
		});
		expect(Object.keys(forbidden.error as object).sort()).toEqual([
			'description',
			'httpCode',
			'message',
		]);
		expect(ctx.sandbox.state.attendance.get(401)?.has(1001)).toBe(true);
		expect(ctx.sandbox.state.attendance.get(401)?.has(1002)).toBe(false);
	});

	it('a failed merged rule edit goes to the error output; the edit of the other course is saved', async () => {
		const result = await runWith(
			'continueErrorOutput',
			{
				resource: 'rule',
				operation: 'addWorkgroup',
				courseId: rl('={{ $json.course }}'),
				workgroupId: rl(201),
			},
			[{ course: 102 }, { course: 999 }, { course: 102 }],
		);
		expect(result.error).toBeUndefined();
		expect(paired(result.items)).toEqual([{ item: 0 }, { item: 2 }]);
		expect(paired(result.errorItems)).toEqual([{ item: 1 }]);
		expect(result.errorItems[0].json).toMatchObject({ course: 999, error: { httpCode: '404' } });
		expect(ctx.sandbox.state.rules.get(102)?.[0].associations).toEqual({ WORKGROUP: [201] });
	});

	it('with every item successful the error output is empty and the output is the regular one', async () => {
		const parameters = {
			resource: 'workgroup',
			operation: 'addMember',
			workgroupId: rl('={{ $json.wg }}'),
			email: 'ada@example.com',
		};
		const items = [{ wg: 201 }, { wg: 202 }];
		const errorMode = await runWith('continueErrorOutput', parameters, items);
		ctx.sandbox.reset('demo');
		const stopMode = await runWith(undefined, parameters, items);
		expect(errorMode.errorItems).toEqual([]);
		expect(errorMode.items).toEqual(stopMode.items);
		expect(membership(ctx.sandbox, 202, 'ada@example.com')).toBeDefined();
	});
});

describe('On Error: Continue (regular output)', () => {
	it('keeps every item on the one output in input order; failed items carry error, description and httpCode', async () => {
		const result = await runWith('continueRegularOutput', ATTEND, ATTEND_ITEMS);
		expect(result.error).toBeUndefined();
		expect(result.errorItems).toEqual([]);
		expect(paired(result.items)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		const [ok, forbidden, notFound, badInput] = result.items.map((item) => item.json);
		expect(ok).toMatchObject({ userId: 1001, attending: true });
		expect(Object.keys(forbidden).sort()).toEqual(['description', 'error', 'httpCode']);
		expect(forbidden).toMatchObject({
			httpCode: '403',
			description: expect.stringContaining('EVENT_MANAGE'),
		});
		expect(notFound).toMatchObject({
			httpCode: '404',
			error: expect.stringContaining('event 999'),
		});
		expect(badInput.error).toMatch(/User ID: .* \(item 3\)/);
	});
});
