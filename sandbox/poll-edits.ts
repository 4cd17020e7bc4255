/**
 * Edits armed by a test to happen *while* a paged list is being read, so a test can play what a
 * busy platform does to a reader that asks for one page after the other: an entry deleted or moved
 * between two page requests shifts the rest by one place, so the reader skips one entry (it moved
 * to the page already read) or sees one twice (it moved to the page still to be read).
 *
 * An armed edit names a list (the events of a community, the attendees of an event, the course
 * list), an entry of it, what happens to the entry (deleted, moved to the front, moved to the
 * end) and `beforePage`: the edit is made once, just before that list's page `beforePage` (or a
 * later one) is served, then disarmed. Armed by POST /sandbox/read-edits (routes/poll-control.ts).
 */
import type { RequestHandler } from 'express';
import type { SandboxState } from './state';

export type ReadEditList = 'events' | 'attendees' | 'courses';
export type ReadEditAction = 'delete' | 'moveToFront' | 'moveToEnd';

export interface ReadEdit {
	list: ReadEditList;
	/** The community whose events list is meant (list 'events'). */
	communityId?: number;
	/** The event whose attendees list is meant (list 'attendees'). */
	eventId?: number;
	/** The entry: an event ID, a user ID (attendees) or a course ID. */
	id: number;
	action: ReadEditAction;
	/** Made just before this page (zero-based) of the list is served; 1 = between the first and the second page. */
	beforePage: number;
}

/** Edits armed and not yet made, per sandbox state (one sandbox, one list of edits). */
const armed = new WeakMap<SandboxState, ReadEdit[]>();

export function armReadEdit(state: SandboxState, edit: ReadEdit): void {
	const edits = armed.get(state) ?? [];
	edits.push(edit);
	armed.set(state, edits);
}

export function pendingReadEdits(state: SandboxState): ReadEdit[] {
	return [...(armed.get(state) ?? [])];
}

export function clearReadEdits(state: SandboxState): void {
	armed.delete(state);
}

/** Moves one key of a Map to its front or its end; the Map's order is the list's order. */
function move<K, V>(map: Map<K, V>, key: K, where: 'front' | 'end'): void {
	const value = map.get(key) as V;
	map.delete(key);
	if (where === 'end') {
		map.set(key, value);
		return;
	}
	const rest = [...map];
	map.clear();
	map.set(key, value);
	for (const [k, v] of rest) map.set(k, v);
}

/** The Map holding the list's entries in listed order (events: every community's, filtered when listed). */
export function listMap(
	state: SandboxState,
	edit: Pick<ReadEdit, 'list' | 'eventId'>,
): Map<number, unknown> | undefined {
	if (edit.list === 'events') return state.events;
	if (edit.list === 'courses') return state.courses;
	return edit.eventId === undefined ? undefined : state.attendance.get(edit.eventId);
}

function apply(state: SandboxState, edit: ReadEdit): void {
	const map = listMap(state, edit);
	if (!map?.has(edit.id)) return; // gone meanwhile: nothing to edit
	if (edit.action === 'delete') {
		map.delete(edit.id);
		if (edit.list === 'events') state.attendance.delete(edit.id);
		if (edit.list === 'courses') state.coursesWithoutImage.delete(edit.id);
	} else {
		move(map, edit.id, edit.action === 'moveToFront' ? 'front' : 'end');
	}
}

/** Which list a GET on /public/api asks for, if it is one of the paged lists edits can be armed on. */
function listOf(path: string): Pick<ReadEdit, 'list' | 'communityId' | 'eventId'> | undefined {
	let m = /^\/v1\/community\/(\d+)\/event\/paged\/?$/.exec(path);
	if (m) return { list: 'events', communityId: Number(m[1]) };
	m = /^\/v1\/community\/\d+\/event\/(\d+)\/attendees\/paged\/?$/.exec(path);
	if (m) return { list: 'attendees', eventId: Number(m[1]) };
	if (/^\/v1\/course\/?$/.test(path)) return { list: 'courses' };
	return undefined;
}

/** Mounted on /public/api before the routes: makes the armed edits a page request reaches. */
export function readEditsMiddleware(state: SandboxState): RequestHandler {
	return (req, _res, next) => {
		const edits = armed.get(state);
		if (req.method === 'GET' && edits && edits.length > 0) {
			const asked = listOf(req.path);
			const page = Number(req.query['pagination.page'] ?? 0);
			if (asked && Number.isInteger(page)) {
				const due = edits.filter(
					(e) =>
						e.list === asked.list &&
						(e.communityId === undefined || e.communityId === asked.communityId) &&
						(e.eventId === undefined || e.eventId === asked.eventId) &&
						page >= e.beforePage,
				);
				for (const edit of due) {
					apply(state, edit);
					edits.splice(edits.indexOf(edit), 1);
				}
			}
		}
		next();
	};
}
