import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { type ApiRequest, apiRequest, type TransportDeps } from '../transport';

/** The error of a start whose answer has no job ID: the job may or may not have started. */
export interface NoJobIdError {
	message: string;
	/** How to check whether the job started before starting it again. */
	description: string;
}

/**
 * Sends a job's start request and returns the service's answer with its job ID; an answer without
 * one is an error (`noId`).
 */
export async function startJob(
	ctx: IExecuteFunctions,
	request: ApiRequest,
	deps: TransportDeps,
	noId: NoJobIdError,
): Promise<{ id: string; answer: IDataObject }> {
	const answer = await apiRequest<IDataObject>(ctx, request, deps);
	if (typeof answer.id !== 'string' || answer.id === '') {
		throw new NodeOperationError(ctx.getNode(), noId.message, { itemIndex: request.itemIndex, description: noId.description });
	}
	return { id: answer.id, answer };
}
