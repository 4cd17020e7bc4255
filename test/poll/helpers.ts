/** Poll Trigger tests: the node hosted as n8n hosts a poll trigger, the sandbox over real HTTP. */
import axios, { type AxiosInstance } from 'axios';
import type { IDataObject, INode, INodeListSearchResult, INodeParameters } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { KnolyxPollTrigger } from '../../nodes/Knolyx/KnolyxPollTrigger.node';
import { DEMO, startSandbox, type Sandbox } from '../../sandbox';
import type { ReadEdit } from '../../sandbox/poll-edits';
import { callListSearch, createNodeTypes, runWorkflow } from '../harness';
import { startPollHost, type PollHost } from '../harness/poll-host';

export const TYPE = 'n8n-nodes-knolyx.knolyxPollTrigger';

export const credentialsFor = (sandbox: Sandbox, apiKey: string = DEMO.apiKey) => ({
	knolyxApi: { baseUrl: sandbox.url, projectId: DEMO.projectId, apiKey },
});

export function host(
	sandbox: Sandbox,
	parameters: INodeParameters,
	savedStaticData?: IDataObject,
	apiKey?: string,
): PollHost {
	return startPollHost({
		nodeType: new KnolyxPollTrigger(),
		type: TYPE,
		parameters,
		credentials: credentialsFor(sandbox, apiKey),
		credentialTypes: [new KnolyxApi()],
		savedStaticData,
	});
}

export const attendeesOfEvent = (
	communityId: number,
	eventId: number | string,
): INodeParameters => ({
	event: 'newAttendee',
	attendeesOf: 'event',
	communityId: String(communityId),
	eventId: { __rl: true, mode: 'list', value: String(eventId) },
});

/** The /sandbox control endpoints that play people using the platform's own pages. */
export class PlatformActivity {
	private readonly http: AxiosInstance;

	constructor(sandbox: Sandbox) {
		this.http = axios.create({ baseURL: `${sandbox.url}/sandbox`, validateStatus: () => true });
	}

	private async send<T>(method: 'post' | 'delete', path: string, body?: unknown): Promise<T> {
		const res = await this.http.request({ method, url: path, data: body });
		if (res.status >= 300)
			throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.data)}`);
		return res.data as T;
	}

	/** Registers people for an event: `count` new people, or one by e-mail or user ID. */
	async register(
		eventId: number,
		who: { count?: number; email?: string; userId?: number } = {},
	): Promise<IDataObject[]> {
		return (
			await this.send<{ attendees: IDataObject[] }>('post', `/events/${eventId}/attendees`, who)
		).attendees;
	}

	async cancel(eventId: number, userId: number): Promise<void> {
		await this.send('delete', `/events/${eventId}/attendees/${userId}`);
	}

	async publishEvent(
		communityId: number,
		body: { title?: string; count?: number } = {},
	): Promise<IDataObject[]> {
		return (
			await this.send<{ events: IDataObject[] }>('post', `/communities/${communityId}/events`, body)
		).events;
	}

	async addCourse(body: { title?: string; count?: number } = {}): Promise<IDataObject[]> {
		return (await this.send<{ courses: IDataObject[] }>('post', '/courses', body)).courses;
	}

	/** Cancels `count` registrations at once: the first ones the event lists, or the last ones. */
	async cancelMany(
		eventId: number,
		count: number,
		from: 'first' | 'last' = 'first',
	): Promise<void> {
		await this.send('post', `/events/${eventId}/cancellations`, { count, from });
	}

	/** Arms an edit made while a list is read: just before its page `beforePage` is served (sandbox/poll-edits.ts). */
	async duringRead(edit: ReadEdit): Promise<void> {
		await this.send('post', '/read-edits', edit);
	}

	/** The edits armed and not yet made: [] once every read reached the page its edit waited for. */
	async pendingEdits(): Promise<unknown[]> {
		const res = await this.http.get('/read-edits');
		return (res.data as { pending: unknown[] }).pending;
	}
}

export interface DemoPlatform {
	sandbox: Sandbox;
	platform: PlatformActivity;
	communityId: number;
	eventId: number;
}

/** A sandbox with the demo seed for each test of the file (closed after it); read it during a test. */
export function useDemoPlatform(): DemoPlatform {
	let demo: DemoPlatform | undefined;
	beforeEach(async () => {
		const sandbox = await startSandbox({ port: 0, seed: 'demo' });
		demo = {
			sandbox,
			platform: new PlatformActivity(sandbox),
			communityId: sandbox.demo!.communityId,
			eventId: sandbox.demo!.eventId,
		};
	});
	afterEach(async () => {
		await demo?.sandbox.close();
	});
	const current = (): DemoPlatform => {
		if (!demo) throw new Error('the demo platform is there during a test only');
		return demo;
	};
	return {
		get sandbox() {
			return current().sandbox;
		},
		get platform() {
			return current().platform;
		},
		get communityId() {
			return current().communityId;
		},
		get eventId() {
			return current().eventId;
		},
	};
}

/** The IDs of entries, in order. */
export const ids = (items: IDataObject[]) => items.map((item) => item.id);

/** The JSON of the items of every execution, oldest first. */
export const executionsJson = (h: PollHost) =>
	h.executions().map((items) => items.map((item) => item.json));

/** Runs a workflow made of the Poll Trigger alone, manually, as "Fetch Test Event" in the editor does. */
export async function runManually(sandbox: Sandbox, parameters: INodeParameters) {
	const node: INode = {
		id: 'p',
		name: 'Knolyx Poll Trigger',
		type: TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const result = await runWorkflow({
		nodes: [node],
		connections: {},
		nodeTypes: createNodeTypes({ [TYPE]: new KnolyxPollTrigger() }),
		credentials: credentialsFor(sandbox),
		credentialTypes: [new KnolyxApi()],
	});
	return { items: result.output(node.name).map((item) => item.json), error: result.error };
}

/** The Event picker, called as the editor calls it, with the Community ID typed in the node. */
export async function searchEvents(
	sandbox: Sandbox,
	communityId: string,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await callListSearch({
		nodeType: new KnolyxPollTrigger(),
		type: TYPE,
		parameters: { event: 'newAttendee', attendeesOf: 'event', communityId },
		credentials: credentialsFor(sandbox),
		method: 'searchCommunityEvents',
		path: 'parameters.eventId',
		filter,
	});
}

/** Requests the sandbox answered on one route since its stats were last reset. */
export const requestsTo = (sandbox: Sandbox, route: string) => sandbox.stats().byRoute[route] ?? 0;
export const ATTENDEES_ROUTE = 'GET /public/api/v1/community/{id}/event/{id}/attendees/paged';
export const EVENTS_ROUTE = 'GET /public/api/v1/community/{id}/event/paged';
