import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { readOutputMode } from '../../fields/document';
import { requireHttpUrl } from '../../fields/scrapeOptions';
import { readToolJobId } from '../../tool/tool';
import type { Operation, Resource, RunContext } from '../../helpers/types';
import { invalid, requireUuid } from '../../helpers/validation';
import { readWaitMethod, startAndWaitForWebhook, WAIT_METHOD_WEBHOOK } from '../../jobs/resume';
import { maxWaitField, onTimeoutField, readMaxWaitMs, readOnTimeout } from '../../jobs/wait';
import { apiRequest, defaultDeps } from '../../transport';
import {
	failOrItem,
	JOB_OUTPUT,
	jobHints,
	jobReadOperations,
	jobWaiter,
	jobWaitMethodFields,
	pageJson,
	refuseOwnWebhook,
	waitForJob,
} from './jobs';
import { buildCrawlBody, crawlFields, startCrawl } from './start';

const OUTPUT = JOB_OUTPUT;

const start: Operation = {
	properties: crawlFields,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = buildCrawlBody(this, i);
		return [{ json: await startCrawl(this, body, i, run) }];
	},
};

/** Crawl → Run and Wait, "Resume on Completion Webhook": one crawl's pages, paired to its one input item. */
export const crawlWaiter = jobWaiter('crawl', (entry, id, status, documents, mode) => {
	const pairedItem = entry.data.main?.[0]?.at(-1)?.pairedItem ?? { item: 0 };
	return documents.map((doc) => ({ json: pageJson(id, status, doc, mode), pairedItem }));
});

const runAndWait: Operation = {
	properties: [...crawlFields, ...jobWaitMethodFields('crawl'), maxWaitField('crawl'), onTimeoutField('crawl', 'Get Status', 'scraping'), OUTPUT],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = buildCrawlBody(this, i);
		const maxWaitMs = readMaxWaitMs(this, i);
		const onTimeout = readOnTimeout(this, i);
		const mode = readOutputMode(this, i);
		if (readWaitMethod(this, i) === WAIT_METHOD_WEBHOOK) {
			// The execution pauses; WebData.webhook() gives the pages when the crawl's webhook comes.
			refuseOwnWebhook(this.getNode(), body, i);
			return await startAndWaitForWebhook(this, i, {
				waiter: crawlWaiter,
				maxWaitMs,
				onTimeout,
				oneItemPerExecution: true,
				start: async (webhook) => String((await startCrawl(this, { ...body, webhook }, i, run)).id),
			});
		}
		const startedAt = Date.now();
		// As a tool, a model may ask to read a finished crawl's pages again: nothing new starts.
		const reuse = readToolJobId(this, i);
		const id = reuse !== undefined ? requireUuid(this.getNode(), 'Read Finished Job ID', reuse, i) : String((await startCrawl(this, body, i, run)).id);
		try {
			const outcome = await waitForJob(this, 'crawl', id, { maxWaitMs, onTimeout, startedAt, i, run });
			if (outcome.timedOut || outcome.documents.length === 0) return [{ json: outcome.status }];
			return outcome.documents.map((doc) => ({ json: pageJson(id, outcome.status, doc, mode) }));
		} catch (error) {
			return failOrItem(this, error, i);
		}
	},
};

const { getStatus, getErrors, cancel } = jobReadOperations('crawl');

const getActive: Operation = {
	properties: [],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = await apiRequest<IDataObject>(
			this,
			{ method: 'GET', path: '/crawl/active', itemIndex: i, hints: jobHints('crawl') },
			run?.transportDeps ?? defaultDeps,
		);
		const crawls = Array.isArray(body.crawls) ? (body.crawls as IDataObject[]) : [];
		return crawls.map((c) => ({ json: c }));
	},
};

const previewProperties: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com',
		description: 'The site the crawl would start from (an absolute http or https URL)',
	},
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. All blog posts, but no tag pages',
		description: 'What to crawl, in words. The output shows the crawl options the service derives from it (nothing is crawled).',
	},
];

const previewParams: Operation = {
	properties: previewProperties,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const node = this.getNode();
		const url = requireHttpUrl(node, 'URL', this.getNodeParameter('url', i, ''), i);
		const prompt = String(this.getNodeParameter('prompt', i, '') ?? '').trim();
		if (prompt === '' || prompt.length > 10_000) throw invalid(node, 'Prompt', prompt, 'it must hold 1 to 10,000 characters', i);
		const body = await apiRequest<IDataObject>(
			this,
			{ method: 'POST', path: '/crawl/params-preview', body: { url, prompt }, itemIndex: i, hints: jobHints('crawl') },
			run?.transportDeps ?? defaultDeps,
		);
		const data = body.data !== null && typeof body.data === 'object' ? (body.data as IDataObject) : {};
		return [{ json: data }];
	},
};

export const crawl: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'runAndWait',
		options: [
			{ name: 'Cancel', value: 'cancel', action: 'Cancel a crawl', description: 'Stop a running crawl' },
			{ name: 'Get Errors', value: 'getErrors', action: 'Get the errors of a crawl', description: 'Pages that failed and URLs blocked by robots.txt' },
			{ name: 'Get Many Running', value: 'getActive', action: 'Get many running crawls', description: 'Get the crawls of your team that are running now, one item each' },
			{ name: 'Get Status', value: 'getStatus', action: 'Get the status of a crawl', description: 'The status and the pages scraped so far' },
			{ name: 'Preview Parameters', value: 'previewParams', action: 'Preview crawl parameters from a prompt', description: 'The crawl options the service derives from a prompt, without crawling' },
			{ name: 'Run and Wait', value: 'runAndWait', action: 'Crawl a website and wait', description: 'Start a crawl, wait for it, and output one item per page (each page costs credits)' },
			{ name: 'Start', value: 'start', action: 'Start a crawl', description: 'Start a crawl and output its ID at once (each page costs credits)' },
		],
	},
	operations: { start, runAndWait, getStatus, getErrors, cancel, getActive, previewParams },
};
