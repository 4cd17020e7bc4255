/**
 * When n8n answers a delivery, by line (nodes/Knolyx/trigger/answer.ts): 'onReceived' where n8n
 * answers once it created the execution, 'responseNode' (the execution's first step answers)
 * elsewhere. What each order does to lost and repeated events: test/trigger/acknowledged.test.ts
 * (both lines, as hosted) and test/e2e/db-pause.e2e.test.mjs (a real n8n of each line).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { ObservableObject } from 'n8n-workflow';

import { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';
import {
	answerMode,
	answersAfterCreation,
	forgetLine,
	learnLine,
} from '../../nodes/Knolyx/trigger/answer';
import { acknowledge } from '../../nodes/Knolyx/trigger/delivery';

/** A context of n8n-core from a release after 2.8.1 (it has the method), and one of 1.x. */
const laterContext = { assertCredentialUsableByNode: () => undefined };
const olderContext = {};

afterEach(() => forgetLine());

describe('the n8n line, from the contexts n8n hands the node', () => {
	it('answers from the execution until a context of a line that answers after creating it is seen, then onReceived for good', () => {
		const webhook = new KnolyxTrigger().description.webhooks![0];
		expect(answerMode()).toBe('responseNode');
		expect(webhook.responseMode).toBe('responseNode');
		learnLine(olderContext);
		expect(webhook.responseMode).toBe('responseNode');
		learnLine(laterContext);
		expect(answerMode()).toBe('onReceived');
		expect(webhook.responseMode).toBe('onReceived');
		learnLine(olderContext);
		expect(webhook.responseMode).toBe('onReceived');
		// The body of an 'onReceived' answer is the webhook's own (an empty responseData), which
		// n8n reads just before it saves the delivery's static data (test/trigger/acknowledged.test.ts).
		expect(webhook.responseData).toBe('');
	});

	it('recognises the line by the method, not by its value', () => {
		expect(answersAfterCreation(laterContext)).toBe(true);
		expect(answersAfterCreation(olderContext)).toBe(false);
		expect(answersAfterCreation({ assertCredentialUsableByNode: true })).toBe(false);
	});
});

describe('the execution’s first step', () => {
	it.each([
		['a line that answers after creating the execution', laterContext],
		['a line that answers from the execution', olderContext],
	])(
		'on %s: sends the answer (n8n drops it where it answered already) and leaves the static data as read',
		async (_line, context) => {
			const NODE = 'node:Knolyx Trigger';
			const data = ObservableObject.create({ [NODE]: { seen: {} } }, undefined, {
				ignoreEmptyOnFirstChild: true,
			}) as IDataObject & { __dataChanged: boolean };
			const answers: unknown[] = [];
			const items: INodeExecutionData[] = [{ json: { event: 'COURSE_STARTED', eventId: 'm-1' } }];
			const ctx = {
				...context,
				getInputData: () => items,
				getNode: () => ({ id: 'node-1', name: 'Knolyx Trigger' }),
				getWorkflow: () => ({ id: 'wf' }),
				getMode: () => 'webhook',
				getNodeParameter: (_name: string, _i: number, fallback: unknown) => fallback,
				getWorkflowStaticData: () => data[NODE],
				sendResponse: async (response: unknown) => {
					answers.push(response);
				},
			} as unknown as IExecuteFunctions;
			expect(await acknowledge(ctx)).toEqual([items]);
			expect(answers).toHaveLength(1);
			expect(data.__dataChanged).toBe(false);
		},
	);
});
