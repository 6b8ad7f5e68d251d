import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { TransportDeps } from '../transport';

/** What the router shares with every item of one execution. */
export interface RunContext {
	/** Transport dependencies for this execution, with the shared pace of all its requests. */
	transportDeps: TransportDeps;
}

/** One operation of one resource: its parameters (plain data) and its handler. */
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
}

export interface Resource {
	/** The "Operation" selector shown for this resource. */
	operationProperty: INodeProperties;
	operations: Record<string, Operation>;
}
