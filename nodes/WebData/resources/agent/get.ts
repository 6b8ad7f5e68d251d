import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { settleEndedJob } from '../../budget/jobs';
import { requireUuid } from '../../helpers/validation';
import type { Operation, RunContext } from '../../types';
import { getAgentJob, JOB_ID_FROM_AI, jobIdField } from './shared';
import { classifyRun } from './outcome';

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
