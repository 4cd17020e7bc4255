import type { KnolyxResource } from './common';
import { apiKey } from './apiKey/ApiKey.resource';
import { course } from './course/Course.resource';
import { event } from './event/Event.resource';
import { rule } from './rule/Rule.resource';
import { user } from './user/User.resource';
import { webhook } from './webhook/Webhook.resource';
import { workgroup } from './workgroup/Workgroup.resource';

/** Every resource of the Knolyx node, in the order their fields are listed in the node. */
export const resources: Record<string, KnolyxResource> = {
	course,
	rule,
	event,
	user,
	webhook,
	workgroup,
	apiKey,
};
