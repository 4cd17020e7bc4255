/** What several Knolyx Trigger test files share. */
import type { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';

/**
 * The event types Knolyx delivers to a webhook besides PING (docs/api.md, Webhook deliveries),
 * written out here, not imported from the node, so that a type the node drops shows in the tests.
 */
export const STUDENT_EVENTS = [
	'COURSE_STARTED',
	'COURSE_COMPLETED',
	'COURSE_PAYMENT_RECEIVED',
	'BUNDLE_PAYMENT_RECEIVED',
];

/**
 * A Knolyx Trigger of another process: its module loaded afresh, so nothing of this process's
 * memory (recent ids, locks) is shared with the nodes the test made before. Only the package's
 * own modules are loaded again: n8n-workflow (the one library they import, which holds none of
 * that memory) stays the one the harness uses, as n8n's own copy would be; loading it afresh
 * each time cost about a second.
 */
export async function triggerOfNewProcess(): Promise<KnolyxTrigger> {
	const workflow = jest.requireActual<object>('n8n-workflow');
	let Fresh: typeof KnolyxTrigger | undefined;
	await jest.isolateModulesAsync(async () => {
		jest.doMock('n8n-workflow', () => workflow);
		try {
			({ KnolyxTrigger: Fresh } = await import('../../nodes/Knolyx/KnolyxTrigger.node'));
		} finally {
			jest.dontMock('n8n-workflow');
		}
	});
	return new Fresh!();
}
