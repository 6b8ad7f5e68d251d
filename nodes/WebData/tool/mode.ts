import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { type CreditBudget, isBudgetError } from '../budget';
import { budgetToolResult, withCredits } from '../budget/output';
import { asNodeError } from '../helpers/items';
import { isToolRun } from '../helpers/toolMode';
import type { Operation } from '../types';
import { readToolRequest, toolOutput } from './tool';
import { forModel, TOOL_RETRY_BUDGET_MS, toolErrorAsResult } from './toolError';
import type { ToolRequest } from './toolResult';

/** A regular node's run or a model's tool call, chosen once by the router (DESIGN "Tool use is a mode"). */
export interface RunMode {
	/** Per request, for retries. */
	readonly retryBudgetMs?: number;
	/** An item's failure that ends the run, whatever Continue On Fail says. */
	endsRun(error: unknown): boolean;
	itemError(error: unknown, i?: number): Error;
	/** Items, or it throws. */
	end(error: unknown): INodeExecutionData[][];
	/** `counted`: the items already say what they cost. */
	output(items: INodeExecutionData[], counted: boolean): INodeExecutionData[];
}

export function regularMode(ctx: IExecuteFunctions, operation: Operation, budget: CreditBudget): RunMode {
	return {
		endsRun: () => false,
		itemError: (error, i) => asNodeError(ctx.getNode(), error, i),
		end(error) {
			throw asNodeError(ctx.getNode(), error);
		},
		output: (items, counted) => (counted ? items : withCredits(items, budget, operation)),
	};
}

/** `action`: "Scrape a URL". `newEngine`: n8n 2.27+ (tests pass it). */
export function toolMode(
	ctx: IExecuteFunctions,
	budget: CreditBudget,
	request: ToolRequest,
	action: string,
	newEngine?: boolean,
): RunMode {
	const itemError = (error: unknown, i?: number) => forModel(asNodeError(ctx.getNode(), error, i), action);
	return {
		retryBudgetMs: TOOL_RETRY_BUDGET_MS,
		// A spent budget is the answer the model reads: it stops instead of retrying.
		endsRun: (error) => isBudgetError(error),
		itemError,
		end(error) {
			if (isBudgetError(error)) return [budgetToolResult(error, budget)];
			const nodeError = itemError(error);
			// Before n8n 2.27 the model hears the error as the tool's result.
			const asResult = toolErrorAsResult(ctx, nodeError, newEngine);
			if (asResult) return asResult;
			throw nodeError;
		},
		output: (items) => toolOutput(items, request),
	};
}

/** Or the answer when a tool call's own arguments fail. */
export function chooseMode(
	ctx: IExecuteFunctions,
	operation: Operation,
	budget: CreditBudget,
	action: string,
): { mode: RunMode } | { answer: INodeExecutionData[][] } {
	if (!isToolRun(ctx)) return { mode: regularMode(ctx, operation, budget) };
	let request: ToolRequest;
	try {
		// The budget, offset and page are checked before anything is sent.
		request = readToolRequest(ctx, operation);
	} catch (error) {
		const answer = toolErrorAsResult(ctx, error);
		if (answer) return { answer };
		throw asNodeError(ctx.getNode(), error);
	}
	return { mode: toolMode(ctx, budget, request, action) };
}
