import type { IExecuteFunctions, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { type CompletionWaiter, continueWaiting, resumeWebhook } from '../jobs/resume';
import { agentWaiter } from './agent/resume';
import { batchWaiter } from './batchScrape/runAndWait';
import { crawlWaiter } from './crawl/runAndWait';

/** The Run and Wait operations that can wait with "Resume on Completion Webhook", by resource. */
export const WAITERS: Record<string, CompletionWaiter> = {
	agent: agentWaiter,
	crawl: crawlWaiter,
	batchScrape: batchWaiter,
};

/** WebData.webhook(): the resume call of a paused Run and Wait execution. */
export async function resumeWaitingNode(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	return await resumeWebhook.call(this, WAITERS);
}

/**
 * WebData.execute() of a paused Run and Wait's check (jobs/resume.ts continueWaiting): the node's
 * output when this node run is a check of a waiting job, undefined otherwise.
 */
export async function checkWaitingNode(this: IExecuteFunctions): Promise<INodeExecutionData[] | undefined> {
	return await continueWaiting(this, WAITERS);
}
