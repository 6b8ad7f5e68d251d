import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, IPairedItemData } from 'n8n-workflow';

import { applyCustomBody, customBodyOption } from '../../fields/customBody';
import { documentUrl, type OutputMode } from '../../fields/document';
import { readScrapeOptions, requireHttpUrl, SCRAPE_OPTION_BODY_KEYS, scrapeOptionProperties } from '../../fields/scrapeOptions';
import { withoutEnvelope } from '../../helpers/objects';
import type { RunContext } from '../../types';
import { assertWebhookUsable, triggerTargetOptions } from '../../jobs/triggerTarget';
import { isToolRun } from '../../helpers/toolMode';
import { documentCredits } from '../../budget/cost';
import { reserveJob, startUnderBudget } from '../../budget/jobs';
import { apiRequest, defaultDeps } from '../../transport';
import { applySharedOptions, JOB_WEBHOOK_BODY_KEYS, maxConcurrencyOption, readOptions, webhookOptions, zeroDataRetentionOption } from '../crawl/fields';
import { failOrItem, jobHints, pageJson } from '../crawl/crawlAndBatch';

/**
 * Batch Scrape: the URL of EVERY input item goes into ONE job (POST /v2/batch/scrape). Its body has
 * `urls` and the ScrapeOptions fields at the TOP LEVEL (not nested under `scrapeOptions`).
 * Output pages are paired back to the input item whose URL they came from.
 */

/** Body keys of a batch scrape set by fields of other names (the URL of each item, scrape options, webhook). */
export const BATCH_BODY_KEYS = { urls: ['url'], ...SCRAPE_OPTION_BODY_KEYS, ...JOB_WEBHOOK_BODY_KEYS };

export const startFields: INodeProperties[] = [
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
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'Options of the whole job, read from the first input item',
		options: [maxConcurrencyOption('batch'), ...triggerTargetOptions('batch'), ...webhookOptions('batch', 'batch_scrape'), zeroDataRetentionOption, customBodyOption],
	},
	...scrapeOptionProperties(),
];

export interface Prepared {
	urls: string[];
	/** Input item index of each URL sent (same order as `urls`). */
	indexes: number[];
	errors: INodeExecutionData[];
	body: IDataObject;
}

/** Reads every item's URL (error items under Continue On Fail) and the job options of item 0. */
export function prepare(ctx: IExecuteFunctions, items: INodeExecutionData[]): Prepared {
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
		applyCustomBody(ctx, 0, { properties: startFields, bodyKeys: BATCH_BODY_KEYS }, body);
	}
	return { urls, indexes, errors, body };
}

/** `i` and `lower` for a caller whose batch comes from one item (Extract). */
export async function startBatch(
	ctx: IExecuteFunctions,
	body: IDataObject,
	run: RunContext | undefined,
	{ i = 0, lower = 'send fewer URLs (split the items with Loop Over Items) or choose cheaper formats' }: { i?: number; lower?: string } = {},
): Promise<IDataObject> {
	await assertWebhookUsable(ctx, body.webhook, i);
	// Issue 35.2: a batch that cannot fit in what is left is not sent (its URLs are the bound).
	await run?.transportDeps.budget?.ready();
	const urls = Array.isArray(body.urls) ? body.urls.length : 0;
	const perPage = documentCredits(body, { zdr: body.zeroDataRetention === true });
	const reserved = reserveJob(
		run,
		{ credits: urls * perPage, what: `this batch scrape (${urls} URL${urls === 1 ? '' : 's'}, at least ${perPage} credit${perPage === 1 ? '' : 's'} each)`, lower },
		i,
	);
	return await startUnderBudget(reserved, i, async () =>
		withoutEnvelope(
			await apiRequest<IDataObject>(ctx, { method: 'POST', path: '/batch/scrape', body, itemIndex: i, hints: jobHints('batch') }, run?.transportDeps ?? defaultDeps),
		),
	);
}

export const pairedAll = (indexes: number[]): IPairedItemData[] => indexes.map((item) => ({ item }));

/** Error of the whole job: thrown, or (Continue On Fail) one error item paired to every URL's item. */
export function jobFailure(ctx: IExecuteFunctions, error: unknown, indexes: number[]): INodeExecutionData[] {
	const item = failOrItem(ctx, error, indexes[0] ?? 0)[0];
	return [{ ...item, pairedItem: pairedAll(indexes) }];
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

/** The pages of a completed job, each paired to the input item whose URL it came from. */
export function pagedItems(id: string, status: IDataObject, documents: IDataObject[], mode: OutputMode, urls: string[], indexes: number[]): INodeExecutionData[] {
	const pairs = pairPages(documents, urls, indexes);
	return documents.map((doc, k) => ({
		json: pageJson(id, status, doc, mode),
		pairedItem: pairs[k].length === 1 ? { item: pairs[k][0] } : pairedAll(pairs[k]),
	}));
}
