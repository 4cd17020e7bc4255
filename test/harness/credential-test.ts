import type {
	ICredentialType,
	ICredentialsDecrypted,
	INode,
	INodeCredentialTestResult,
	INodeType,
	INodeTypes,
	IRunExecutionData,
} from 'n8n-workflow';
import { createRunExecutionData, NodeHelpers, Workflow } from 'n8n-workflow';
import { ExecuteContext, RoutingNode } from 'n8n-core';

import { createAdditionalData } from './context';
import { HarnessCredentialsHelper } from './credentials-helper';

interface TestError {
	message: string;
	cause?: { code?: string; response?: { status: number; statusText?: string } };
}

/**
 * Tests credential data against the type's declarative `test` request the way n8n's
 * CredentialsTester (packages/cli/src/services/credentials-tester.service.ts) does: the request
 * becomes the routing of a throw-away node's parameter and runs through n8n-core's RoutingNode,
 * so `$credentials` expressions resolve and the type's `authenticate` block is applied.
 * Failures map to `rules` messages, then the HTTP status text, then the network error code.
 */
export async function testCredential(
	credType: ICredentialType,
	data: Record<string, unknown>,
): Promise<INodeCredentialTestResult> {
	if (!credType.test)
		return { status: 'Error', message: 'No testing function found for this credential.' };
	const { request, rules } = credType.test;

	const helper = new HarnessCredentialsHelper([credType], { [credType.name]: data });
	const credentials: ICredentialsDecrypted = {
		id: 'test-credential',
		name: 'Test credential',
		type: credType.name,
		data: helper.withDefaults(credType.name, data),
	};
	const nodeType: INodeType = {
		description: {
			displayName: 'Credential test',
			name: 'n8n-nodes-base.noOp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [],
			outputs: [],
			credentials: [{ name: credType.name, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request } },
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => NodeHelpers.getVersionedNodeType(nodeType),
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: nodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credType.name]: { id: credentials.id, name: credentials.name } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const runExecutionData: IRunExecutionData = createRunExecutionData({ executionData: null });
	const context = new ExecuteContext(
		workflow,
		node,
		createAdditionalData(helper),
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);

	let response;
	try {
		response = await new RoutingNode(context, nodeType, credentials).runNode();
	} catch (caught) {
		const error = caught as TestError;
		const httpResponse = error.cause?.response;
		if (httpResponse) {
			for (const rule of rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === httpResponse.status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (httpResponse.status < 199 || httpResponse.status > 299) {
				return {
					status: 'Error',
					message: httpResponse.statusText || `Received HTTP status code: ${httpResponse.status}`,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}

	for (const rule of rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const body = response?.[0]?.[0]?.json as Record<string, unknown> | undefined;
		const value = rule.properties.key
			.split('.')
			.reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], body);
		if (value === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
