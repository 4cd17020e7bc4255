import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalid } from '../helpers/validation';

/** Field builders shared by several operations. */

export function shownFor(resource: string, operations: string[]): IDisplayOptions {
	return { show: { resource: [resource], operation: operations } };
}

export function courseLocator(displayOptions: IDisplayOptions, description?: string): INodeProperties {
	return {
		displayName: 'Course',
		name: 'courseId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: description ?? 'The course. Pick it from the list (searchable by title) or give its numeric ID.',
		displayOptions,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a course...',
				typeOptions: { searchListMethod: 'searchCourses', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 42',
				validation: [{ type: 'regex', properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'A course ID is a number' } }],
			},
		],
	};
}

export function workgroupLocator(displayOptions: IDisplayOptions, description?: string): INodeProperties {
	return {
		displayName: 'Workgroup',
		name: 'workgroupId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description:
			description ?? 'The workgroup. Pick it from the list (searchable by name) or give its numeric ID.',
		displayOptions,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a workgroup...',
				typeOptions: { searchListMethod: 'searchWorkgroups', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 7',
				validation: [
					{ type: 'regex', properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'A workgroup ID is a number' } },
				],
			},
		],
	};
}

export function idField(
	name: string,
	displayName: string,
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties {
	return { displayName, name, type: 'string', default: '', required: true, placeholder: 'e.g. 12', description, displayOptions };
}

export function returnAllAndLimit(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...displayOptions.show, returnAll: [false] } },
		},
	];
}

export interface PagedParams {
	returnAll: boolean;
	limit: number;
}

export function readPaged(ctx: IExecuteFunctions, itemIndex: number): PagedParams {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return { returnAll, limit: 0 };
	const raw = ctx.getNodeParameter('limit', itemIndex, 50) as unknown;
	const limit = typeof raw === 'number' || typeof raw === 'string' ? Math.floor(Number(raw)) : NaN;
	// A limit that is not a number would silently return nothing.
	if (!Number.isFinite(limit) || limit < 1 || (typeof raw === 'string' && raw.trim() === '')) {
		throw invalid(ctx, itemIndex, 'Limit', `${JSON.stringify(raw) ?? 'empty'} is not a whole number of 1 or more`);
	}
	return { returnAll, limit };
}

export function emailField(displayOptions: IDisplayOptions, description?: string): INodeProperties {
	return {
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		required: true,
		description: description ?? "The user's e-mail address; it identifies the user on Knolyx",
		displayOptions,
	};
}

export function removalDateField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Removal Date',
		name: 'removalDate',
		type: 'dateTime',
		default: '',
		description:
			'When the membership ends (and the access it gives). Leave empty to never remove. Pick a date (read in the workflow time zone), or pass an ISO 8601 date or yyyy-MM-dd HH:mm:ss (UTC).',
		hint: 'Sent to Knolyx in UTC as yyyy-MM-dd HH:mm:ss',
		displayOptions,
	};
}

/** The object an API answered with, or an empty object for an empty body. */
export function asObject(body: unknown): IDataObject {
	return body && typeof body === 'object' && !Array.isArray(body) ? (body as IDataObject) : {};
}
