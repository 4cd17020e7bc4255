/** The Poll Trigger's memory of a list: what a complete read makes new, missing or forgotten. */
import { diffList, distinct, keyOf, presentCount, readState } from '../../nodes/Knolyx/poll/state';

const entries = (...ids: number[]) => ids.map((id) => ({ id, name: `n${id}` }));

describe('Poll Trigger memory', () => {
	it('takes the first read as the baseline, or as all new when asked', () => {
		expect(diffList(undefined, entries(1, 2))).toEqual({ fresh: [], next: { seen: [1, 2] } });
		expect(diffList(undefined, entries(1, 2), true).fresh).toEqual(entries(1, 2));
	});

	it('emits entries not remembered, once each even when a page boundary repeats one', () => {
		const { fresh, next } = diffList({ seen: [1, 2] }, entries(1, 2, 3, 3, 4));
		expect(fresh).toEqual(entries(3, 4));
		expect(next).toEqual({ seen: [1, 2, 3, 4] });
	});

	it('forgets an entry only after two complete reads without it, so a single skipped entry is not new again', () => {
		// 2 moved to the page already read while the pages were read: absent once, then back.
		const once = diffList({ seen: [1, 2, 3] }, entries(1, 3));
		expect(once).toEqual({ fresh: [], next: { seen: [1, 3, 2], missing: [2] } });
		const back = diffList(once.next, entries(1, 2, 3));
		expect(back).toEqual({ fresh: [], next: { seen: [1, 2, 3] } });
		// Absent twice: forgotten; present later: new (cancelled and registered again).
		const twice = diffList(once.next, entries(1, 3));
		expect(twice.next).toEqual({ seen: [1, 3] });
		expect(diffList(twice.next, entries(1, 3, 2)).fresh).toEqual(entries(2));
	});

	it('keys entries by id, else userId, else e-mail, and keeps a state only for the same settings', () => {
		expect(keyOf({ id: 7 })).toBe(7);
		expect(keyOf({ userId: 'u1' })).toBe('u1');
		expect(keyOf({ email: 'a@b.co' })).toBe('a@b.co');
		const state = { v: 1, watch: 'newCourse', lists: {}, polledAt: '' };
		expect(readState(state, 'newCourse')).toBe(state);
		expect(readState(state, 'newEvent:301')).toBeUndefined();
		expect(readState({ ...state, v: 2 }, 'newCourse')).toBeUndefined();
	});

	it('joins readings of one list keeping each key once, in the order first listed; counts what a read listed', () => {
		expect(distinct([...entries(1, 2, 2, 3), ...entries(4, 1)])).toEqual(entries(1, 2, 3, 4));
		const { next } = diffList({ seen: [1, 2, 3] }, entries(1, 4));
		expect(next).toEqual({ seen: [1, 4, 2, 3], missing: [2, 3] });
		expect(presentCount(next)).toBe(2);
	});
});
