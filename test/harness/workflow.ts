import type { IConnections, IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { MANUAL_TRIGGER_TYPE, SET_ITEMS_TYPE } from './node-types';

/** One node after the trigger (and Set Items), as the tests and benchmarks wire them. */
export interface WorkflowStep {
	name: string;
	type: string;
	/** Default 1. */
	typeVersion?: number;
	parameters: INodeParameters;
	/** The node's *On Error* setting. */
	onError?: INode['onError'];
	/** n8n's "Execute Once" node setting: run for the first input item only. */
	executeOnce?: boolean;
}

export interface ManualWorkflowOptions {
	/** What Set Items emits; without it the trigger feeds the steps directly. */
	items?: IDataObject[];
	/** Set Items' node name; default 'Items'. */
	itemsName?: string;
	steps: WorkflowStep[];
	/** 'line' (default): each step feeds the next. 'branches': the items feed every step side by side. */
	layout?: 'line' | 'branches';
}

export interface ManualWorkflow {
	nodes: INode[];
	connections: IConnections;
	/** The name of the last node (in a line, the one whose output is the workflow's). */
	last: string;
}

export const TRIGGER_NAME = 'Trigger';

/** A step as a saved node: id, position, and its On Error / Execute Once settings only when set. */
export function stepNode(step: WorkflowStep, id: string, position: [number, number]): INode {
	return {
		id,
		name: step.name,
		type: step.type,
		typeVersion: step.typeVersion ?? 1,
		position,
		parameters: step.parameters,
		...(step.onError ? { onError: step.onError } : {}),
		...(step.executeOnce ? { executeOnce: true } : {}),
	};
}

const main = (to: string[]) => ({
	main: [to.map((node) => ({ node, type: 'main' as const, index: 0 }))],
});

/**
 * Manual Trigger → Set Items (`items`) → the steps, in a line or as branches: the workflow
 * every in-process test and benchmark runs (with runWorkflow), as a user would wire it in n8n.
 */
export function manualWorkflow({
	items,
	itemsName = 'Items',
	steps,
	layout = 'line',
}: ManualWorkflowOptions): ManualWorkflow {
	const head: INode[] = [
		{
			id: 't',
			name: TRIGGER_NAME,
			type: MANUAL_TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	];
	if (items) {
		head.push({
			id: 'i',
			name: itemsName,
			type: SET_ITEMS_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: { items: JSON.stringify(items) },
		});
	}
	const x = head.length * 200;
	const branches = layout === 'branches';
	const nodes = [
		...head,
		...steps.map((step, index) =>
			stepNode(step, `s${index}`, branches ? [x, index * 150] : [x + index * 200, 0]),
		),
	];
	const connections: IConnections = {};
	for (let i = 0; i < head.length - 1; i++) connections[head[i].name] = main([head[i + 1].name]);
	const feeder = head[head.length - 1].name;
	if (branches) {
		connections[feeder] = main(steps.map((step) => step.name));
	} else {
		const line = [feeder, ...steps.map((step) => step.name)];
		for (let i = 0; i < line.length - 1; i++) connections[line[i]] = main([line[i + 1]]);
	}
	return { nodes, connections, last: nodes[nodes.length - 1].name };
}
