/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from './credentials-helper';

// n8n-core's InstanceSettings (read by every node execution context) creates `<N8N_USER_FOLDER>/.n8n`
// with a config file on first use; keep that out of the developer's home directory.
// Quiet n8n's own logger unless asked otherwise (N8N_LOG_LEVEL=debug to see it).
// The folder is removed when the test file ends (jest), or else when the process exits (bench).
process.env.N8N_LOG_LEVEL ??= 'silent';
if (process.env.N8N_USER_FOLDER === undefined) {
	const folder = mkdtempSync(join(tmpdir(), 'n8n-harness-'));
	process.env.N8N_USER_FOLDER = folder;
	const remove = () => rmSync(folder, { recursive: true, force: true });
	if (typeof afterAll === 'function') afterAll(remove);
	else process.once('exit', remove);
}

const unsupported = (what: string) => async () => {
	throw new UnexpectedError(`${what} is not supported by the test harness`);
};

/** The additionalData n8n's CLI would build (workflow-execute-additional-data.ts), minus DB and queue. */
export function createAdditionalData(
	credentialsHelper: HarnessCredentialsHelper,
	baseUrl = 'http://127.0.0.1:5678',
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		executeWorkflow: unsupported('Executing sub-workflows'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unsupported('Task runners'),
		logAiEvent: () => {},
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: `${baseUrl}/rest`,
		instanceBaseUrl: `${baseUrl}/`,
		formBaseUrl: `${baseUrl}/form`,
		formWaitingBaseUrl: `${baseUrl}/form-waiting`,
		formTestBaseUrl: `${baseUrl}/form-test`,
		webhookBaseUrl: `${baseUrl}/webhook`,
		webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test`,
		mcpBaseUrl: `${baseUrl}/mcp`,
		mcpTestBaseUrl: `${baseUrl}/mcp-test`,
		...extra,
	} as IWorkflowExecuteAdditionalData;
}
