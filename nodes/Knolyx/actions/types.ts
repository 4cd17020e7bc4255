import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { KnolyxClient } from '../transport';
import type { RuleEditor } from './rule/editor';

/** What an operation gets besides its own parameters. */
export interface OperationRuntime {
	client: KnolyxClient;
	rules: RuleEditor;
	itemIndex: number;
}

/**
 * One operation of the Knolyx node, in one file.
 * `prepare` reads and checks the item's parameters and sends nothing, so bad
 * input of any item is reported before any request of the run; `execute`
 * does the requests.
 */
export interface KnolyxOperation<P = IDataObject> {
	description: INodeProperties[];
	prepare(this: IExecuteFunctions, itemIndex: number): P;
	execute(this: IExecuteFunctions, params: P, runtime: OperationRuntime): Promise<IDataObject | IDataObject[]>;
	/**
	 * The operation's requests are merged across items (rule edits): start every
	 * item at once instead of through the item pool.
	 */
	mergesItems?: boolean;
}
