import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody, customBodyOption } from '../../fields/customBody';
import { documentJson, outputModeField, readOutputMode } from '../../fields/document';
import { readScrapeOptions, SCRAPE_HINTS, SCRAPE_OPTION_BODY_KEYS, scrapeOptionProperties } from '../../fields/scrapeOptions';
import { COUNTRY_RULE, isCountryCode, isSearchDomain, requestTimeoutProblem, SCRAPE_TIMEOUT_MS, SEARCH_FORMATS } from '../../fields/serverRules';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
import { reportedCredits, searchCredits } from '../../budget/cost';
import { apiRequest, defaultDeps } from '../../transport';

export const SOURCES = ['web', 'news', 'images'];
export const CATEGORIES = ['github', 'research', 'pdf'];
export const MAX_QUERY_LENGTH = 500;
export const MAX_LIMIT = 100;
const TIME_RANGES = ['qdr:h', 'qdr:d', 'qdr:w', 'qdr:m', 'qdr:y'];
const TBS = /^(qdr:[hdwmy]|sbd:1|cdr:1|cd_min:\d{1,2}\/\d{1,2}\/\d{4}|cd_max:\d{1,2}\/\d{1,2}\/\d{4})(,(qdr:[hdwmy]|sbd:1|cdr:1|cd_min:\d{1,2}\/\d{1,2}\/\d{4}|cd_max:\d{1,2}\/\d{1,2}\/\d{4}))*$/;

/** Limit of results, small so a first run is cheap; named `maxResults`: nodes/FACTS.md "n8n editor behaviour". */
export const SEARCH_LIMIT: INodeProperties = {
	displayName: 'Limit',
	name: 'maxResults',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_LIMIT, numberPrecision: 0 },
	default: 5,
	description: 'Max number of results to return',
	hint: 'Per source when several sources are chosen (1 to 100). Every result costs credits, and with Scrape Results on each result is also scraped (a scrape each).',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. best open source vector databases 2026',
		description: 'What to search for (at most 500 characters). Search operators such as site: work.',
	},
	SEARCH_LIMIT,
	{
		displayName: 'Sources',
		name: 'sources',
		type: 'multiOptions',
		default: ['web'],
		description: 'Where to search. Each result keeps its source in the "source" field.',
		options: [
			{ name: 'Images', value: 'images' },
			{ name: 'News', value: 'news' },
			{ name: 'Web', value: 'web' },
		],
	},
	{
		displayName: 'Categories',
		name: 'categories',
		type: 'multiOptions',
		default: [],
		description: 'Only results of these kinds (leave empty for all)',
		options: [
			{ name: 'GitHub', value: 'github', description: 'Repositories, code, issues' },
			{ name: 'PDF', value: 'pdf', description: 'PDF documents' },
			{ name: 'Research', value: 'research', description: 'Papers and academic sites' },
		],
	},
	{
		displayName: 'Scrape Results',
		name: 'scrapeResults',
		type: 'boolean',
		default: false,
		description: 'Whether to scrape each web and news result too, with the formats and options below (costs scrape credits per result)',
	},
	...scrapeOptionProperties({ scrapeResults: [true] }, SEARCH_FORMATS),
	outputModeField('the source, title, URL and description (plus the Markdown when results are scraped)'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Country',
				name: 'country',
				type: 'string',
				default: '',
				placeholder: 'e.g. US',
				description: 'Two-letter ISO country code for geo-targeted results. Best set together with Location.',
			},
			customBodyOption,
			{
				displayName: 'Custom Time Filter',
				name: 'tbs',
				type: 'string',
				default: '',
				placeholder: 'e.g. cdr:1,cd_min:1/1/2026,cd_max:3/31/2026',
				hint: 'A date range: cdr:1,cd_min:1/1/2026,cd_max:3/31/2026 (month/day/year). Newest first: sbd:1.',
				description:
					'Only results from a date range, written as cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY; or qdr:h, qdr:d, qdr:w, qdr:m, qdr:y for the last hour, day, week, month or year; sbd:1 sorts by date. Replaces Time Range.',
			},
			{
				displayName: 'Exclude Domains',
				name: 'excludeDomains',
				type: 'string',
				default: '',
				placeholder: 'e.g. pinterest.com, quora.com',
				description: 'Leave out results from these domains, separated by commas (cannot be combined with Include Domains)',
			},
			{
				displayName: 'Ignore Invalid URLs',
				name: 'ignoreInvalidURLs',
				type: 'boolean',
				default: false,
				description: 'Whether to drop results whose URLs other operations (Scrape, Crawl) could not use',
			},
			{
				displayName: 'Include Domains',
				name: 'includeDomains',
				type: 'string',
				default: '',
				placeholder: 'e.g. github.com, arxiv.org',
				description: 'Only results from these domains, separated by commas (host names only, no https:// or path)',
			},
			{
				displayName: 'Location',
				name: 'location',
				type: 'string',
				default: '',
				placeholder: 'e.g. San Francisco,California,United States',
				description: 'Search as if from this place',
			},
			{
				displayName: 'Safe Search',
				name: 'safe',
				type: 'boolean',
				default: false,
				description: 'Whether to filter explicit content from the results',
			},
			{
				displayName: 'Time Range',
				name: 'timeRange',
				type: 'options',
				default: 'qdr:w',
				options: [
					{ name: 'Past Day', value: 'qdr:d' },
					{ name: 'Past Hour', value: 'qdr:h' },
					{ name: 'Past Month', value: 'qdr:m' },
					{ name: 'Past Week', value: 'qdr:w' },
					{ name: 'Past Year', value: 'qdr:y' },
				],
				description: 'Only results published in this period',
			},
			{
				displayName: 'Timeout (Milliseconds)',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: SCRAPE_TIMEOUT_MS.min, maxValue: SCRAPE_TIMEOUT_MS.max, numberPrecision: 0 },
				default: 60000,
				description: 'How long the whole search (with scraping) may take, in milliseconds (1000 to 300000)',
			},
		],
	},
];

function domainList(node: INode, field: string, raw: unknown, i: number): string[] {
	const list = String(raw ?? '')
		.split(',')
		.map((d) => d.trim().toLowerCase())
		.filter((d) => d !== '');
	for (const d of list) {
		if (!isSearchDomain(d)) throw invalid(node, field, d, 'host names only, such as example.com (no https://, no path)', i);
	}
	if (list.length > 50) throw invalid(node, field, list.length, 'at most 50 domains', i);
	return list;
}

/** Builds and checks the POST /v2/search body from the node's fields (exported for unit tests). */
export function buildSearchBody(ctx: IExecuteFunctions, i: number): IDataObject {
	const node = ctx.getNode();
	const query = String(ctx.getNodeParameter('query', i, '') ?? '').trim();
	if (!query) throw invalid(node, 'Query', query, 'enter what to search for', i);
	if (query.length > MAX_QUERY_LENGTH) {
		throw invalid(node, 'Query', query, `at most ${MAX_QUERY_LENGTH} characters (it has ${query.length})`, i);
	}
	const body: IDataObject = { query };

	const limit = ctx.getNodeParameter('maxResults', i, 5);
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
		throw invalid(node, 'Limit', limit, `a whole number from 1 to ${MAX_LIMIT}`, i);
	}
	body.limit = limit;

	const sources = ctx.getNodeParameter('sources', i, ['web']);
	if (!Array.isArray(sources) || sources.length === 0) throw invalid(node, 'Sources', sources, 'choose at least one source', i);
	const badSource = sources.find((s) => !SOURCES.includes(String(s)));
	if (badSource !== undefined) throw invalid(node, 'Sources', badSource, `one of ${SOURCES.join(', ')}`, i);
	if (!(sources.length === 1 && sources[0] === 'web')) body.sources = sources.map((type) => ({ type }));

	const categories = ctx.getNodeParameter('categories', i, []);
	if (!Array.isArray(categories)) throw invalid(node, 'Categories', categories, 'a list', i);
	const badCategory = categories.find((c) => !CATEGORIES.includes(String(c)));
	if (badCategory !== undefined) throw invalid(node, 'Categories', badCategory, `one of ${CATEGORIES.join(', ')}`, i);
	if (categories.length) body.categories = categories.map((type) => ({ type }));

	const o = ctx.getNodeParameter('options', i, {}) as IDataObject;
	if (o.tbs !== undefined && String(o.tbs).trim() !== '') {
		const tbs = String(o.tbs).replace(/\s+/g, '');
		if (!TBS.test(tbs)) {
			throw invalid(node, 'Options → Custom Time Filter', o.tbs, 'qdr:h, qdr:d, qdr:w, qdr:m, qdr:y, sbd:1, or cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY', i);
		}
		body.tbs = tbs;
	} else if (o.timeRange !== undefined) {
		if (!TIME_RANGES.includes(String(o.timeRange))) throw invalid(node, 'Options → Time Range', o.timeRange, `one of ${TIME_RANGES.join(', ')}`, i);
		body.tbs = o.timeRange;
	}
	if (o.location !== undefined && String(o.location).trim() !== '') body.location = String(o.location).trim();
	if (o.country !== undefined && String(o.country).trim() !== '') {
		const country = String(o.country).trim().toUpperCase();
		// The server takes any text, but another code finds nothing: nodes/FACTS.md "Server request rules".
		if (!isCountryCode(country)) throw invalid(node, 'Options → Country', o.country, COUNTRY_RULE, i);
		body.country = country;
	}
	if (o.timeout !== undefined) {
		const problem = requestTimeoutProblem(o.timeout);
		if (problem) throw invalid(node, 'Options → Timeout (Milliseconds)', o.timeout, problem, i);
		body.timeout = o.timeout;
	}
	const include = o.includeDomains !== undefined ? domainList(node, 'Options → Include Domains', o.includeDomains, i) : [];
	const exclude = o.excludeDomains !== undefined ? domainList(node, 'Options → Exclude Domains', o.excludeDomains, i) : [];
	if (include.length && exclude.length) {
		throw invalid(node, 'Options → Exclude Domains', o.excludeDomains, 'use either Include Domains or Exclude Domains, not both', i);
	}
	if (include.length) body.includeDomains = include;
	if (exclude.length) body.excludeDomains = exclude;
	for (const key of ['ignoreInvalidURLs', 'safe'] as const) {
		if (o[key] !== undefined) body[key] = Boolean(o[key]);
	}

	if (ctx.getNodeParameter('scrapeResults', i, false) === true) {
		body.scrapeOptions = readScrapeOptions(ctx, i, SEARCH_FORMATS);
	}
	return applyCustomBody(ctx, i, search, body);
}

/** One item for a result: its source first, then the result (with the scraped page when asked). */
export function resultJson(source: string, result: IDataObject, compact: boolean): IDataObject {
	if (!compact) return { source, ...result };
	const out: IDataObject = { source, title: result.title ?? null, url: result.url ?? null };
	const description = result.description ?? result.snippet;
	if (description !== undefined) out.description = description;
	if (source === 'images' && result.imageUrl !== undefined) out.imageUrl = result.imageUrl;
	if (source === 'news' && result.date !== undefined) out.date = result.date;
	const scraped = documentJson(result, 'compact', typeof result.url === 'string' ? result.url : undefined);
	for (const key of ['markdown', 'summary', 'json', 'changeStatus', 'error'] as const) {
		if (scraped[key] !== undefined) out[key] = scraped[key];
	}
	return out;
}

/** Search → Search: one POST /v2/search per input item, one output item per result. */
export const search: Operation = {
	spends: true,
	bodyKeys: { limit: ['maxResults'], ...SCRAPE_OPTION_BODY_KEYS, tbs: ['timeRange'] },
	tool: {
		description:
			'Search the web when you do not know which page has the answer. Returns a list of results (title, URL, short description); when results are scraped, a compact list of pages whose content you read with page=N. Costs search credits per call, plus one scrape per result when results are scraped. Prefer scrape when you already know the URL.',
		fromAi: {
			query: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('query', 'What to search for, at most 500 characters; operators such as site:example.com work', 'string') }}",
			maxResults: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('limit', 'How many results, 1 to 10 (each result costs credits)', 'number', 5) }}",
		},
		pageList: 'search',
	},
	properties,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = buildSearchBody(this, i);
		const mode = readOutputMode(this, i);
		const scrapeTimeout = (body.scrapeOptions as IDataObject | undefined)?.timeout;
		const timeoutMs = (typeof body.timeout === 'number' ? body.timeout : 60_000) + (typeof scrapeTimeout === 'number' ? scrapeTimeout : 0) + 30_000;
		const answer = await apiRequest<IDataObject>(
			this,
			{
				method: 'POST',
				path: '/search',
				body,
				itemIndex: i,
				hints: SCRAPE_HINTS,
				timeoutMs,
				cost: {
					credits: searchCredits(body),
					what: `this search (up to ${String(body.limit ?? 5)} results${body.scrapeOptions ? ', each scraped' : ''})`,
					lower: 'lower Limit, or do not scrape the results',
					reported: reportedCredits,
				},
			},
			run?.transportDeps ?? defaultDeps,
		);
		const data = (answer.data ?? {}) as IDataObject;
		const items: INodeExecutionData[] = [];
		// Known sources in the order asked for, then any source the service adds later.
		const asked = Array.isArray(body.sources) ? (body.sources as IDataObject[]).map((s) => String(s.type)) : ['web'];
		const order = [...asked, ...Object.keys(data).filter((k) => !asked.includes(k))];
		for (const source of order) {
			const results = data[source];
			if (!Array.isArray(results)) continue;
			for (const result of results as IDataObject[]) {
				items.push({ json: resultJson(source, result, mode === 'compact') });
			}
		}
		// No results, no items (n8n's "Always Output Data" setting gives an empty item when wanted).
		return items;
	},
};
