import type { INodeProperties } from 'n8n-workflow';

import { get } from './get.operation';
import { getAll } from './getAll.operation';
import { getImage } from './getImage.operation';

export const courseOperations = { get, getAll, getImage };

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
				name: 'Get Image',
				value: 'getImage',
				description: 'Download the course image as a file (binary output). Needs COURSE_GET.',
				action: 'Get the image of a course',
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
	...getImage.description,
];
