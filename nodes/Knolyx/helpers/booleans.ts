/**
 * Booleans: one reading of every boolean parameter of the nodes (options, switches, consents).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { isBlank } from './dates';
import { describeValue, invalid } from './validation';

/**
 * The spellings of a boolean the nodes take, by value or from an expression (n8n hands an
 * expression's result over as it is: a query parameter or a form field gives text): `true` or
 * `false`, as a boolean or as that text. Anything else (TRUE, 1, 0, yes, no, an empty value) is
 * no answer to the question, and the caller refuses it. README "Booleans" lists these.
 */
export function booleanOf(value: unknown): boolean | undefined {
	if (value === true || value === 'true') return true;
	if (value === false || value === 'false') return false;
	return undefined;
}

/** What a refusal of a boolean says after its field's name. */
export function booleanProblem(value: unknown): string {
	return isBlank(value)
		? 'has no value; set it to true or false'
		: `${describeValue(value)} is not true or false`;
}

const BOOLEAN_HELP =
	'Give true or false: a boolean, or the text "true" or "false" (from an expression too). TRUE, 1, 0, yes, no and empty values are refused rather than guessed.';

/** A boolean parameter's value read the one way (booleanOf); anything else fails naming the field and the item. */
export function readBoolean(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): boolean {
	const read = booleanOf(value);
	if (read === undefined) throw invalid(ctx, itemIndex, field, booleanProblem(value), BOOLEAN_HELP);
	return read;
}

/** A boolean parameter of the node (not in a collection), read the one way. */
export function booleanParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
	fallback: boolean,
): boolean {
	return readBoolean(ctx, itemIndex, ctx.getNodeParameter(name, itemIndex, fallback), field);
}

/**
 * A boolean option of the collection `collection`: undefined when it was not added; read the one
 * way when it was. Whether it was added is read from the parameters as written, so that an
 * expression that resolves to no value never passes for an option left out: it is refused,
 * saying what leaving it out would do (`leftOut`, e.g. "to leave the e-mail to Knolyx").
 */
export function booleanOption(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
	leftOut: string,
	collection = 'options',
): boolean | undefined {
	const written = ctx.getNodeParameter(collection, itemIndex, {}, { rawExpressions: true });
	if (
		!written ||
		typeof written !== 'object' ||
		!Object.prototype.hasOwnProperty.call(written, name)
	)
		return undefined;
	const value = ctx.getNodeParameter(`${collection}.${name}`, itemIndex, undefined) as unknown;
	if (isBlank(value))
		throw invalid(
			ctx,
			itemIndex,
			field,
			`was added but has no value; set it to true or false, or remove the option ${leftOut}`,
			BOOLEAN_HELP,
		);
	return readBoolean(ctx, itemIndex, value, field);
}
