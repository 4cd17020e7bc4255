/**
 * What the tests of test/variants share: a sandbox whose variants each test plays (none before
 * each test), a receiver on 127.0.0.1 for the webhooks they create (the sandbox PINGs them), and
 * the demo's event and community workgroup.
 */
import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';
import { DEMO, type VariantName } from '../../sandbox';
import { triggerHosts } from '../harness';
import { startReceiver, type Receiver } from '../sandbox/helpers';
import { useSandbox } from '../action/setup';

/** The demo's workgroup that gives access to the community of its event. */
export const COMMUNITY_WG = 204;

export function useVariantSandbox() {
	const ctx = useSandbox();
	let receiver: Receiver | undefined;
	beforeAll(async () => {
		receiver = await startReceiver();
	});
	afterAll(async () => {
		await receiver?.close();
	});
	const play = (...names: VariantName[]) => ctx.sandbox.setVariants(names);
	beforeEach(() => play());
	const hosts = triggerHosts();
	return {
		ctx,
		play,
		/** A Knolyx Trigger (Course Started) on the sandbox, not yet activated. */
		startTrigger: async () =>
			await hosts.start({
				nodeType: new KnolyxTrigger(),
				type: 'n8n-nodes-knolyx.knolyxTrigger',
				parameters: { events: ['COURSE_STARTED'], options: {} },
				credentials: {
					knolyxApi: { baseUrl: ctx.sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.apiKey },
				},
				credentialTypes: [new KnolyxApi()],
			}),
		/** Where the webhooks the tests create point. */
		receiverUrl: () => {
			if (!receiver) throw new Error('the receiver starts in beforeAll');
			return receiver.url;
		},
		ada: () => ctx.demo.users['ada@example.com'],
		ref: () => ({ communityId: String(ctx.demo.communityId), eventId: String(ctx.demo.eventId) }),
		/** Event → Register of a new guest at the demo's event, through the community's workgroup. */
		registerGuest: () => ({
			resource: 'event',
			operation: 'register',
			email: 'guest@example.com',
			firstName: 'Guest',
			lastName: 'Speaker',
			workgroupId: { __rl: true, mode: 'id', value: String(COMMUNITY_WG) },
			communityId: String(ctx.demo.communityId),
			eventId: String(ctx.demo.eventId),
		}),
		attendees: () => [...(ctx.sandbox.state.attendance.get(ctx.demo.eventId)?.keys() ?? [])],
	};
}
