/**
 * The Event picker of the Knolyx node (issue 23): the Poll Trigger's picker, in every event
 * operation. The list is read over real HTTP from the sandbox as the editor reads it; the
 * operations run in a real workflow, with a picked event and with the plain ID string that
 * workflows saved before the picker hold.
 */
import type { INodeListSearchResult, INodeParameters, INodeProperties } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { KnolyxPollTrigger } from '../../nodes/Knolyx/KnolyxPollTrigger.node';
import { demoKeyWithout } from '../../sandbox/seed';
import { createNodeTypes, manualWorkflow, runWorkflow } from '../harness';
import { credentialsFor, listSearch, NODE_TYPE, rl, rlList, run, runOk, useSandbox } from './setup';

const ctx = useSandbox();

const EVENT_OPERATIONS = ['register', 'attend', 'cancelAttendance', 'get', 'getAttendees'];

/** The Event list of the Knolyx node, as the editor asks for it, with the node's parameters as typed. */
async function searchEvents(
	typed: INodeParameters,
	filter?: string,
	apiKey?: string,
): Promise<INodeListSearchResult> {
	const parameters = { resource: 'event', operation: 'attend', ...typed };
	return await listSearch(
		ctx.sandbox,
		'searchCommunityEvents',
		filter,
		apiKey ? { apiKey } : {},
		parameters,
	);
}

const EVENTS_ROUTE = 'GET /public/api/v1/community/{id}/event/paged';

/** Two more events in the demo community and one in another community. */
function seedEvents() {
	const { communities } = ctx.sandbox.seed({ communities: [{ name: 'Other Community' }] });
	const { events } = ctx.sandbox.seed({
		events: [
			{
				communityId: ctx.demo.communityId,
				title: 'Autumn Workshop',
				startDateTime: '2031-10-01 09:00:00',
			},
			{
				communityId: ctx.demo.communityId,
				title: 'Spring Workshop',
				startDateTime: '2031-04-01 09:00:00',
			},
			{
				communityId: communities[0],
				title: 'Elsewhere Meetup',
				startDateTime: '2031-05-01 09:00:00',
			},
		],
	});
	return {
		autumn: events[0],
		spring: events[1],
		elsewhere: events[2],
		otherCommunity: communities[0],
	};
}

const attendees = (eventId: number) => [
	...(ctx.sandbox.state.attendance.get(eventId)?.keys() ?? []),
];
const ada = () => ctx.demo.users['ada@example.com'];

describe('the Event field of the Knolyx node', () => {
	it("is the Poll Trigger's picker (From List / By ID, same list method) in every event operation; Community ID stays a typed ID", () => {
		const properties = new Knolyx().description.properties;
		const pollEvent = new KnolyxPollTrigger().description.properties.find(
			(p) => p.name === 'eventId',
		) as INodeProperties;
		const shape = (p: INodeProperties) => ({
			type: p.type,
			default: p.default,
			required: p.required,
			modes: p.modes,
		});
		for (const operation of EVENT_OPERATIONS) {
			const shown = (p: INodeProperties) =>
				p.displayOptions?.show?.resource?.includes('event') &&
				p.displayOptions?.show?.operation?.includes(operation);
			const event = properties.find((p) => p.name === 'eventId' && shown(p));
			expect({ operation, ...shape(event as INodeProperties) }).toEqual({
				operation,
				...shape(pollEvent),
			});
			expect(event?.modes?.map((m) => m.name)).toEqual(['list', 'id']);
			const community = properties.find((p) => p.name === 'communityId' && shown(p));
			expect(community?.type).toBe('string');
		}
		expect(Object.keys(new Knolyx().methods.listSearch)).toContain('searchCommunityEvents');
	});
});

describe('the Event picker lists the events of the community typed in Community ID', () => {
	it("lists them newest start first, named with their start, and only that community's", async () => {
		const { autumn, spring, elsewhere } = seedEvents();
		const { results } = await searchEvents({ communityId: String(ctx.demo.communityId) });
		expect(results.slice(0, 2)).toEqual([
			{ name: 'Autumn Workshop (2031-10-01 09:00:00)', value: String(autumn) },
			{ name: 'Spring Workshop (2031-04-01 09:00:00)', value: String(spring) },
		]);
		expect(results.map((r) => r.value)).toContain(String(ctx.demo.eventId));
		expect(results.map((r) => r.value)).not.toContain(String(elsewhere));
	});

	it('filters by the text typed (any case), or by the ID typed', async () => {
		const { autumn } = seedEvents();
		const community = { communityId: String(ctx.demo.communityId) };
		const workshops = await searchEvents(community, 'WORKSHOP');
		expect(workshops.results.map((r) => r.name.replace(/ \(.*\)$/, ''))).toEqual([
			'Autumn Workshop',
			'Spring Workshop',
		]);
		expect((await searchEvents(community, 'autumn')).results).toEqual([
			{ name: 'Autumn Workshop (2031-10-01 09:00:00)', value: String(autumn) },
		]);
		expect((await searchEvents(community, ` ${autumn} `)).results.map((r) => r.value)).toEqual([
			String(autumn),
		]);
		expect((await searchEvents(community, 'no such event')).results).toEqual([]);
	});

	it('reads every page of a long list', async () => {
		ctx.sandbox.seed({ generate: { events: 130 } });
		const { results } = await searchEvents(
			{ communityId: String(ctx.demo.communityId) },
			'Generated Event',
		);
		expect(results).toHaveLength(130);
	});

	it('says what is missing: no Community ID, an expression, or a key without EVENT_READ', async () => {
		await expect(searchEvents({ communityId: '' })).rejects.toThrow(
			'Community ID: enter the numeric ID of the community first',
		);
		await expect(searchEvents({ communityId: '={{ $json.communityId }}' })).rejects.toThrow(
			'Community ID: the event list needs a fixed community ID, not an expression',
		);
		expect(ctx.sandbox.stats().byRoute[EVENTS_ROUTE]).toBeUndefined();
		await expect(
			searchEvents({ communityId: String(ctx.demo.communityId) }, '', demoKeyWithout('EVENT_READ')),
		).rejects.toThrow('EVENT_READ');
	});
});

describe('event operations with a picked event', () => {
	it('Attend marks the user on the event picked From List', async () => {
		const { spring } = seedEvents();
		const { results } = await searchEvents({ communityId: String(ctx.demo.communityId) }, 'spring');
		const [out] = await runOk(ctx.sandbox, {
			resource: 'event',
			operation: 'attend',
			communityId: String(ctx.demo.communityId),
			eventId: rlList(String(results[0].value)),
			userId: String(ada()),
		});
		expect(out).toMatchObject({ eventId: spring, userId: ada(), attending: true });
		expect(attendees(spring)).toEqual([ada()]);
		expect(attendees(ctx.demo.eventId)).toEqual([]);
	});

	it('Get reads the event given By ID', async () => {
		const { autumn } = seedEvents();
		const [out] = await runOk(ctx.sandbox, {
			resource: 'event',
			operation: 'get',
			communityId: String(ctx.demo.communityId),
			eventId: rl(` ${autumn} `),
		});
		expect(out).toMatchObject({ id: autumn, title: 'Autumn Workshop' });
	});

	it('an ID from an expression that is not an ID fails naming the field and the item, and sends nothing', async () => {
		const result = await run(
			ctx.sandbox,
			{
				resource: 'event',
				operation: 'get',
				communityId: String(ctx.demo.communityId),
				eventId: rl('={{ $json.event }}'),
			},
			[{ event: 401 }, { event: 'autumn' }],
		);
		expect(result.error?.message).toBe('Event: "autumn" is not a numeric ID (item 1)');
		expect(ctx.sandbox.stats().byRoute).toEqual({});
	});
});

describe('workflows saved before the Event picker (a plain ID string in eventId)', () => {
	// The saved node as n8n stores it: eventId is a string, not a { __rl, mode, value } object.
	const saved = (operation: string, eventId: string): INodeParameters => ({
		resource: 'event',
		operation,
		communityId: String(ctx.demo.communityId),
		eventId,
		userId: String(ada()),
	});

	it('run as before: Attend, Get and Cancel Attendance with a plain ID and with an expression', async () => {
		const { autumn } = seedEvents();
		const result = await runWorkflow({
			...manualWorkflow({
				items: [{ event: autumn }],
				steps: [
					{ name: 'Attend', type: NODE_TYPE, parameters: saved('attend', String(autumn)) },
					{ name: 'Get', type: NODE_TYPE, parameters: saved('get', '={{ $json.eventId }}') },
					{
						name: 'Cancel',
						type: NODE_TYPE,
						parameters: saved('cancelAttendance', '={{ $json.id }}'),
					},
				],
			}),
			nodeTypes: createNodeTypes({ [NODE_TYPE]: new Knolyx() }),
			credentials: { knolyxApi: { ...credentialsFor(ctx.sandbox) } },
			credentialTypes: [new KnolyxApi()],
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Attend').map((i) => i.json)).toEqual([
			expect.objectContaining({ eventId: autumn, attending: true }),
		]);
		expect(result.output('Get').map((i) => i.json)).toEqual([
			expect.objectContaining({ id: autumn, title: 'Autumn Workshop' }),
		]);
		expect(result.output('Cancel').map((i) => i.json)).toEqual([
			expect.objectContaining({ eventId: autumn, attending: false }),
		]);
		expect(attendees(autumn)).toEqual([]);
	});

	it('a plain string that is not an ID still fails naming the field, and sends nothing', async () => {
		const result = await run(ctx.sandbox, saved('attend', 'abc'));
		expect(result.error?.message).toBe('Event: "abc" is not a numeric ID (item 0)');
		expect(ctx.sandbox.stats().byRoute).toEqual({});
	});
});
