import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../types';
import { defaultDeps, type TransportDeps } from '../../transport';
import { readJobId } from './get';
import { agentJobRequest, JOB_ID_FROM_AI, jobIdField } from './shared';

/** A 409 of DELETE /v2/agent/{id}: the run had already finished, or is already being cancelled. */
export function alreadyFinished(error: unknown): 'already finished' | 'already cancelled' | undefined {
	if (!(error instanceof NodeApiError) || error.context.httpStatus !== 409) return undefined;
	return /cancel/i.test(error.message) ? 'already cancelled' : 'already finished';
}

/**
 * DELETE /v2/agent/{jobId} (spec 3: cooperative; in-flight steps finish). Returns
 * `{id, cancelled: true}`, or with `ignoreFinished` a 409 becomes `{id, cancelled: false, reason, message}`.
 */
export async function cancelAgentRun(
	ctx: IExecuteFunctions,
	jobId: string,
	i: number,
	ignoreFinished: boolean,
	deps: TransportDeps = defaultDeps,
): Promise<IDataObject> {
	const failure = await agentJobRequest(ctx, 'DELETE', jobId, '', i, deps).then(
		() => undefined,
		(error: unknown) => error,
	);
	if (failure === undefined) return { id: jobId, cancelled: true };
	const reason = alreadyFinished(failure);
	if (!ignoreFinished || reason === undefined) throw failure;
	return { id: jobId, cancelled: false, reason, message: (failure as Error).message };
}

export const cancel: Operation = {
	tool: {
		description: 'Stop a research agent run that is still going, by its id; what it found so far is kept. Use it when a run is no longer needed, so it spends no more credits.',
		fromAi: { jobId: JOB_ID_FROM_AI },
	},
	properties: [
		jobIdField,
		{
			displayName: 'Ignore if Already Finished',
			name: 'ignoreFinished',
			type: 'boolean',
			default: false,
			description:
				'Whether a run that has already finished (or is already being cancelled) counts as done instead of an error. The item then has "cancelled": false and the reason.',
		},
	],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const jobId = readJobId(this, i);
		const ignoreFinished = this.getNodeParameter('ignoreFinished', i, false) === true;
		return [{ json: await cancelAgentRun(this, jobId, i, ignoreFinished, run?.transportDeps) }];
	},
};
