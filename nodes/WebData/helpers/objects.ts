import type { IDataObject } from 'n8n-workflow';

/** Whether a value is a JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A service answer without its envelope flag `success` (the rest as the service sent it). */
export function withoutEnvelope(body: IDataObject): IDataObject {
	const { success: _success, ...rest } = body;
	void _success;
	return rest;
}
