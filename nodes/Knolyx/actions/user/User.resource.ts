import type { INodeProperties } from 'n8n-workflow';

import { enrol } from './enrol.operation';
import { provision } from './provision.operation';

export const userOperations = { provision, enrol };

export const userDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{
				name: 'Enrol in Workgroup',
				value: 'enrol',
				description:
					'Provision the user, then add them to a workgroup (external payment enrolment). Needs USER_PROVISION and WORKGROUP_ADD_MEMBER.',
				action: 'Enrol a user in a workgroup',
			},
			{
				name: 'Provision',
				value: 'provision',
				description:
					'Create the user, or update the fields of an existing one. New users get an on-boarding e-mail. Needs USER_PROVISION.',
				action: 'Provision a user',
			},
		],
		default: 'provision',
	},
	...provision.description,
	...enrol.description,
];
