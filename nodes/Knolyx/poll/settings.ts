import type { INodeParameterResourceLocator, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Id } from '../helpers/validation';
import { parseLongId } from '../helpers/validation';

/** The Poll Trigger's parameters, read and checked before any request. */

export type PollEvent = 'newAttendee' | 'newEvent' | 'newCourse';
export type AttendeeScope = 'event' | 'community';

export type PollSettings =
	| { event: 'newCourse' }
	| { event: 'newEvent'; communityId: Id }
	| { event: 'newAttendee'; scope: 'community'; communityId: Id }
	| { event: 'newAttendee'; scope: 'event'; communityId: Id; eventId: Id };

type ParameterContext = Pick<IPollFunctions, 'getNode' | 'getNodeParameter'>;

function idParameter(ctx: ParameterContext, name: string, field: string, what: string): Id {
	let value = ctx.getNodeParameter(name, '') as unknown;
	if (value && typeof value === 'object' && '__rl' in value)
		value = (value as INodeParameterResourceLocator).value;
	const id = parseLongId(value);
	if (id === undefined) {
		const shown =
			value === undefined || value === null || value === '' ? 'empty' : `"${String(value)}"`;
		throw new NodeOperationError(ctx.getNode(), `${field}: ${shown} is not a numeric ID`, {
			description: `Give the numeric ID of the ${what}.`,
		});
	}
	return id;
}

export function readSettings(ctx: ParameterContext): PollSettings {
	const event = ctx.getNodeParameter('event', 'newAttendee') as PollEvent;
	if (event === 'newCourse') return { event };
	const communityId = idParameter(
		ctx,
		'communityId',
		'Community ID',
		'community (see its address in Knolyx)',
	);
	if (event === 'newEvent') return { event, communityId };
	if (event !== 'newAttendee') {
		throw new NodeOperationError(ctx.getNode(), `Trigger On: unknown value "${String(event)}"`);
	}
	const scope = ctx.getNodeParameter('attendeesOf', 'event') as AttendeeScope;
	if (scope === 'community') return { event, scope, communityId };
	return {
		event,
		scope: 'event',
		communityId,
		eventId: idParameter(ctx, 'eventId', 'Event', 'event'),
	};
}

/** What the saved state belongs to; other settings start from a new baseline. */
export function watchKey(settings: PollSettings): string {
	switch (settings.event) {
		case 'newCourse':
			return 'newCourse';
		case 'newEvent':
			return `newEvent:${settings.communityId}`;
		default:
			return settings.scope === 'community'
				? `newAttendee:community:${settings.communityId}`
				: `newAttendee:event:${settings.communityId}:${settings.eventId}`;
	}
}
