/** What the lifecycle and the receiver both need to know about the running node. */
import type { IExecuteFunctions, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RegistrationKind } from './registrations';

const WEBHOOK_NAME = 'default';

/** Workflow and node: the scope of process-local state (pending registrations, recent ids). */
export function scopeOf(ctx: IHookFunctions | IWebhookFunctions | IExecuteFunctions): string {
	const node = ctx.getNode();
	return `${ctx.getWorkflow().id ?? ''}|${node.id ?? node.name}`;
}

/**
 * Test or production. n8n runs the test listener's checkExists/create with
 * mode 'manual' and delivers test calls in mode 'manual' (their executions too); activation uses
 * 'trigger' (or 'init'-time variants) and production calls and executions 'webhook'.
 */
export function kindOf(
	ctx: IHookFunctions | IWebhookFunctions | IExecuteFunctions,
): RegistrationKind {
	return ctx.getMode() === 'manual' ? 'test' : 'production';
}

/** n8n's URL for this node in the current mode (test or production) during setup. */
export function hookWebhookUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl(WEBHOOK_NAME);
	if (!url) {
		throw new NodeOperationError(ctx.getNode(), 'n8n did not provide a webhook URL for this node', {
			description: 'Save the workflow and try again.',
		});
	}
	return url;
}

/**
 * The URL a delivery came to, when this n8n version can say (getWebhookResourceUrl
 * knows test from production); undefined on older versions.
 */
export function deliveryWebhookUrl(ctx: IWebhookFunctions): string | undefined {
	const resourceUrl = (ctx as Partial<Pick<IWebhookFunctions, 'getWebhookResourceUrl'>>)
		.getWebhookResourceUrl;
	if (typeof resourceUrl !== 'function') return undefined;
	try {
		return resourceUrl.call(ctx, WEBHOOK_NAME) ?? undefined;
	} catch {
		return undefined;
	}
}

/** Recognisable on the platform's webhook list: workflow, node, test or not, and a reference. */
export function registrationName(
	ctx: IHookFunctions,
	kind: RegistrationKind,
	reference: string,
): string {
	const clip = (text: string, max: number) =>
		text.length > max ? `${text.slice(0, max - 1)}…` : text;
	const workflowName = clip(ctx.getWorkflow().name ?? 'Workflow', 80);
	const nodeName = clip(ctx.getNode().name, 60);
	return `n8n: ${workflowName} / ${nodeName}${kind === 'test' ? ' (test)' : ''} #${reference}`;
}
