import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Operation } from '../types';
import type { CreditBudget, CreditBudgetError } from './index';

/**
 * What an operation's items say it cost (issue 35): `credits.used` by this node for the input item
 * (the whole request or job, also on each of its pages), `credits.execution` by every Web Data node of
 * the execution so far (also `$execution.customData.get("webdata_credits")` in a Code node: n8n's
 * expressions cannot call it, measured in 2.41 and 1.123 by test/e2e), and with a budget
 * `budget` and `left`. Only operations that spend (`Operation.spends`).
 */
export function withCredits(items: INodeExecutionData[], budget: CreditBudget, operation: Operation, i?: number): INodeExecutionData[] {
	if (!operation.spends) return items;
	const facts = budget.facts(i ?? 0);
	// Saved version-1 nodes keep their items as they were unless a budget is set (opt-in).
	if (!facts && budget.nodeVersion < 2) return items;
	const used = budget.spentFor(i);
	// Nothing spent and no budget (a paused Run and Wait, a session started): nothing to tell.
	if (used === 0 && !facts && budget.notes.size === 0) return items;
	const credits: IDataObject = { used, execution: budget.total() };
	if (facts) Object.assign(credits, { budget: facts.budget, left: facts.left });
	Object.assign(credits, i === undefined ? budget.notes.get(0) : budget.notes.get(i));
	return items.map((item) => (item.json.credits === undefined ? { ...item, json: { ...item.json, credits } } : item));
}

/**
 * As a tool: the refusal is the call's result. It says what is left and what would still fit, true
 * also where each call has its own budget (an MCP tools/call is an execution of its own).
 */
export function budgetToolResult(error: CreditBudgetError, budget: CreditBudget): INodeExecutionData[] {
	const facts = budget.facts() ?? {};
	const left = Number(error.context.creditsLeft ?? facts.left ?? 0);
	const next =
		left > 0
			? `A call that costs at most ${left} credit${left === 1 ? '' : 's'} still fits (ask for less: fewer results or pages, no JSON format); a larger one is refused the same way.`
			: 'The web data tools have no credits left in this run\'s budget: do not call them again in this run; answer with what you have, and say that the credit budget was reached.';
	return [
		{
			json: {
				creditBudgetReached: true,
				message: `${error.message}. Nothing was sent. ${next}`,
				budget: facts.budget,
				spent: facts.spent,
				left: facts.left,
			},
			pairedItem: { item: 0 },
		},
	];
}
