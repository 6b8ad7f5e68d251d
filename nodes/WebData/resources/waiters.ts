import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { type CompletionWaiter, resumeWebhook } from '../helpers/resume';
import { agentWaiter } from './agent/resume';
import { batchWaiter } from './batchScrape';
import { crawlWaiter } from './crawl';

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
