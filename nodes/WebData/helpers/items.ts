import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

/** The item "Continue On Fail" puts out for a failed input item: what failed, and what to do. */
export function errorItem(error: unknown, itemIndex: number, node?: INode): INodeExecutionData {
	const e = error as {
		message?: string;
		description?: string | null;
		context?: IDataObject;
	};
	const json: IDataObject = { error: e.message ?? String(error) };
	if (e.description) json.description = e.description;
	const context = e.context ?? {};
	for (const [from, to] of [
		['httpStatus', 'httpStatus'],
		['apiCode', 'code'],
		['retryable', 'retryable'],
		['details', 'details'],
		['requiresActionUrl', 'requiresActionUrl'],
		['field', 'field'],
	] as const) {
		if (context[from] !== undefined && context[from] !== null) json[to] = context[from];
	}
	return { json, pairedItem: { item: itemIndex }, ...errorOutput(node, error, itemIndex) };
}

/** n8n routes an item to the error output ("Continue (using error output)") only when the item carries its error. */
export function errorOutput(node: INode | undefined, error: unknown, itemIndex?: number): Pick<INodeExecutionData, 'error'> {
	return node?.onError === 'continueErrorOutput' ? { error: asNodeError(node, error, itemIndex) } : {};
}

export function isCancellation(error: unknown): boolean {
	return (error as { name?: string })?.name === 'AbortError';
}

/** Keeps n8n's own errors as they are and wraps anything else, so the UI shows it well. */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}
