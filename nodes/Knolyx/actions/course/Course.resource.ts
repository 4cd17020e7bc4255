import type { INodeProperties } from 'n8n-workflow';

import { get } from './get.operation';
import { getAll } from './getAll.operation';

export const courseOperations = { get, getAll };

export const courseDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['course'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get one course by ID. Needs COURSE_GET.',
				action: 'Get a course',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List courses (ID and title), e.g. to find a course ID by its title. Needs COURSE_LIST.',
				action: 'Get many courses',
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
