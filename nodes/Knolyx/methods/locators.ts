import type { INodeProperties } from 'n8n-workflow';

/**
 * The pickers (resource locators) of both nodes: "From List" (searchable, filled by the
 * list-search method of the same name in ./listSearch) or "By ID". One builder, so the Course,
 * Workgroup and Event pickers look and behave the same in the Knolyx node and the Poll Trigger.
 */
const LOCATORS = {
	course: {
		displayName: 'Course',
		name: 'courseId',
		searchBy: 'title',
		listMethod: 'searchCourses',
		example: '42',
		article: 'a',
	},
	workgroup: {
		displayName: 'Workgroup',
		name: 'workgroupId',
		searchBy: 'name',
		listMethod: 'searchWorkgroups',
		example: '7',
		article: 'a',
	},
	event: {
		displayName: 'Event',
		name: 'eventId',
		searchBy: 'title',
		listMethod: 'searchCommunityEvents',
		example: '401',
		article: 'an',
	},
} as const;

export type LocatorKind = keyof typeof LOCATORS;

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** A picker: from the list (searchable) or by numeric ID. */
export function resourceLocator(kind: LocatorKind, description?: string): INodeProperties {
	const { displayName, name, searchBy, listMethod, example, article } = LOCATORS[kind];
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description:
			description ??
			`The ${kind}. Pick it from the list (searchable by ${searchBy}) or give its numeric ID.`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select ${article} ${kind}...`,
				typeOptions: { searchListMethod: listMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${example}`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^\\s*\\d+\\s*$',
							errorMessage: `${capital(article)} ${kind} ID is a number`,
						},
					},
				],
			},
		],
	};
}
