import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { booleanParameter } from '../helpers/booleans';
import { invalid, optionalApiDate } from '../helpers/validation';
import type { KnolyxOperation } from './types';

/**
 * Field builders shared by several resources. A field has no display options here: each
 * operation shows its fields with n8n's `updateDisplayOptions`.
 */

/** The Course, Workgroup and Event pickers, built as the Poll Trigger's (one builder for both nodes). */
export { resourceLocator } from '../methods/locators';

export function idField(name: string, displayName: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 12',
		description,
	};
}

export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export interface PagedParams {
	returnAll: boolean;
	limit: number;
}

export function readPaged(ctx: IExecuteFunctions, itemIndex: number): PagedParams {
	const returnAll = booleanParameter(ctx, itemIndex, 'returnAll', 'Return All', false);
	if (returnAll) return { returnAll, limit: 0 };
	const raw = ctx.getNodeParameter('limit', itemIndex, 50) as unknown;
	const limit = typeof raw === 'number' || typeof raw === 'string' ? Math.floor(Number(raw)) : NaN;
	// A limit that is not a number would silently return nothing.
	if (!Number.isFinite(limit) || limit < 1 || (typeof raw === 'string' && raw.trim() === '')) {
		throw invalid(
			ctx,
			itemIndex,
			'Limit',
			`${JSON.stringify(raw) ?? 'empty'} is not a whole number of 1 or more`,
		);
	}
	return { returnAll, limit };
}

export function emailField(description?: string): INodeProperties {
	return {
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		required: true,
		description: description ?? "The user's e-mail address; it identifies the user on Knolyx",
	};
}

export const removalDateField: INodeProperties = {
	displayName: 'Removal Date',
	name: 'removalDate',
	type: 'dateTime',
	default: '',
	description:
		'When the membership ends (and the access it gives). Leave empty to never remove. Pick a date (read in the workflow time zone), or pass an ISO 8601 date or yyyy-MM-dd HH:mm:ss (UTC).',
	hint: 'Sent to Knolyx in UTC as yyyy-MM-dd HH:mm:ss',
};

/** The item's Removal Date, checked and in the API's form, or null when left empty. */
export function readRemovalDate(ctx: IExecuteFunctions, itemIndex: number): string | null {
	return optionalApiDate(
		ctx,
		itemIndex,
		ctx.getNodeParameter('removalDate', itemIndex, ''),
		'Removal Date',
	);
}

/** The object an API answered with, or an empty object for an empty body. */
export function asObject(body: unknown): IDataObject {
	return body && typeof body === 'object' && !Array.isArray(body) ? (body as IDataObject) : {};
}

/** A resource: its operations (value → implementation), in the order their fields are shown. */
export interface KnolyxResource {
	/** Its value in the Resource list, as saved in workflows ("rule"). */
	value: string;
	/** Its name in the Resource list ("Course Access Rule"). */
	name: string;
	operations: Record<string, KnolyxOperation<unknown>>;
	description: INodeProperties[];
}

/** A list's options sorted by name, as n8n lists them (and its linter asks). */
export function sortedByName<T extends INodePropertyOptions>(options: T[]): T[] {
	return [...options].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * A resource from its operations: the Operation list (sorted by name, as n8n lists them), then
 * the fields of each operation in the order given.
 */
export function defineResource(
	resource: string,
	name: string,
	defaultOperation: string,
	operations: Record<string, Pick<KnolyxOperation, 'option' | 'description' | 'agent' | 'readme'>>,
): KnolyxResource {
	const options = sortedByName(
		Object.entries(operations).map(([value, operation]) => ({ ...operation.option, value })),
	);
	return {
		value: resource,
		name,
		// Each operation's parameters type is its own; the router hands `prepare`'s result to `execute`.
		operations: operations as Record<string, KnolyxOperation<unknown>>,
		description: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: [resource] } },
				options,
				default: defaultOperation,
			},
			...Object.values(operations).flatMap((operation) => operation.description),
		],
	};
}
