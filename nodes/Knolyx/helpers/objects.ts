import type { IDataObject } from 'n8n-workflow';

/** A plain JSON object: not null, not an array. */
export function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
