import { defineResource } from '../common';
import { attend } from './attend.operation';
import { cancelAttendance } from './cancelAttendance.operation';
import { get } from './get.operation';
import { getAll } from './getAll.operation';
import { getAttendees } from './getAttendees.operation';
import { register } from './register.operation';

export const event = defineResource('event', 'Event', 'register', {
	register,
	attend,
	cancelAttendance,
	get,
	getAll,
	getAttendees,
});
