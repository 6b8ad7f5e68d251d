import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { settleEndedJob } from '../../budget/jobs';
import { withoutEnvelope } from '../../helpers/objects';
import { requireUuid } from '../../helpers/validation';
import type { Operation, RunContext } from '../../types';
import { type ApiContext, defaultDeps, type TransportDeps } from '../../transport';
import { agentJobRequest, JOB_ID_FROM_AI, jobIdField } from './shared';
import { classifyRun } from './outcome';

/** The job as one flat item: id first, then what the service returned (without `success`). */
export function jobItem(jobId: string, body: IDataObject): IDataObject {
	return { id: jobId, ...withoutEnvelope(body) };
}

export async function getAgentJob(
	ctx: ApiContext,
	jobId: string,
	itemIndex: number,
	deps: TransportDeps = defaultDeps,
): Promise<IDataObject> {
	return jobItem(jobId, await agentJobRequest(ctx, 'GET', jobId, '', itemIndex, deps));
}

/** The Job ID parameter (resource locator), checked to be a UUID before anything is sent. */
export function readJobId(ctx: IExecuteFunctions, i: number): string {
	const raw = ctx.getNodeParameter('jobId', i, '', { extractValue: true });
	return requireUuid(ctx.getNode(), 'Job ID', raw, i);
}

export const get: Operation = {
	tool: { description: 'Read one research agent run by its ID: its status and, once finished, its result.', fromAi: { jobId: JOB_ID_FROM_AI } },
	properties: [jobIdField],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const jobId = readJobId(this, i);
		const job = await getAgentJob(this, jobId, i, run?.transportDeps);
		// A run started under this execution's budget gives back its hold once it ended (issue 35.3).
		if (classifyRun(job) !== 'running') settleEndedJob(run?.transportDeps.budget, jobId, job, i);
		return [{ json: job }];
	},
};
