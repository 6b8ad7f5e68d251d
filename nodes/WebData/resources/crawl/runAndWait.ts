import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { readOutputMode } from '../../fields/document';
import { documentCredits } from '../../budget/cost';
import type { Operation, RunContext } from '../../types';
import { requireUuid } from '../../helpers/validation';
import { readWaitMethod, startAndWaitForWebhook, WAIT_METHOD_WEBHOOK } from '../../jobs/resume';
import { maxWaitFieldsByMethod, onTimeoutField, readMaxWaitMs, readOnTimeout } from '../../jobs/wait';
import { readToolJobId } from '../../tool/tool';
import { failOrItem, JOB_OUTPUT, jobWaiter, jobWaitMethodFields, pageJson, refuseOwnWebhook, waitForJob } from './crawlAndBatch';
import { buildCrawlBody, CRAWL_BODY_KEYS, crawlFields, startCrawl } from './start';

/** Crawl → Run and Wait, "Resume on Completion Webhook": one crawl's pages, paired to its one input item. */
export const crawlWaiter = jobWaiter('crawl', (entry, id, status, documents, mode) => {
	const pairedItem = entry.data.main?.[0]?.at(-1)?.pairedItem ?? { item: 0 };
	return documents.map((doc) => ({ json: pageJson(id, status, doc, mode), pairedItem }));
});

/** Crawl → Run and Wait: start a crawl (or read a finished one again, as a tool), wait, one item per page. */
export const runAndWait: Operation = {
	spends: true,
	tool: {
		description:
			'Read many pages of ONE website: follows links from a start URL and scrapes up to a limit of pages, then returns a compact list (number, URL, title, short snippet) and a jobId. Read a page\'s content with page=N and that jobId (nothing is crawled again). Costs one scrape per page crawled, so keep the limit small; takes seconds to minutes. Use scrape for one page, map only to list URLs.',
		fromAi: {
			url: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('url', 'An absolute https URL where the crawl starts, e.g. https://example.com/docs', 'string') }}",
			pageLimit: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('limit', 'The most pages to crawl, 1 to 20 (each page costs credits)', 'number', 5) }}",
		},
		pageList: 'crawl',
		readsFinishedJob: true,
	},
	waiter: crawlWaiter,
	bodyKeys: CRAWL_BODY_KEYS,
	properties: [...crawlFields, ...jobWaitMethodFields('crawl'), ...maxWaitFieldsByMethod('crawl'), onTimeoutField('crawl', 'Get Status', 'scraping'), JOB_OUTPUT],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = buildCrawlBody(this, i);
		const maxWaitMs = readMaxWaitMs(this, i);
		const onTimeout = readOnTimeout(this, i);
		const mode = readOutputMode(this, i);
		const leastPerPage = documentCredits(body.scrapeOptions as IDataObject | undefined, { zdr: body.zeroDataRetention === true });
		if (readWaitMethod(this, i) === WAIT_METHOD_WEBHOOK) {
			// The execution pauses; WebData.webhook() gives the pages when the crawl's webhook comes.
			refuseOwnWebhook(this.getNode(), body, i);
			return await startAndWaitForWebhook(this, i, {
				waiter: crawlWaiter,
				maxWaitMs,
				onTimeout,
				oneItemPerExecution: true,
				start: async (webhook) => String((await startCrawl(this, { ...body, webhook }, i, run)).id),
				budget: run?.transportDeps.budget,
				leastPerPage,
			});
		}
		const startedAt = Date.now();
		// As a tool, a model may ask to read a finished crawl's pages again: nothing new starts.
		const reuse = readToolJobId(this, i);
		const id = reuse !== undefined ? requireUuid(this.getNode(), 'Read Finished Job ID', reuse, i) : String((await startCrawl(this, body, i, run)).id);
		try {
			const outcome = await waitForJob(this, 'crawl', id, { maxWaitMs, onTimeout, startedAt, i, run, own: reuse === undefined, leastPerPage });
			if (outcome.timedOut || outcome.documents.length === 0) return [{ json: outcome.status }];
			return outcome.documents.map((doc) => ({ json: pageJson(id, outcome.status, doc, mode) }));
		} catch (error) {
			return failOrItem(this, error, i);
		}
	},
};
