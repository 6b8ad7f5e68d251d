import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, IPairedItemData } from 'n8n-workflow';

import { applyCustomBody, customBodyOption } from '../../fields/customBody';
import { documentUrl, type OutputMode, readOutputMode } from '../../fields/document';
import { readScrapeOptions, requireHttpUrl, scrapeOptionProperties } from '../../fields/scrapeOptions';
import { isToolRun, readToolJobId } from '../../tool/tool';
import type { Operation, Resource, RunContext } from '../../helpers/types';
import { readWaitMethod, resumeFacts, startAndWaitForWebhook, WAIT_METHOD_WEBHOOK } from '../../jobs/resume';
import { requireUuid } from '../../helpers/validation';
import { assertTriggerVerifiable, triggerTargetOptions } from '../../jobs/triggerTarget';
import { maxWaitField, onTimeoutField, readMaxWaitMs, readOnTimeout } from '../../jobs/wait';
import { apiRequest, defaultDeps } from '../../transport';
import { applySharedOptions, maxConcurrencyOption, readOptions, webhookOptions, zeroDataRetentionOption } from '../crawl/fields';
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
} from '../crawl/jobs';

/**
 * Batch Scrape: the URL of EVERY input item goes into ONE job (POST /v2/batch/scrape). Its body has
 * `urls` and the ScrapeOptions fields at the TOP LEVEL (not nested under `scrapeOptions`).
 * Output pages are paired back to the input item whose URL they came from.
 */

const OUTPUT = JOB_OUTPUT;

const startFields: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '={{ $json.url }}',
		placeholder: 'e.g. https://example.com/page',
		description: 'The page to scrape, read from each input item with an expression. The URLs of all items go into one batch job.',
	},
	{
		displayName: 'Batch Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'Options of the whole job, read from the first input item',
		options: [maxConcurrencyOption('batch'), ...triggerTargetOptions('batch'), ...webhookOptions('batch', 'batch_scrape'), zeroDataRetentionOption, customBodyOption],
	},
	...scrapeOptionProperties(),
];

interface Prepared {
	urls: string[];
	/** Input item index of each URL sent (same order as `urls`). */
	indexes: number[];
	errors: INodeExecutionData[];
	body: IDataObject;
}

/** Reads every item's URL (error items under Continue On Fail) and the job options of item 0. */
function prepare(ctx: IExecuteFunctions, items: INodeExecutionData[]): Prepared {
	const node = ctx.getNode();
	const urls: string[] = [];
	const indexes: number[] = [];
	const errors: INodeExecutionData[] = [];
	// As a tool there is one item (the model's call): its URL field may hold several URLs.
	const tool = isToolRun(ctx);
	items.forEach((_item, k) => {
		try {
			const raw = ctx.getNodeParameter('url', k, '');
			const list = tool && typeof raw === 'string' ? raw.split(/[\s,]+/).filter((u) => u !== '') : [raw];
			const checked = list.map((u) => requireHttpUrl(node, 'URL', u, k));
			for (const u of checked) {
				urls.push(u);
				indexes.push(k);
			}
		} catch (error) {
			errors.push(...failOrItem(ctx, error, k));
		}
	});
	const body: IDataObject = { urls };
	if (items.length > 0) {
		Object.assign(body, readScrapeOptions(ctx, 0));
		applySharedOptions(node, readOptions(ctx, 0), body, 0);
		applyCustomBody(ctx, 0, startFields, body);
	}
	return { urls, indexes, errors, body };
}

async function startBatch(ctx: IExecuteFunctions, body: IDataObject, run: RunContext): Promise<IDataObject> {
	await assertTriggerVerifiable(ctx, body.webhook, 0);
	const res = await apiRequest<IDataObject>(
		ctx,
		{ method: 'POST', path: '/batch/scrape', body, itemIndex: 0, hints: jobHints('batch') },
		run?.transportDeps ?? defaultDeps,
	);
	const { success: _s, ...rest } = res;
	void _s;
	return rest;
}

const pairedAll = (indexes: number[]): IPairedItemData[] => indexes.map((item) => ({ item }));

/** Error of the whole job: thrown, or (Continue On Fail) one error item paired to every URL's item. */
function jobFailure(ctx: IExecuteFunctions, error: unknown, indexes: number[]): INodeExecutionData[] {
	const item = failOrItem(ctx, error, indexes[0] ?? 0)[0];
	return [{ json: item.json, pairedItem: pairedAll(indexes) }];
}

function normalize(url: string): string {
	try {
		const u = new URL(url);
		return `${u.protocol}//${u.host.toLowerCase()}${u.pathname.replace(/\/+$/, '')}${u.search}`;
	} catch {
		return url;
	}
}

/** Pairs each page to the input item whose URL it came from (a URL given twice: in turn). */
export function pairPages(docs: IDataObject[], urls: string[], indexes: number[]): number[][] {
	const byUrl = new Map<string, number[]>();
	urls.forEach((u, k) => {
		const key = normalize(u);
		byUrl.set(key, [...(byUrl.get(key) ?? []), indexes[k]]);
	});
	const used = new Map<string, number>();
	return docs.map((doc) => {
		const meta = (doc.metadata ?? {}) as IDataObject;
		for (const candidate of [meta.sourceURL, meta.url, documentUrl(doc)]) {
			if (typeof candidate !== 'string') continue;
			const key = normalize(candidate);
			const list = byUrl.get(key);
			if (!list) continue;
			const n = used.get(key) ?? 0;
			used.set(key, n + 1);
			return [list[Math.min(n, list.length - 1)]];
		}
		return indexes; // not recognisable: paired to every input item of the job
	});
}

const start: Operation = {
	properties: startFields,
	async executeAll(this: IExecuteFunctions, items: INodeExecutionData[], run: RunContext): Promise<INodeExecutionData[]> {
		const p = prepare(this, items);
		if (p.urls.length === 0) return p.errors;
		try {
			const started = await startBatch(this, p.body, run);
			return [...p.errors, { json: { ...started, urls: p.urls.length }, pairedItem: pairedAll(p.indexes) }];
		} catch (error) {
			return [...p.errors, ...jobFailure(this, error, p.indexes)];
		}
	},
};

/** The pages of a completed job, each paired to the input item whose URL it came from. */
function pagedItems(id: string, status: IDataObject, documents: IDataObject[], mode: OutputMode, urls: string[], indexes: number[]): INodeExecutionData[] {
	const pairs = pairPages(documents, urls, indexes);
	return documents.map((doc, k) => ({
		json: pageJson(id, status, doc, mode),
		pairedItem: pairs[k].length === 1 ? { item: pairs[k][0] } : pairedAll(pairs[k]),
	}));
}

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

const runAndWait: Operation = {
	properties: [...startFields, ...jobWaitMethodFields('batch'), maxWaitField('batch scrape'), onTimeoutField('batch scrape', 'Get Status', 'scraping'), OUTPUT],
	async executeAll(this: IExecuteFunctions, items: INodeExecutionData[], run: RunContext): Promise<INodeExecutionData[]> {
		const p = prepare(this, items);
		const maxWaitMs = readMaxWaitMs(this, 0);
		const onTimeout = readOnTimeout(this, 0);
		const mode = readOutputMode(this, 0);
		const byWebhook = readWaitMethod(this, 0) === WAIT_METHOD_WEBHOOK;
		if (p.urls.length === 0) return p.errors;
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
			});
		}
		try {
			const startedAt = Date.now();
			// As a tool, a model may ask to read a finished job's pages again: nothing new starts.
			const reuse = readToolJobId(this, 0);
			const id = reuse !== undefined ? requireUuid(this.getNode(), 'Read Finished Job ID', reuse, 0) : String((await startBatch(this, p.body, run)).id);
			const outcome = await waitForJob(this, 'batch', id, { maxWaitMs, onTimeout, startedAt, i: 0, run });
			if (outcome.timedOut || outcome.documents.length === 0) {
				return [...p.errors, { json: outcome.status, pairedItem: pairedAll(p.indexes) }];
			}
			return [...p.errors, ...pagedItems(id, outcome.status, outcome.documents, mode, p.urls, p.indexes)];
		} catch (error) {
			return [...p.errors, ...jobFailure(this, error, p.indexes)];
		}
	},
};

const { getStatus, getErrors, cancel } = jobReadOperations('batch');

export const batchScrape: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'runAndWait',
		options: [
			{ name: 'Cancel', value: 'cancel', action: 'Cancel a batch scrape', description: 'Stop a running batch scrape job' },
			{ name: 'Get Errors', value: 'getErrors', action: 'Get the errors of a batch scrape', description: 'The URLs that failed and why' },
			{ name: 'Get Status', value: 'getStatus', action: 'Get the status of a batch scrape', description: 'The status and the pages scraped so far' },
			{ name: 'Run and Wait', value: 'runAndWait', action: 'Batch scrape and wait', description: 'Scrape the URL of every input item in one job, wait, and output one item per page (each page costs credits)' },
			{ name: 'Start', value: 'start', action: 'Start a batch scrape', description: 'Start one job with the URL of every input item and output its ID (each page costs credits)' },
		],
	},
	operations: { start, runAndWait, getStatus, getErrors, cancel },
};
