import { defineResource } from '../common';
import { addMember } from './addMember.operation';
import { getAll } from './getAll.operation';
import { removeMember } from './removeMember.operation';

export const workgroup = defineResource('workgroup', 'Workgroup', 'addMember', {
	addMember,
	getAll,
	removeMember,
});
