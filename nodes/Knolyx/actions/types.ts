import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { KnolyxClient } from '../transport';
import type { AgentDeclaration } from './effects';

/** What an operation gets besides its own parameters. */
export interface OperationRuntime {
	client: KnolyxClient;
	itemIndex: number;
}

/** The output item of an operation that outputs a file (`outputsFile`). */
export interface FileResult {
	json: IDataObject;
	binary: IBinaryKeyData;
}

/** An operation's entry in its resource's Operation list; the value is its key in the resource. */
export interface OperationOption {
	name: string;
	/** Names every permission the operation needs ("Needs X."). */
	description: string;
	action: string;
}

/**
 * The operation's row in the README's Operations table (`npm run docs:tables` writes it; the
 * Permission column comes from the option's "Needs …").
 */
export type OperationTableRow =
	/** What the operation does, in the table's words (Markdown). */
	| { does: string }
	/** The operation shares the row of another of its resource (its value): "Get Many / Get / Delete". */
	| { sameRowAs: string };

/**
 * One operation of the Knolyx node, in one file: `actions/<resource>/<operation>.operation.ts`.
 * `prepare` reads and checks the item's parameters and sends nothing, so bad
 * input of any item is reported before any request of the run; `execute`
 * does the requests.
 */
export interface KnolyxOperation<P = IDataObject> {
	option: OperationOption;
	/** The operation's fields, shown for it alone (`updateDisplayOptions`). */
	description: INodeProperties[];
	/**
	 * What the operation can do (actions/effects.ts): the one declaration the consent an AI
	 * agent needs, the tool's switches and the README's AI agents table come from.
	 */
	agent: AgentDeclaration;
	readme: OperationTableRow;
	prepare(this: IExecuteFunctions, itemIndex: number): P;
	execute(
		this: IExecuteFunctions,
		params: P,
		runtime: OperationRuntime,
	): Promise<IDataObject | IDataObject[] | FileResult>;
	/**
	 * The operation's requests are merged across items (rule edits): start every
	 * item at once instead of through the item pool. Such an operation keeps its shared state
	 * itself, per run (keyed by the run's client).
	 */
	mergesItems?: boolean;
	/**
	 * Whether the item only reads (a rule write's Preview). When every item of a run does, an AI
	 * agent needs no consent: the run has the effect "reads only".
	 */
	readsOnly?(this: IExecuteFunctions, itemIndex: number): boolean;
	/** `execute` returns one item with binary data (a FileResult) instead of JSON. */
	outputsFile?: boolean;
}
