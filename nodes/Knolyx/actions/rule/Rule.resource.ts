import { defineResource } from '../common';
import { addWorkgroup } from './addWorkgroup.operation';
import { deleteRule } from './delete.operation';
import { get } from './get.operation';
import { getAll } from './getAll.operation';
import { removeWorkgroup } from './removeWorkgroup.operation';
import { replaceAll } from './replaceAll.operation';
import { restore } from './restore.operation';
import { upsert } from './upsert.operation';

export const rule = defineResource('rule', 'Course Access Rule', 'addWorkgroup', {
	addWorkgroup,
	upsert,
	delete: deleteRule,
	removeWorkgroup,
	getAll,
	replaceAll,
	restore,
	get,
});
