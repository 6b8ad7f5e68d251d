import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody, customBodyOption } from '../../fields/customBody';
import { readScrapeOptions, requireHttpUrl, SCRAPE_OPTION_BODY_KEYS, scrapeOptionProperties } from '../../fields/scrapeOptions';
import { crawlDelayProblem, MAX_CRAWL_DELAY_S, pathPatternsIssue } from '../../fields/serverRules';
import { withoutEnvelope } from '../../helpers/objects';
import { invalid } from '../../helpers/validation';
import type { Operation, RunContext } from '../../types';
import { DEFAULT_CRAWL_LIMIT, documentCredits } from '../../budget/cost';
import { type JobStart, reserveJob, startUnderBudget } from '../../budget/jobs';
import { apiRequest, defaultDeps } from '../../transport';
import { applySharedOptions, checkInt, JOB_WEBHOOK_BODY_KEYS, maxConcurrencyOption, readOptions, webhookOptions, zeroDataRetentionOption } from './fields';
import { jobHints } from './crawlAndBatch';
import { assertWebhookUsable, triggerTargetOptions } from '../../jobs/triggerTarget';
import { aiValue, fromVersion2 } from '../../tool/fromAi';

export const MAX_LIMIT = 10_000;

/** Page Limit, small so a first crawl is cheap; not named `limit`: nodes/FACTS.md "n8n editor behaviour". */
export const CRAWL_LIMIT: INodeProperties = {
	displayName: 'Page Limit',
	name: 'pageLimit',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_LIMIT, numberPrecision: 0 },
	default: 10,
	description: 'The most pages to crawl',
	hint: 'Each page costs credits (a scrape each). Raise it once a first run looks right.',
};

/** The Start fields of a crawl (also used by Run and Wait). */
export const crawlFields: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com',
		description: 'The page to start crawling from (an absolute http or https URL). Links found on it are followed.',
	},
	CRAWL_LIMIT,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Allow External Links',
				name: 'allowExternalLinks',
				type: 'boolean',
				default: false,
				description: 'Whether to follow links to other websites',
			},
			{
				displayName: 'Allow Subdomains',
				name: 'allowSubdomains',
				type: 'boolean',
				default: false,
				description: 'Whether to follow links to subdomains of the site (blog.example.com for example.com)',
			},
			{
				displayName: 'Crawl Entire Domain',
				name: 'crawlEntireDomain',
				type: 'boolean',
				default: false,
				description: 'Whether to follow links to sibling and parent paths too, not only to pages below the start URL',
			},
			customBodyOption,
			{
				displayName: 'Delay (Seconds)',
				name: 'delay',
				type: 'number',
				typeOptions: { minValue: 0.1, maxValue: MAX_CRAWL_DELAY_S },
				default: 1,
				description: 'Seconds to wait between two pages, more than 0 and at most 60 (gentler on the site; sets concurrency to 1)',
			},
			{
				// Was "Prompt": the name says what the text is for (the parameter name stays "prompt").
				displayName: 'Describe What to Crawl',
				name: 'prompt',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
				placeholder: 'e.g. Only the blog posts from 2025',
				description:
					'What to crawl, in plain words: the service derives the crawl options from it (a model reads it). Options set here win over what it derives; Crawl → Preview Parameters shows what it would derive.',
			},
			{
				displayName: 'Exclude Paths',
				name: 'excludePaths',
				type: 'string',
				default: '',
				placeholder: 'e.g. blog/.*, tag/.*',
				description: 'Regular expressions on the URL path, separated by commas or new lines: pages that match are skipped',
			},
			{
				displayName: 'Ignore Query Parameters',
				name: 'ignoreQueryParameters',
				type: 'boolean',
				default: false,
				description: 'Whether to treat URLs that differ only in their query (?a=1) as the same page',
			},
			{
				displayName: 'Ignore Robots.txt',
				name: 'ignoreRobotsTxt',
				type: 'boolean',
				default: false,
				description: 'Whether to crawl pages the site\'s robots.txt disallows',
			},
			{
				displayName: 'Include Paths',
				name: 'includePaths',
				type: 'string',
				default: '',
				placeholder: 'e.g. docs/.*',
				description: 'Regular expressions on the URL path, separated by commas or new lines: only pages that match are crawled',
			},
			{
				displayName: 'Match Paths on Full URL',
				name: 'regexOnFullURL',
				type: 'boolean',
				default: false,
				description: 'Whether Include/Exclude Paths are matched against the whole URL (with its query) instead of the path',
			},
			maxConcurrencyOption('crawl'),
			{
				displayName: 'Max Discovery Depth',
				name: 'maxDiscoveryDepth',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 },
				default: 2,
				description: 'How many links away from the start page (and sitemap pages) to go. 0: only the start URL and sitemap pages.',
			},
			...triggerTargetOptions('crawl'),
			{
				displayName: 'Sitemap',
				name: 'sitemap',
				type: 'options',
				default: 'include',
				options: [
					{ name: 'Include', value: 'include', description: 'Use the sitemap and the links found on pages' },
					{ name: 'Skip', value: 'skip', description: 'Ignore the sitemap; only follow links' },
					{ name: 'Only', value: 'only', description: 'Only pages in the sitemap (plus the start URL)' },
				],
				description: 'How to use the site\'s sitemap',
			},
			...webhookOptions('crawl', 'crawl'),
			zeroDataRetentionOption,
		],
	},
	...scrapeOptionProperties(),
];

function pathList(raw: unknown): string[] {
	if (raw === undefined || raw === '') return [];
	return (Array.isArray(raw) ? raw.map(String) : String(raw).split(/[\n,]/)).map((s) => s.trim()).filter((s) => s !== '');
}

const PATH_FIELDS = { includePaths: 'Include Paths', excludePaths: 'Exclude Paths' };

/** Include/Exclude Paths as lists, checked like the server's crawl-regex.ts (see serverRules). */
function pathLists(node: INode, o: IDataObject, i: number): { include: string[]; exclude: string[] } {
	const include = pathList(o.includePaths);
	const exclude = pathList(o.excludePaths);
	const issue = pathPatternsIssue(include, exclude);
	if (issue) throw invalid(node, issue.field ? PATH_FIELDS[issue.field] : 'Include Paths / Exclude Paths', issue.value, issue.rule, i);
	return { include, exclude };
}

const SITEMAP = ['include', 'skip', 'only'];
const BOOLEANS = ['allowExternalLinks', 'allowSubdomains', 'crawlEntireDomain', 'ignoreQueryParameters', 'ignoreRobotsTxt', 'regexOnFullURL'];
const BOOLEAN_NAMES: Record<string, string> = {
	allowExternalLinks: 'Allow External Links',
	allowSubdomains: 'Allow Subdomains',
	crawlEntireDomain: 'Crawl Entire Domain',
	ignoreQueryParameters: 'Ignore Query Parameters',
	ignoreRobotsTxt: 'Ignore Robots.txt',
	regexOnFullURL: 'Match Paths on Full URL',
};

/** Reads and checks every crawl field of item i; the POST /v2/crawl body (ScrapeOptions nested). */
export function buildCrawlBody(ctx: IExecuteFunctions, i: number): IDataObject {
	const node = ctx.getNode();
	const body: IDataObject = { url: requireHttpUrl(node, 'URL', ctx.getNodeParameter('url', i, ''), i) };
	body.limit = checkInt(node, 'Page Limit', ctx.getNodeParameter('pageLimit', i, 10), 1, MAX_LIMIT, i);
	const o = readOptions(ctx, i);
	if (typeof o.prompt === 'string' && o.prompt.trim() !== '') {
		if (o.prompt.length > 10_000) throw invalid(node, 'Describe What to Crawl', o.prompt, 'at most 10,000 characters', i);
		body.prompt = o.prompt.trim();
	}
	if (o.maxDiscoveryDepth !== undefined) body.maxDiscoveryDepth = checkInt(node, 'Max Discovery Depth', o.maxDiscoveryDepth, 0, 100, i);
	const { include, exclude } = pathLists(node, o, i);
	if (include.length) body.includePaths = include;
	if (exclude.length) body.excludePaths = exclude;
	if (o.sitemap !== undefined) {
		if (!SITEMAP.includes(String(o.sitemap))) throw invalid(node, 'Sitemap', o.sitemap, `choose one of ${SITEMAP.join(', ')}`, i);
		body.sitemap = o.sitemap;
	}
	for (const key of BOOLEANS) {
		if (o[key] === undefined) continue;
		if (typeof o[key] !== 'boolean') throw invalid(node, BOOLEAN_NAMES[key], o[key], 'true or false', i);
		body[key] = o[key];
	}
	if (o.delay !== undefined) {
		const d = typeof o.delay === 'string' && o.delay.trim() !== '' ? Number(o.delay) : o.delay;
		const problem = crawlDelayProblem(d);
		if (problem) throw invalid(node, 'Delay (Seconds)', o.delay, problem, i);
		body.delay = d;
	}
	applySharedOptions(node, o, body, i);
	const scrapeOptions = readScrapeOptions(ctx, i);
	if (Object.keys(scrapeOptions).length) body.scrapeOptions = scrapeOptions;
	return applyCustomBody(ctx, i, { properties: crawlFields, bodyKeys: CRAWL_BODY_KEYS }, body);
}

export async function startCrawl(ctx: IExecuteFunctions, body: IDataObject, i: number, run?: RunContext): Promise<IDataObject> {
	await assertWebhookUsable(ctx, body.webhook, i);
	const reserved = await reserveCrawl(body, i, run);
	const res = await startUnderBudget(reserved, i, async () =>
		withoutEnvelope(
			await apiRequest<IDataObject>(ctx, { method: 'POST', path: '/crawl', body, itemIndex: i, hints: jobHints('crawl') }, run?.transportDeps ?? defaultDeps),
		),
	);
	return res;
}

/**
 * Under a budget a crawl gets what is left as its bound (issue 35.3): its page limit is lowered so
 * that limit × the least a page costs fits, and that much is held until it ends. `body.limit` is
 * changed before sending; the lowering is told in the items' `credits`.
 */
async function reserveCrawl(body: IDataObject, i: number, run?: RunContext): Promise<JobStart | undefined> {
	const budget = run?.transportDeps.budget;
	if (!budget) return undefined;
	await budget.ready();
	const perPage = documentCredits(body.scrapeOptions as IDataObject | undefined, { zdr: body.zeroDataRetention === true });
	const asked = typeof body.limit === 'number' ? body.limit : DEFAULT_CRAWL_LIMIT;
	const left = budget.left(i);
	if (asked * perPage > left && Math.floor(left / perPage) >= 1) {
		body.limit = Math.floor(left / perPage);
		budget.note(i, { pageLimitLowered: { from: asked, to: body.limit, creditsPerPage: perPage } });
	}
	const limit = typeof body.limit === 'number' ? body.limit : asked;
	return reserveJob(
		run,
		{ credits: limit * perPage, what: `this crawl (Page Limit ${limit}, at least ${perPage} credit${perPage === 1 ? '' : 's'} a page)`, lower: 'lower Page Limit or choose cheaper formats' },
		i,
	);
}

/** Body keys of a crawl set by fields of other names (its scrape options, its webhook). */
export const CRAWL_BODY_KEYS = { limit: ['pageLimit'], ...SCRAPE_OPTION_BODY_KEYS, ...JOB_WEBHOOK_BODY_KEYS };

/** Crawl → Start: the crawl's ID at once. */
export const start: Operation = {
	spends: true,
	tool: {
		description:
			'Start a crawl of ONE website (follows links from a start URL and scrapes up to a limit of pages) and return its crawl id at once; read its pages later with the crawl status tool and that id. Costs one scrape per page crawled, so keep the limit small.',
		fromAi: {
			url: aiValue('url', 'An absolute https URL where the crawl starts, e.g. https://example.com/docs'),
			pageLimit: fromVersion2(aiValue('limit', 'The most pages to crawl, 1 to 20 (each page costs credits)', 'number', 5)),
		},
	},
	properties: crawlFields,
	bodyKeys: CRAWL_BODY_KEYS,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = buildCrawlBody(this, i);
		return [{ json: await startCrawl(this, body, i, run) }];
	},
};
