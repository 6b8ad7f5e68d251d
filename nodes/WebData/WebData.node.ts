import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { budgetFor } from './budget';
import { withCredits } from './budget/output';
import { resourceProperties } from './fields/description';
import { asNodeError, errorItem, isCancellation } from './helpers/items';
import { runPool } from './helpers/pool';
import { continueWaiting, resumeWebhook } from './jobs/resume';
import { chooseMode } from './tool/mode';
import { toolDescriptionProperties, toolResultProperties } from './tool/tool';
import type { Operation, Resource, RunContext } from './types';
import { searchActiveCrawls } from './methods/crawlSearch';
import { searchAgentRuns } from './methods/agentSearch';
import { searchInteractSessions } from './methods/interactSearch';
import { searchMonitorChecks, searchMonitors } from './methods/monitorSearch';
import { account } from './resources/account';
import { agent } from './resources/agent';
import { batchScrape } from './resources/batchScrape';
import { crawl } from './resources/crawl';
import { extract } from './resources/extract';
import { interact } from './resources/interact';
import { map } from './resources/map';
import { monitor } from './resources/monitor';
import { parse } from './resources/parse';
import { scrape } from './resources/scrape';
import { search } from './resources/search';
import { CREDENTIAL_TYPE, defaultDeps } from './transport';
import { PaceRegistry, paceFor } from './transport/paceRegistry';

/** One per execution and credential (bounded). */
const paces = new PaceRegistry();

/** "Scrape a URL", for messages a model reads. */
function toolAction(resource: string, operation: string): string {
	const option = resources[resource]?.operationProperty.options?.find((o) => 'value' in o && o.value === operation) as
		| { action?: string; name: string }
		| undefined;
	return option?.action ?? option?.name ?? `${resource} ${operation}`;
}

const resources: Record<string, Resource> = {
	scrape,
	search,
	map,
	crawl,
	batchScrape,
	extract,
	interact,
	parse,
	monitor,
	agent,
	account,
};

function operationOf(resource: unknown, operation: unknown): Operation | undefined {
	if (typeof resource !== 'string' || typeof operation !== 'string') return undefined;
	const r = Object.prototype.hasOwnProperty.call(resources, resource) ? resources[resource] : undefined;
	return r && Object.prototype.hasOwnProperty.call(r.operations, operation) ? r.operations[operation] : undefined;
}

export class WebData implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Web Data',
		name: 'webData',
		icon: { light: 'file:webdata.svg', dark: 'file:webdata.dark.svg' },
		group: ['transform'],
		// A new default is a new version (FACTS.md "Defaults are not saved").
		version: [1, 2],
		defaultVersion: 2,
		// n8n's usual subtitle shows internal values; a unit test holds this literal to the Resource and Operation lists.
		subtitle:
			'={{ ({"account:getCreditUsage":"Account: Get Credit Usage","account:getCreditUsageHistory":"Account: Get Credit Usage History","account:getActivity":"Account: Get Many Recent Jobs","account:getQueueStatus":"Account: Get Queue Status","account:getTokenUsage":"Account: Get Token Usage","account:getTokenUsageHistory":"Account: Get Token Usage History","agent:cancel":"Agent: Cancel","agent:get":"Agent: Get","agent:getMany":"Agent: Get Many","agent:getSnapshot":"Agent: Get Snapshot","agent:getTrace":"Agent: Get Trace","agent:runAndWait":"Agent: Run and Wait","agent:start":"Agent: Start","batchScrape:cancel":"Batch Scrape: Cancel","batchScrape:getErrors":"Batch Scrape: Get Errors","batchScrape:getStatus":"Batch Scrape: Get Status","batchScrape:runAndWait":"Batch Scrape: Run and Wait","batchScrape:start":"Batch Scrape: Start","crawl:cancel":"Crawl: Cancel","crawl:getErrors":"Crawl: Get Errors","crawl:getActive":"Crawl: Get Many Running","crawl:getStatus":"Crawl: Get Status","crawl:previewParams":"Crawl: Preview Parameters","crawl:runAndWait":"Crawl: Run and Wait","crawl:start":"Crawl: Start","extract:getStatus":"Extract: Get Status","extract:runAndWait":"Extract: Run and Wait","extract:start":"Extract: Start","interact:execute":"Interact: Execute","interact:getMany":"Interact: Get Many Sessions","interact:start":"Interact: Start Session","interact:stop":"Interact: Stop Session","map:mapUrl":"Map URL","monitor:create":"Monitor: Create","monitor:delete":"Monitor: Delete","monitor:get":"Monitor: Get","monitor:getCheck":"Monitor: Get Check","monitor:getMany":"Monitor: Get Many","monitor:getManyChecks":"Monitor: Get Many Checks","monitor:runCheck":"Monitor: Run Check Now","monitor:update":"Monitor: Update","parse:parseFile":"Parse File","scrape:scrapeUrl":"Scrape URL","search:search":"Search"})[$parameter["resource"] + ":" + $parameter["operation"]] || "" }}',
		description: 'Scrape, search, map and crawl the web, parse files to Markdown and JSON, watch pages for changes, and run web research agents',
		defaults: { name: 'Web Data' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'webDataApi', required: true }],
		// The resume URL of a paused Run and Wait.
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// resumeSuffix() in jobs/resume.ts: a delivery reaches only this node's wait.
				path: '={{ "webdata-" + $nodeId }}',
				restartWebhook: true,
				responseData: '',
			},
		],
		properties: [
			...toolDescriptionProperties(resources),
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				// Works as a regular node and as a tool (Parse needs a binary field, which a tool call never has).
				default: 'scrape',
				options: [
					{
						name: 'Account',
						value: 'account',
						description: 'Read credit and token usage and the scrape queue status of your team',
					},
					{
						name: 'Agent',
						value: 'agent',
						description: 'Hand open-ended web research to an autonomous agent',
					},
					{
						name: 'Batch Scrape',
						value: 'batchScrape',
						description: 'Scrape many URLs (one per input item) as one job',
					},
					{
						name: 'Crawl',
						value: 'crawl',
						description: 'Scrape every page of a website, following its links',
					},
					{
						name: 'Extract',
						value: 'extract',
						description: 'Get structured data from pages, or from the web, by a prompt or a JSON Schema',
					},
					{
						name: 'Interact',
						value: 'interact',
						description: 'Drive a browser session: click, fill forms and navigate on a scraped page',
					},
					{
						name: 'Map',
						value: 'map',
						description: 'List the URLs of a website quickly, without scraping them',
					},
					{
						name: 'Monitor',
						value: 'monitor',
						description: 'Watch pages, sites and web searches on a schedule and read what changed',
					},
					{
						name: 'Parse',
						value: 'parse',
						description: 'Turn your own files (PDF, Word, Excel, PowerPoint, EPUB, CSV, HTML) into Markdown and JSON',
					},
					{
						name: 'Scrape',
						value: 'scrape',
						description: 'Get one web page (or a public PDF or document URL) as Markdown, HTML, JSON, a screenshot and more',
					},
					{
						name: 'Search',
						value: 'search',
						description: 'Search the web, news or images, and optionally scrape each result',
					},
				],
			},
			...Object.entries(resources).flatMap(([name, resource]) => resourceProperties(name, resource)),
			...toolResultProperties(resources),
		],
	};

	methods = {
		listSearch: { searchActiveCrawls, searchAgentRuns, searchInteractSessions, searchMonitors, searchMonitorChecks },
	};

	/** n8n's own resume URL: nothing to look up, register or remove; the lint asks for them (FACTS.md "n8n engine lines"). */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const operation = operationOf(this.getNodeParameter('resource', ''), this.getNodeParameter('operation', ''));
		return await resumeWebhook.call(this, operation?.waiter);
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const resourceName = this.getNodeParameter('resource', 0) as string;
		const operationName = this.getNodeParameter('operation', 0) as string;
		const operation = operationOf(resourceName, operationName);
		// Issue 35: one ledger per execution and credential, in the execution's custom data.
		const budget = budgetFor(this);
		const checked = await continueWaiting(this, operation?.waiter, budget);
		if (checked) return [operation ? withCredits(checked, budget, operation, 0) : checked];
		if (!operation) {
			throw new NodeOperationError(
				this.getNode(),
				`The operation "${operationName}" of resource "${resourceName}" is not known`,
			);
		}
		const chosen = chooseMode(this, operation, budget, toolAction(resourceName, operationName));
		if ('answer' in chosen) return chosen.answer;
		const { mode } = chosen;
		// FACTS.md "Pace".
		const pace = paceFor(paces, this.getExecutionId(), this.getNode().credentials?.[CREDENTIAL_TYPE]?.id);
		const run: RunContext = { transportDeps: { ...defaultDeps, pace, budget, budgetMs: mode.retryBudgetMs } };
		if (operation.executeAll) {
			let out: INodeExecutionData[];
			try {
				out = await operation.executeAll.call(this, items, run);
			} catch (error) {
				return mode.end(error);
			}
			return [mode.output(out, false)];
		}
		const execute = operation.execute;
		if (!execute) {
			throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of resource "${resourceName}" cannot run`);
		}
		const concurrency = operation.concurrency ? operation.concurrency.call(this) : 1;
		let results: INodeExecutionData[][];
		try {
			results = await runPool(items.length, concurrency, async (i) => {
				try {
					const out = await execute.call(this, i, run);
					return withCredits(out, budget, operation, i).map((item) => ({ ...item, pairedItem: { item: i } }));
				} catch (error) {
					if (mode.endsRun(error)) throw asNodeError(this.getNode(), error, i);
					// An error item says what was counted for it too (a request that may have been billed).
					if (this.continueOnFail() && !isCancellation(error)) return withCredits([errorItem(error, i, this.getNode())], budget, operation, i);
					throw mode.itemError(error, i);
				}
			});
		} catch (error) {
			return mode.end(error);
		}
		return [mode.output(results.flat(), true)];
	}
}
