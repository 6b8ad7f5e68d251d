import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody, customBodyOption } from '../../fields/customBody';
import { requireHttpUrl, SCRAPE_HINTS } from '../../fields/scrapeOptions';
import type { Operation, RunContext } from '../../types';
import { COUNTRY_RULE, isCountryCode, requestTimeoutProblem, SCRAPE_TIMEOUT_MS } from '../../fields/serverRules';
import { invalid } from '../../helpers/validation';
import { apiRequest, defaultDeps } from '../../transport';

export const MAX_MAP_LIMIT = 100_000;
const SITEMAP_MODES = ['include', 'skip', 'only'];

const properties: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com',
		description: 'The website to list: an absolute http or https address',
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'perLink',
		description: 'How to split the links into items',
		options: [
			{ name: 'One Item per Link', value: 'perLink', description: 'Each link as its own item with URL, title and description' },
			{ name: 'One Item With All Links', value: 'single', description: 'One item with a "links" list and its "count"' },
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			customBodyOption,
			{
				displayName: 'Ignore Cache',
				name: 'ignoreCache',
				type: 'boolean',
				default: false,
				description: 'Whether to read the sitemap afresh instead of the copy the service keeps for up to 7 days',
			},
			{
				displayName: 'Ignore Query Parameters',
				name: 'ignoreQueryParameters',
				type: 'boolean',
				default: true,
				description: 'Whether to leave out URLs that differ only by their query string (?…)',
			},
			{
				displayName: 'Include Subdomains',
				name: 'includeSubdomains',
				type: 'boolean',
				default: true,
				description: 'Whether to list pages on subdomains (such as blog.example.com) too',
			},
			{
				displayName: 'Limit',
				name: 'limit',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 100000, numberPrecision: 0 },
				default: 50,
				description: 'Max number of results to return',
			},
			{
				displayName: 'Location Country',
				name: 'locationCountry',
				type: 'string',
				default: '',
				placeholder: 'e.g. DE',
				description: 'Two-letter ISO country code to map the site as seen from that country',
			},
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				placeholder: 'e.g. blog',
				description: 'Order the links by relevance to these words (most relevant first)',
			},
			{
				displayName: 'Sitemap',
				name: 'sitemap',
				type: 'options',
				default: 'include',
				options: [
					{ name: 'Include', value: 'include', description: 'Use the sitemap and the links found on pages' },
					{ name: 'Only', value: 'only', description: 'Only URLs listed in the sitemap' },
					{ name: 'Skip', value: 'skip', description: 'Ignore the sitemap; only links found on pages' },
				],
			},
			{
				displayName: 'Timeout (Milliseconds)',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: SCRAPE_TIMEOUT_MS.min, maxValue: SCRAPE_TIMEOUT_MS.max, numberPrecision: 0 },
				default: 60000,
				description: 'How long the service may work, in milliseconds (no limit when not set)',
			},
		],
	},
];

/** Builds and checks the POST /v2/map body. */
export function buildMapBody(ctx: IExecuteFunctions, i: number): IDataObject {
	const node = ctx.getNode();
	const body: IDataObject = { url: requireHttpUrl(node, 'URL', ctx.getNodeParameter('url', i, ''), i) };
	const o = ctx.getNodeParameter('options', i, {}) as IDataObject;
	if (o.search !== undefined && String(o.search).trim() !== '') body.search = String(o.search).trim();
	if (o.sitemap !== undefined) {
		if (!SITEMAP_MODES.includes(String(o.sitemap))) throw invalid(node, 'Options → Sitemap', o.sitemap, `one of ${SITEMAP_MODES.join(', ')}`, i);
		body.sitemap = o.sitemap;
	}
	for (const key of ['includeSubdomains', 'ignoreQueryParameters', 'ignoreCache'] as const) {
		if (o[key] !== undefined) body[key] = Boolean(o[key]);
	}
	if (o.limit !== undefined) {
		const l = o.limit;
		if (typeof l !== 'number' || !Number.isInteger(l) || l < 1 || l > MAX_MAP_LIMIT) {
			throw invalid(node, 'Options → Limit', l, `a whole number from 1 to ${MAX_MAP_LIMIT}`, i);
		}
		body.limit = l;
	}
	if (o.timeout !== undefined) {
		const problem = requestTimeoutProblem(o.timeout);
		if (problem) throw invalid(node, 'Options → Timeout (Milliseconds)', o.timeout, problem, i);
		body.timeout = o.timeout;
	}
	if (o.locationCountry !== undefined && String(o.locationCountry).trim() !== '') {
		const country = String(o.locationCountry).trim().toUpperCase();
		if (!isCountryCode(country)) throw invalid(node, 'Options → Location Country', o.locationCountry, COUNTRY_RULE, i);
		body.location = { country };
	}
	return applyCustomBody(ctx, i, mapUrl, body);
}

/** Map → Map URL: one POST /v2/map per input item; one item per link, or one item with all. */
export const mapUrl: Operation = {
	spends: true,
	bodyKeys: { location: ['locationCountry'] },
	tool: {
		description:
			'List the URLs of ONE website (with titles and descriptions when known) without reading the pages. One fast, cheap request. Use it to find the right page of a site before scraping it; use crawl to read many pages.',
		fromAi: { url: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('url', 'An absolute https URL of the website to list, e.g. https://example.com', 'string') }}" },
	},
	properties,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = buildMapBody(this, i);
		const output = this.getNodeParameter('output', i, 'perLink');
		if (output !== 'perLink' && output !== 'single') {
			throw invalid(this.getNode(), 'Output', output, 'one of perLink, single', i);
		}
		const timeoutMs = (typeof body.timeout === 'number' ? body.timeout : 120_000) + 30_000;
		const answer = await apiRequest<IDataObject>(
			this,
			{ method: 'POST', path: '/map', body, itemIndex: i, hints: SCRAPE_HINTS, timeoutMs, cost: { credits: 1, what: 'this map' } },
			run?.transportDeps ?? defaultDeps,
		);
		// Older servers answer with plain URL strings; newer ones with {url, title, description}.
		const raw = Array.isArray(answer.links) ? (answer.links as unknown[]) : [];
		const links = raw.map((l): IDataObject => (typeof l === 'string' ? { url: l } : (l as IDataObject)));
		if (output === 'single') return [{ json: { url: body.url, count: links.length, links } }];
		return links.map((link) => ({ json: { ...link, url: link.url ?? null } }));
	},
};
