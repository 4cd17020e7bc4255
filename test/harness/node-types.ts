import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	ITriggerFunctions,
	ITriggerResponse,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers, UnexpectedError } from 'n8n-workflow';

export const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';
export const SET_ITEMS_TYPE = 'test.setItems';

/** Minimal equivalent of n8n's Manual Trigger: a trigger emitting one empty item when run manually. */
class ManualTrigger implements INodeType {
	description: INodeType['description'] = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Runs the workflow on clicking a button in n8n',
		defaults: { name: 'When clicking "Execute workflow"' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return { manualTriggerFunction: async () => this.emit([this.helpers.returnJsonArray([{}])]) };
	}
}

/** Emits the items given in its `items` parameter (array or JSON string), one output item each. */
class SetItems implements INodeType {
	description: INodeType['description'] = {
		displayName: 'Set Items',
		name: 'setItems',
		group: ['transform'],
		version: 1,
		description: 'Test helper: outputs the given items',
		usableAsTool: true,
		defaults: { name: 'Set Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}

type AnyNodeType = INodeType | IVersionedNodeType;

/**
 * Node type registry for `Workflow`. An array registers each class under its description name;
 * a map uses its keys. A type such as `n8n-nodes-knolyx.knolyx` also resolves to a class
 * registered as `knolyx` (the part after the last dot), so package-prefixed names work.
 * The harness's Manual Trigger and `test.setItems` are always included.
 */
export function createNodeTypes(
	nodeClasses: AnyNodeType[] | Record<string, AnyNodeType>,
): INodeTypes {
	const registry = new Map<string, AnyNodeType>([
		[MANUAL_TRIGGER_TYPE, new ManualTrigger()],
		[SET_ITEMS_TYPE, new SetItems()],
	]);
	const entries = Array.isArray(nodeClasses)
		? nodeClasses.map((type) => [type.description.name, type] as const)
		: Object.entries(nodeClasses);
	for (const [name, type] of entries) registry.set(name, type);

	const lookup = (name: string) =>
		registry.get(name) ?? registry.get(name.split('.').pop() ?? name);
	return {
		getByName: (name) => {
			const type = lookup(name);
			if (!type) throw new UnexpectedError(`Unknown node type "${name}"`);
			return type;
		},
		getByNameAndVersion: (name, version) => {
			const type = lookup(name);
			if (!type) throw new UnexpectedError(`Unknown node type "${name}"`);
			return NodeHelpers.getVersionedNodeType(type, version);
		},
		getKnownTypes: () => ({}),
	};
}
