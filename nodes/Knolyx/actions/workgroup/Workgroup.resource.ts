import type { INodeProperties } from 'n8n-workflow';

import { addMember } from './addMember.operation';
import { getAll } from './getAll.operation';
import { removeMember } from './removeMember.operation';

export const workgroupOperations = { addMember, getAll, removeMember };

export const workgroupDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['workgroup'] } },
		options: [
			{
				name: 'Add Member',
				value: 'addMember',
				description:
					'Add a provisioned user to a workgroup, optionally until a removal date. Adding again updates the date. Needs WORKGROUP_ADD_MEMBER.',
				action: 'Add member to workgroup',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List workgroups (ID and name). Needs WORKGROUP_LIST.',
				action: 'Get many workgroups',
			},
			{
				name: 'Remove Member',
				value: 'removeMember',
				description: 'Remove a user from a workgroup. Needs WORKGROUP_REMOVE_MEMBER.',
				action: 'Remove member from workgroup',
			},
		],
		default: 'addMember',
	},
	...addMember.description,
	...getAll.description,
	...removeMember.description,
];
