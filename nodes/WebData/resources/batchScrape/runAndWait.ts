import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { readOutputMode } from '../../fields/document';
import { documentCredits } from '../../budget/cost';
import type { Operation, RunContext } from '../../types';
import { requireUuid } from '../../helpers/validation';
import { readWaitMethod, resumeFacts, startAndWaitForWebhook, WAIT_METHOD_WEBHOOK } from '../../jobs/resume';
import { maxWaitFieldsByMethod, onTimeoutField, readMaxWaitMs, readOnTimeout } from '../../jobs/wait';
import { readToolJobId } from '../../tool/tool';
import { JOB_OUTPUT, jobWaiter, jobWaitMethodFields, refuseOwnWebhook, waitForJob } from '../crawl/crawlAndBatch';
import { BATCH_BODY_KEYS, jobFailure, pagedItems, pairedAll, prepare, startBatch, startFields } from './shared';

/**
 * Batch Scrape → Run and Wait, "Resume on Completion Webhook": the job of all input items; the URLs
 * and their item indexes are kept with the waiting execution to pair the pages on resume.
 */
export const batchWaiter = jobWaiter('batch', (entry, id, status, documents, mode) => {
	const kept = resumeFacts(entry);
	const urls = Array.isArray(kept.urls) ? kept.urls.map(String) : [];
	const indexes = Array.isArray(kept.indexes) ? kept.indexes.map(Number) : [0];
	return pagedItems(id, status, documents, mode, urls, indexes);
});

/** Batch Scrape → Run and Wait: one job of all input items, waited for; one item per page. */
export const runAndWait: Operation = {
	spends: true,
	tool: {
		description:
			'Scrape a known list of page URLs in one job and wait: returns a compact list (number, URL, title, short snippet) and a jobId; read a page\'s content with page=N and that jobId. Costs one scrape per URL.',
		fromAi: { url: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('urls', 'The absolute https URLs of the pages to read, separated by commas', 'string') }}" },
		pageList: 'batch',
		readsFinishedJob: true,
	},
	waiter: batchWaiter,
	bodyKeys: BATCH_BODY_KEYS,
	properties: [...startFields, ...jobWaitMethodFields('batch'), ...maxWaitFieldsByMethod('batch scrape'), onTimeoutField('batch scrape', 'Get Status', 'scraping'), JOB_OUTPUT],
	async executeAll(this: IExecuteFunctions, items: INodeExecutionData[], run: RunContext): Promise<INodeExecutionData[]> {
		const p = prepare(this, items);
		const maxWaitMs = readMaxWaitMs(this, 0);
		const onTimeout = readOnTimeout(this, 0);
		const mode = readOutputMode(this, 0);
		const byWebhook = readWaitMethod(this, 0) === WAIT_METHOD_WEBHOOK;
		if (p.urls.length === 0) return p.errors;
		const leastPerPage = documentCredits(p.body, { zdr: p.body.zeroDataRetention === true });
		if (byWebhook) {
			// The execution pauses; WebData.webhook() gives the pages when the job's webhook comes.
			refuseOwnWebhook(this.getNode(), p.body, 0);
			return await startAndWaitForWebhook(this, 0, {
				waiter: batchWaiter,
				maxWaitMs,
				onTimeout,
				oneItemPerExecution: false,
				carried: p.errors,
				pairedItem: pairedAll(p.indexes),
				keep: { urls: p.urls, indexes: p.indexes },
				start: async (webhook) => String((await startBatch(this, { ...p.body, webhook }, run)).id),
				budget: run?.transportDeps.budget,
				leastPerPage,
			});
		}
		try {
			const startedAt = Date.now();
			// As a tool, a model may ask to read a finished job's pages again: nothing new starts.
			const reuse = readToolJobId(this, 0);
			const id = reuse !== undefined ? requireUuid(this.getNode(), 'Read Finished Job ID', reuse, 0) : String((await startBatch(this, p.body, run)).id);
			const outcome = await waitForJob(this, 'batch', id, { maxWaitMs, onTimeout, startedAt, i: 0, run, own: reuse === undefined, leastPerPage });
			if (outcome.timedOut || outcome.documents.length === 0) {
				return [...p.errors, { json: outcome.status, pairedItem: pairedAll(p.indexes) }];
			}
			return [...p.errors, ...pagedItems(id, outcome.status, outcome.documents, mode, p.urls, p.indexes)];
		} catch (error) {
			return [...p.errors, ...jobFailure(this, error, p.indexes)];
		}
	},
};
