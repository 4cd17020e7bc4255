import type { INode, INodeListSearchResult, INodeParameters, INodeType } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { createAdditionalData } from './context';
import { HarnessCredentialsHelper, type HarnessCredentials } from './credentials-helper';
import { createNodeTypes } from './node-types';

export interface ListSearchCall {
	nodeType: INodeType;
	type: string;
	/** The node's parameters as typed in the editor; the editor sends them along with the search. */
	parameters: INodeParameters;
	credentials: HarnessCredentials;
	/** The name of the list-search method, and the parameter path it fills (e.g. `parameters.courseId`). */
	method: string;
	path: string;
	filter?: string;
}

/**
 * Calls a list-search method (the "From List" mode of a resource locator) as the editor does:
 * one node with the Knolyx API credential, in a workflow of its own.
 */
export async function callListSearch(call: ListSearchCall): Promise<INodeListSearchResult> {
	const node: INode = {
		id: 'n',
		name: call.nodeType.description.defaults.name ?? call.nodeType.description.displayName,
		type: call.type,
		typeVersion: 1,
		position: [0, 0],
		parameters: call.parameters,
		credentials: { knolyxApi: { id: 'test-knolyxApi', name: 'Test knolyxApi' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: createNodeTypes({ [call.type]: call.nodeType }),
	});
	const helper = new HarnessCredentialsHelper([new KnolyxApi()], call.credentials);
	const additionalData = createAdditionalData(helper, undefined, {
		currentNodeParameters: node.parameters,
	});
	const context = new LoadOptionsContext(workflow, node, additionalData, call.path);
	const search = call.nodeType.methods?.listSearch?.[call.method];
	if (!search) throw new Error(`${call.type} has no list-search method ${call.method}`);
	return await search.call(context, call.filter);
}
