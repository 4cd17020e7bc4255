import { courseOperations } from './course/Course.resource';
import { eventOperations } from './event/Event.resource';
import { ruleOperations } from './rule/Rule.resource';
import type { KnolyxOperation } from './types';
import { userOperations } from './user/User.resource';
import { webhookOperations } from './webhook/Webhook.resource';
import { workgroupOperations } from './workgroup/Workgroup.resource';

/** resource → operation → implementation; the router dispatches through this table. */
export const operations: Record<string, Record<string, KnolyxOperation<unknown>>> = {
	course: courseOperations,
	event: eventOperations,
	rule: ruleOperations,
	user: userOperations,
	webhook: webhookOperations,
	workgroup: workgroupOperations,
};
