import type { IDataObject, IExecuteData, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeOperationError } from 'n8n-workflow';

import type { TransportDeps } from './transport';
import type { CreditBudget } from './budget';

export interface RunContext {
	/** With the shared pace of all the execution's requests. */
	transportDeps: TransportDeps;
}

export interface FromAiSince {
	since: number;
	expression: string;
}

/** An operation as an AI Agent's tool (tool/tool.ts). */
export interface ToolUse {
	/** What comes back, what it costs, when to pick it. */
	description?: string;
	/** By parameter name; plain: every version (required and empty before), else from `since` on. */
	fromAi?: Record<string, string | FromAiSince>;
	/** Each page readable with `page`. */
	pageList?: 'search' | 'crawl' | 'batch';
	/** A model may read a finished job's pages again (`jobId`). */
	readsFinishedJob?: boolean;
}

export type ResumeContext = IExecuteFunctions;

/** What a Run and Wait does at Max Wait (jobs/wait.ts onTimeoutField). */
export type OnTimeout = 'returnStatus' | 'cancelAndFail' | 'fail';

export type ResumeRead =
	| { running: true; status?: IDataObject }
	| {
			running?: false;
			items: INodeExecutionData[];
			error?: NodeOperationError;
			errorFacts?: IDataObject;
			pairedItem?: INodeExecutionData['pairedItem'];
			/** What the ended job reports it spent (issue 35). */
			creditsUsed?: number;
	  };

/** How a Run and Wait's job is read with "Resume on Completion Webhook" (jobs/resume.ts). */
export interface CompletionWaiter {
	/** "agent run", "crawl", "batch scrape". */
	noun: string;
	/** "run", "crawl", "batch scrape". */
	fieldNoun: string;
	/** "Agent → Get". */
	readOperation: string;
	/** "processing", "scraping". */
	runningStatus: string;
	/** Short event names: only those that end the job. */
	events: string[];
	/** Any other type is answered 200 "ignored". */
	endEventTypes: string[];
	/** Status first, results only once ended. `entry`: the carried items, then the job's item, kept facts in its metadata. */
	resume(ctx: ResumeContext, jobId: string, entry: IExecuteData): Promise<ResumeRead>;
	/** Cancels a job past the credit budget and gives its partial result (issue 35.3). */
	stopAtBudget?(ctx: ResumeContext, jobId: string, entry: IExecuteData, over: BudgetOverrun, budget: CreditBudget): Promise<INodeExecutionData[]>;
}

export interface BudgetOverrun {
	spent: number;
	mayUse: number;
}

export interface Operation {
	/** displayOptions are added by the resource. */
	properties: INodeProperties[];
	/** One input item; the router adds pairedItem. */
	execute?(this: IExecuteFunctions, itemIndex: number, run?: RunContext): Promise<INodeExecutionData[]>;
	/** All input items at once (Batch Scrape); sets `pairedItem` and handles Continue On Fail itself. */
	executeAll?(this: IExecuteFunctions, items: INodeExecutionData[], run: RunContext): Promise<INodeExecutionData[]>;
	/** Default 1; read once per execution from item 0. */
	concurrency?(this: IExecuteFunctions): number;
	tool?: ToolUse;
	/** It spends credits: its items say what it cost, and its Options hold the Credit Budget per Execution. */
	spends?: boolean;
	/** Body keys its fields set under another name; Custom Body Fields refuses them. */
	bodyKeys?: Readonly<Record<string, readonly string[]>>;
	waiter?: CompletionWaiter;
}

export interface Resource {
	operationProperty: INodeProperties;
	/** Older versions keep operationProperty's default. */
	defaultOperationSince?: { version: number; operation: string };
	operations: Record<string, Operation>;
}
