import type { IDataObject } from 'n8n-workflow';

import { jobCredits } from '../../budget/jobs';
import { type CompletionWaiter, type ResumeContext, type ResumeRead, resumeParameter } from '../../jobs/resume';
import { getAgentJob } from './shared';
import { classifyRun, isUnsuccessful, runFacts, unsuccessfulRunError } from './outcome';

/** The agent webhook events asked for (short names of the webhook config, api-facts 3). */
export const RESUME_EVENTS = ['completed', 'failed', 'cancelled'];
/** Delivery types that end a run (api-facts 3). */
export const END_EVENT_TYPES = ['agent.completed', 'agent.failed', 'agent.cancelled'];

/**
 * Agent → Run and Wait, "Resume on Completion Webhook": the run is read once with GET /v2/agent/{id};
 * an unsuccessful run with On Unsuccessful Run "Stop With Error" resumes into the node's error.
 */
export const agentWaiter: CompletionWaiter = {
	noun: 'agent run',
	fieldNoun: 'run',
	readOperation: 'Agent → Get',
	runningStatus: 'processing',
	events: RESUME_EVENTS,
	endEventTypes: END_EVENT_TYPES,
	async resume(ctx: ResumeContext, jobId: string): Promise<ResumeRead> {
		const job = await getAgentJob(ctx, jobId, 0);
		const outcome = classifyRun(job);
		if (outcome === 'running') return { running: true };
		const items = [{ json: job, pairedItem: { item: 0 } }];
		const creditsUsed = jobCredits(job);
		if (!isUnsuccessful(outcome) || resumeParameter(ctx, 'onUnsuccessful', 'error') === 'outputItem') return { items, creditsUsed };
		const options = resumeParameter(ctx, 'options', {}) as IDataObject;
		const maxCredits = typeof options.maxCredits === 'number' ? options.maxCredits : undefined;
		return { items, error: unsuccessfulRunError(ctx.getNode(), job, outcome, 0, maxCredits), errorFacts: runFacts(job), creditsUsed };
	},
};
