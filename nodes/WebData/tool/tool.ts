// Room tool/: everything an AI Agent's tool call gets — tool-mode detection and descriptions (tool),
// results shaped for a model (toolResult) and errors a model can act on (toolError). It may import
// helpers/ and n8n-workflow; never fields/, jobs/, resources/ or the node files. Layout: nodes/README.md.

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_TOOL_BUDGET,
	MAX_TOOL_BUDGET,
	MIN_TOOL_BUDGET,
	shapeToolResult,
	type ToolRequest,
} from './toolResult';
import type { Resource } from '../helpers/types';
import { invalid } from '../helpers/validation';

/**
 * The node as an AI Agent's tool. n8n builds the tool variant of a `usableAsTool` node itself
 * (n8n package, dist/tool-generation/ai-tools.js `convertNodeToAiTool`, n8n 2.41.1): type name +
 * "Tool", no main input, an `ai_tool` output, and — unless the node has its own `toolDescription`
 * property — a "Tool Description" (descriptionType auto|manual + toolDescription). With "auto",
 * n8n-workflow's `getToolDescriptionForNode` sends only "<action> in Web Data". This node therefore
 * brings its own `descriptionType`/`toolDescription`, shown only in the tool variant
 * (displayOptions `@tool`, n8n-workflow node-helpers.js: true when the type name ends in "Tool"):
 * "Per Operation" fills `toolDescription` with the text of the chosen operation (a hidden
 * parameter per operation, filled with its default by n8n's Workflow when it loads the node).
 * Parameters a model gives use `$fromAI(key, description, type, default)` expressions; the tool
 * variant gets them as defaults, with descriptions a model can act on. Each starts with n8n's marker
 * (n8n-workflow FROM_AI_AUTO_GENERATED_MARKER), so the editor shows the field as "defined
 * automatically by the model", as for its own tools, instead of the raw expression.
 */

const TOOL = { '@tool': [true] };

/** What each operation does for a model: what comes back, what it costs, when to pick it. */
export const TOOL_DESCRIPTIONS: Record<string, string> = {
	'scrape.scrapeUrl':
		'Read ONE web page whose URL you already know (a public PDF or document URL works too). Returns the page title and its main content as Markdown. Long content is cut at a marker that names the offset to ask for next. Costs one scrape (credits) per call. Pick it for a known page; use search when you do not know the page, map to list the URLs of a site, crawl to read many pages of one site.',
	'search.search':
		'Search the web when you do not know which page has the answer. Returns a list of results (title, URL, short description); when results are scraped, a compact list of pages whose content you read with page=N. Costs search credits per call, plus one scrape per result when results are scraped. Prefer scrape when you already know the URL.',
	'map.mapUrl':
		'List the URLs of ONE website (with titles and descriptions when known) without reading the pages. One fast, cheap request. Use it to find the right page of a site before scraping it; use crawl to read many pages.',
	'crawl.runAndWait':
		'Read many pages of ONE website: follows links from a start URL and scrapes up to a limit of pages, then returns a compact list (number, URL, title, short snippet) and a jobId. Read a page\'s content with page=N and that jobId (nothing is crawled again). Costs one scrape per page crawled, so keep the limit small; takes seconds to minutes. Use scrape for one page, map only to list URLs.',
	'crawl.getStatus':
		'Read a crawl that was already started, by its crawl ID: its status and a compact list of its pages; page=N gives page N\'s content. Costs nothing extra.',
	'batchScrape.runAndWait':
		'Scrape a known list of page URLs in one job and wait: returns a compact list (number, URL, title, short snippet) and a jobId; read a page\'s content with page=N and that jobId. Costs one scrape per URL.',
	'batchScrape.getStatus':
		'Read a batch scrape that was already started, by its ID: its status and a compact list of its pages; page=N gives page N\'s content.',
	'agent.runAndWait':
		'Hand an open-ended web research task to an autonomous research agent and wait for its answer (structured data). Slow (minutes) and the most expensive tool: it may spend many credits, up to its credit cap. Use it only when search and scrape are not enough.',
	'agent.get': 'Read one research agent run by its ID: its status and, once finished, its result.',
	'monitor.getMany': 'List the page monitors of this account: name, schedule, status and the summary of their last check.',
	'monitor.get': 'Read one page monitor by its ID: its targets, schedule and the summary of its last check.',
	'monitor.getManyChecks': 'List the checks of one page monitor (newest first): when each ran and how many pages were the same, changed, new or removed.',
	'monitor.getCheck': 'Read one check of a page monitor: which pages changed and how.',
};

/** `$fromAI` defaults of the tool variant: the parameters a model fills, described for it. */
const FROM_AI: Record<string, Record<string, string>> = {
	'scrape.scrapeUrl': {
		url: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('url', 'An absolute https URL of the one page to read, e.g. https://example.com/pricing', 'string') }}",
	},
	'search.search': {
		query: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('query', 'What to search for, at most 500 characters; operators such as site:example.com work', 'string') }}",
		maxResults: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('limit', 'How many results, 1 to 10 (each result costs credits)', 'number', 5) }}",
	},
	'map.mapUrl': {
		url: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('url', 'An absolute https URL of the website to list, e.g. https://example.com', 'string') }}",
	},
	'crawl.runAndWait': {
		url: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('url', 'An absolute https URL where the crawl starts, e.g. https://example.com/docs', 'string') }}",
		pageLimit: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('limit', 'The most pages to crawl, 1 to 20 (each page costs credits)', 'number', 5) }}",
	},
	'batchScrape.runAndWait': {
		url: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('urls', 'The absolute https URLs of the pages to read, separated by commas', 'string') }}",
	},
	'agent.runAndWait': {
		prompt: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('prompt', 'The research task in plain words: what to find out and what to return', 'string') }}",
	},
};

/** Operations whose result can be a list of pages, each readable with `page`. */
const PAGE_LISTS: Record<string, ToolRequest['source']> = {
	'search.search': 'search',
	'crawl.runAndWait': 'crawl',
	'crawl.getStatus': 'crawl',
	'batchScrape.runAndWait': 'batch',
	'batchScrape.getStatus': 'batch',
};

/** Operations that can read a finished job instead of starting one (`jobId`). */
export const JOB_REUSE = ['crawl.runAndWait', 'batchScrape.runAndWait'];

/** For the tool variant only: the `$fromAI` default of a parameter of one operation, if any. */
export function fromAiDefault(resource: string, operation: string, name: string): string | undefined {
	return FROM_AI[`${resource}.${operation}`]?.[name];
}

/** Whether this execution runs as an AI Agent's tool. */
export function isToolRun(ctx: IExecuteFunctions): boolean {
	if (ctx.getNode().type.endsWith('Tool')) return true;
	return typeof ctx.isToolExecution === 'function' && ctx.isToolExecution();
}

function described(resources: Record<string, Resource>, resource: string, operation: string): string {
	const own = TOOL_DESCRIPTIONS[`${resource}.${operation}`];
	if (own) return own;
	const option = resources[resource].operationProperty.options?.find((o) => 'value' in o && o.value === operation) as
		| { action?: string; description?: string; name: string }
		| undefined;
	const action = option?.action ?? option?.name ?? operation;
	return `${action} with the Web Data service${option?.description ? `: ${option.description}` : ''}.`;
}

/** "Tool Description" of the tool variant: per operation by default, or the user's own text. */
export function toolDescriptionProperties(resources: Record<string, Resource>): INodeProperties[] {
	const perOperation: INodeProperties[] = Object.entries(resources).flatMap(([resource, r]) =>
		Object.keys(r.operations).map(
			(operation): INodeProperties => ({
				displayName: 'Tool Description',
				name: 'toolDescription',
				type: 'hidden',
				default: described(resources, resource, operation),
				displayOptions: { show: { ...TOOL, descriptionType: ['operation'], resource: [resource], operation: [operation] } },
			}),
		),
	);
	return [
		{
			displayName: 'Tool Description',
			name: 'descriptionType',
			type: 'options',
			noDataExpression: true,
			default: 'operation',
			displayOptions: { show: TOOL },
			options: [
				{
					name: 'Per Operation',
					value: 'operation',
					description: 'Tell the model what the chosen operation returns, what it costs and when to pick it',
				},
				{ name: 'Set Manually', value: 'manual', description: 'Write the description yourself' },
				{ name: 'Action Name Only', value: 'auto', description: 'The short text n8n writes itself, such as "Scrape a URL in Web Data"' },
			],
		},
		{
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: '',
			required: true,
			typeOptions: { rows: 3 },
			displayOptions: { show: { ...TOOL, descriptionType: ['manual'] } },
			description: 'What the tool does, for the model: what it returns, what it costs and when to use it',
		},
		...perOperation,
	];
}

/** Fields of the tool variant only: the result budget and where to go on. */
export function toolResultProperties(): INodeProperties[] {
	const pageOps = Object.keys(PAGE_LISTS);
	const byOp = (keys: string[]) => ({
		resource: [...new Set(keys.map((k) => k.split('.')[0]))],
		operation: [...new Set(keys.map((k) => k.split('.')[1]))],
	});
	return [
		{
			displayName: 'Tool Result Budget (Characters)',
			name: 'toolResultBudget',
			type: 'number',
			typeOptions: { minValue: MIN_TOOL_BUDGET, maxValue: MAX_TOOL_BUDGET, numberPrecision: 0 },
			default: DEFAULT_TOOL_BUDGET,
			displayOptions: { show: TOOL },
			description:
				'The most characters one result hands to the model. Longer page content is cut at a marker that tells the model how to ask for the rest.',
		},
		{
			displayName: 'Continue From (Offset)',
			name: 'toolOffset',
			// A string field: it holds the model's $fromAI expression, not a number typed in. The number the
			// model gives is read and checked by readToolRequest (a whole number, naming the field).
			type: 'string',
			default: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('offset', 'Leave 0. When a result was cut, the offset its marker names, to read on', 'number', 0) }}",
			displayOptions: { show: TOOL },
			description: 'Where a cut result goes on: a character of the page content, or an entry of a list. The model fills it.',
		},
		{
			displayName: 'Page to Read',
			name: 'toolPage',
			type: 'string', // the model's $fromAI expression, like Continue From (Offset)
			default: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('page', 'Leave 0 for the list. To read one listed page in full, its number from the list', 'number', 0) }}",
			displayOptions: { show: { ...TOOL, ...byOp(pageOps) } },
			description: 'Which page of a list of pages to show in full (0 = the list). The model fills it.',
		},
		{
			displayName: 'Read Finished Job ID',
			name: 'toolJobId',
			type: 'string',
			default: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('jobId', 'Leave empty to start a new job. To read pages of a finished job, the jobId its list shows', 'string', '') }}",
			displayOptions: { show: { ...TOOL, ...byOp(JOB_REUSE) } },
			description: 'When set, the pages of this finished job are read and nothing new is started. The model fills it.',
		},
	];
}

function wholeNumber(ctx: IExecuteFunctions, name: string, field: string, fallback: number, min: number, max: number): number {
	const raw = ctx.getNodeParameter(name, 0, fallback);
	const value = raw === '' || raw === null || raw === undefined ? fallback : Number(raw);
	if (!Number.isInteger(value) || value < min || value > max) {
		throw invalid(ctx.getNode(), field, raw, `a whole number from ${min} to ${max}`, 0);
	}
	return value;
}

/** The tool's request (budget, offset, page), read before anything is sent. */
export function readToolRequest(ctx: IExecuteFunctions, resource: string, operation: string): ToolRequest {
	return {
		budget: wholeNumber(ctx, 'toolResultBudget', 'Tool Result Budget (Characters)', DEFAULT_TOOL_BUDGET, MIN_TOOL_BUDGET, MAX_TOOL_BUDGET),
		offset: wholeNumber(ctx, 'toolOffset', 'Continue From (Offset)', 0, 0, Number.MAX_SAFE_INTEGER),
		page: wholeNumber(ctx, 'toolPage', 'Page to Read', 0, 0, 1_000_000),
		source: PAGE_LISTS[`${resource}.${operation}`],
	};
}

/** The job ID a model asked to read instead of starting a new job, if any. */
export function readToolJobId(ctx: IExecuteFunctions, i: number): string | undefined {
	if (!isToolRun(ctx)) return undefined;
	const raw = String(ctx.getNodeParameter('toolJobId', i, '') ?? '').trim();
	return raw === '' ? undefined : raw;
}

/** The one item a model receives for this call. */
export function toolOutput(items: INodeExecutionData[], request: ToolRequest): INodeExecutionData[] {
	return [{ json: shapeToolResult(items.map((item) => item.json as IDataObject), request), pairedItem: { item: 0 } }];
}
