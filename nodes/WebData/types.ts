import type { IDataObject, IExecuteData, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeOperationError } from 'n8n-workflow';

import type { TransportDeps } from './transport';

/** What the router shares with every item of one execution. */
export interface RunContext {
	/** Transport dependencies for this execution, with the shared pace of all its requests. */
	transportDeps: TransportDeps;
}

/** What an operation is for a model when the node runs as an AI Agent's tool (tool/tool.ts). */
export interface ToolUse {
	/** What the operation does for a model: what comes back, what it costs, when to pick it. */
	description?: string;
	/** `$fromAI` defaults of the parameters a model fills, by parameter name. */
	fromAi?: Record<string, string>;
	/** The result is a list of pages, each readable with `page`. */
	pageList?: 'search' | 'crawl' | 'batch';
	/** A model may read a finished job's pages again instead of starting a job (`jobId`). */
	readsFinishedJob?: boolean;
}

/** Where a waiter reads its job: a check of the waiting execution. */
export type ResumeContext = IExecuteFunctions;

export type ResumeRead =
	| { running: true }
	| { running?: false; items: INodeExecutionData[]; error?: NodeOperationError; errorFacts?: IDataObject; pairedItem?: INodeExecutionData['pairedItem'] };

/** How a Run and Wait's job is waited for with "Resume on Completion Webhook" (jobs/resume.ts). */
export interface CompletionWaiter {
	/** The job in messages: "agent run", "crawl", "batch scrape". */
	noun: string;
	/** The noun of its On Timeout field: "run", "crawl", "batch scrape". */
	fieldNoun: string;
	/** The operation that reads the job later, for messages: "Agent → Get". */
	readOperation: string;
	/** The status a running job reports (the timed-out item's status): "processing", "scraping". */
	runningStatus: string;
	/** Short event names the webhook config asks for: only those that end the job. */
	events: string[];
	/** Delivery `type`s that end the job; any other type is answered 200 "ignored". */
	endEventTypes: string[];
	/**
	 * Reads the job at a check: its status first, its results only once it has ended. Gives the
	 * node's output: its items (paired to the input items), or its error, or `running`. `entry` is
	 * the waiting node's stack entry as the waiter knows it: the carried items, then the job's item
	 * ({id} and its pairedItem), and the kept facts in its metadata.
	 */
	resume(ctx: ResumeContext, jobId: string, entry: IExecuteData): Promise<ResumeRead>;
}

/** One operation of one resource: everything the node knows of it, in one place. */
export interface Operation {
	/** Parameters shown for this operation; displayOptions are added by the resource. */
	properties: INodeProperties[];
	/** Runs the operation for one input item; the router adds pairedItem. */
	execute?(this: IExecuteFunctions, itemIndex: number, run?: RunContext): Promise<INodeExecutionData[]>;
	/**
	 * Runs the operation once for ALL input items together (for example Batch Scrape: every item's
	 * URL in one job). Used instead of `execute` when present. It must set `pairedItem` on every
	 * output item itself and handle Continue On Fail itself.
	 */
	executeAll?(this: IExecuteFunctions, items: INodeExecutionData[], run: RunContext): Promise<INodeExecutionData[]>;
	/** How many items may run at once (default 1). Read once per execution from item 0. */
	concurrency?(this: IExecuteFunctions): number;
	/** What a model sees of it as a tool; without it, the tool variant describes it by its action name. */
	tool?: ToolUse;
	/**
	 * Request-body keys its fields set under another name: body key → those parameters. Custom
	 * Body Fields refuses each such key naming the field, even when the field is empty.
	 */
	bodyKeys?: Readonly<Record<string, readonly string[]>>;
	/** A Run and Wait that can wait with "Resume on Completion Webhook". */
	waiter?: CompletionWaiter;
}

export interface Resource {
	/** The "Operation" selector shown for this resource. */
	operationProperty: INodeProperties;
	operations: Record<string, Operation>;
}
