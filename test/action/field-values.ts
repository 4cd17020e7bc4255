/**
 * A valid value for every field of the Knolyx node, against the demo seed (test/action/setup.ts):
 * given all of them, each operation reads what it needs and runs through.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { DemoIds, Sandbox } from './setup';
import { changeFor, rl } from './setup';

/** `sandbox`: where the Change of Restore is made (its tenant). */
export function fieldValues(demo: DemoIds, sandbox: Pick<Sandbox, 'url'>): INodeParameters {
	const course = Object.values(demo.courses)[0];
	const communityWorkgroup = demo.workgroups['Community Members'];
	return {
		courseId: rl(course),
		workgroupId: rl(communityWorkgroup),
		email: 'grace@example.com',
		firstName: 'Grace',
		lastName: 'Hopper',
		gender: '',
		removalDate: '',
		communityId: String(demo.communityId),
		eventId: String(demo.eventId),
		userId: String(Object.values(demo.users)[0]),
		returnAll: false,
		limit: 5,
		binaryPropertyName: 'data',
		ruleName: '',
		type: 'unchanged',
		startDateTime: '',
		endDateTime: '',
		workgroupIds: '',
		rules: JSON.stringify([{ name: 'ONLY_RULE', type: 'PRIVATE' }]),
		change: changeFor(sandbox, {
			courseId: course,
			operation: 'replaceAll',
			before: [],
			after: [],
		}),
		options: {},
		webhookId: '1',
		name: 'Code map check',
		url: 'https://example.com/knolyx-events',
		securityToken: 'a-token-of-the-test',
	};
}
