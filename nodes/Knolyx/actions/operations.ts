import type { KnolyxResource } from './common';
import type { KnolyxOperation } from './types';
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

/**
 * An operation of the node by the names a parameter, an imported workflow or an AI agent gives,
 * looked up by own property only: a name every object inherits (`constructor`, `__proto__`,
 * `toString`, …) is no resource and no operation. Either the operation, or why there is none,
 * in the node's words (the description lists what there is).
 */
export function operationNamed(
	resourceName: string,
	operationName: string,
):
	| { resource: KnolyxResource; operation: KnolyxOperation<unknown> }
	| { problem: string; description: string } {
	const problem = unknownResource(resourceName);
	if (problem) return problem;
	const resource = resources[resourceName];
	if (!Object.hasOwn(resource.operations, operationName)) {
		return {
			problem: `The operation "${operationName}" of "${resourceName}" is not supported`,
			description: `"${operationName}" is none of the operations of "${resourceName}": ${Object.keys(resource.operations).join(', ')}.`,
		};
	}
	return { resource, operation: resource.operations[operationName] };
}

/** Why a resource name is none of the node's (by own property only), or undefined when it is one. */
export function unknownResource(
	resourceName: string,
): { problem: string; description: string } | undefined {
	if (Object.hasOwn(resources, resourceName)) return undefined;
	return {
		problem: `The resource "${resourceName}" is not supported`,
		description: `"${resourceName}" is none of the resources: ${Object.keys(resources).join(', ')}.`,
	};
}
