import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { booleanOf, booleanProblem } from '../helpers/booleans';

/**
 * The Knolyx Trigger's boolean options, read the one way every boolean of the nodes is
 * (helpers/booleans.ts booleanOf): true or false, as a boolean or as that text. Any other value
 * fails naming the option: at activation, before the webhook is registered (nothing is sent),
 * and per delivery (then not acknowledged, so Knolyx sends it again once the option is fixed).
 */
export interface TriggerSwitches {
	/** Raw Envelope: output the event exactly as Knolyx sent it. */
	raw: boolean;
	/** Show Connection PING When Testing. */
	pingInTest: boolean;
}

const SWITCHES: Array<
	[key: keyof TriggerSwitches, name: string, field: string, fallback: boolean]
> = [
	['raw', 'rawEnvelope', 'Raw Envelope', false],
	['pingInTest', 'pingInTest', 'Show Connection PING When Testing', true],
];

export function readTriggerSwitches(node: INode, options: IDataObject): TriggerSwitches {
	const read: TriggerSwitches = { raw: false, pingInTest: true };
	for (const [key, name, field, fallback] of SWITCHES) {
		if (!Object.prototype.hasOwnProperty.call(options, name)) {
			read[key] = fallback;
			continue;
		}
		const value = booleanOf(options[name]);
		if (value === undefined)
			throw new NodeOperationError(
				node,
				`${field}: ${booleanProblem(options[name])} (an option of the trigger)`,
				{
					description:
						'Give true or false: a boolean, or the text "true" or "false". Fix the option in the Knolyx Trigger node.',
				},
			);
		read[key] = value;
	}
	return read;
}
