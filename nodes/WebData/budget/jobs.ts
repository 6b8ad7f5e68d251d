import type { IDataObject } from 'n8n-workflow';

import type { BudgetOverrun, RunContext } from '../types';
import type { Cost, CreditBudget, Hold } from './index';
import { PRICES } from './prices';

/**
 * Jobs under a budget (issue 35.3): a crawl, batch, extract or agent run reserves its bound before it
 * starts and holds it, by job ID, in the execution's ledger until it ends, so a wait on another worker
 * still counts it; when it ends its hold becomes what the service reports it spent.
 */

export interface JobStart {
	budget: CreditBudget;
	hold: Hold;
}

/** Reserves `cost` for a job about to start (refused: nothing is sent); undefined without a budget in play. */
export function reserveJob(run: RunContext | undefined, cost: Cost, i: number): JobStart | undefined {
	const budget = run?.transportDeps.budget;
	if (!budget) return undefined;
	return { budget, hold: budget.reserve(cost, i) };
}

/** Sends the start; the hold goes to the job when it has an ID, back to the budget when the start fails. */
export async function startUnderBudget<T extends { id?: unknown }>(reserved: JobStart | undefined, i: number, start: () => Promise<T>): Promise<T> {
	let started: T | undefined;
	try {
		started = await start();
	} finally {
		if (started === undefined) reserved?.budget.release(reserved.hold, i);
	}
	if (reserved) {
		if (typeof started.id === 'string' && started.id !== '') reserved.budget.holdForJob(reserved.hold, started.id, i);
		else reserved.budget.settle(reserved.hold, reserved.hold.credits, i);
	}
	return started;
}

/** `creditsUsed`, never less than its finished pages cost: the service bills in batches (may read 0). */
export function jobCredits(status: IDataObject | undefined, leastPerPage: number = PRICES.page): number | undefined {
	const v = status?.creditsUsed;
	if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
	const done = Number(status?.completed);
	return Number.isFinite(done) && done > 0 ? Math.max(v, done * leastPerPage) : v;
}

/**
 * The job ended: its hold becomes what it reports (the hold when it reports nothing). A job with no
 * hold counts only when this call started it (`own`): reading someone else's job spends nothing.
 */
export function settleEndedJob(budget: CreditBudget | undefined, jobId: string, status: IDataObject | undefined, i = 0, own = false, leastPerPage?: number): void {
	if (!budget) return;
	const held = budget.jobHold(jobId);
	const reported = jobCredits(status, leastPerPage);
	if (held > 0) budget.settleJob(jobId, reported ?? held, i);
	else if (own && reported !== undefined) budget.settleJob(jobId, reported, i);
}

/** Credits a job has spent per millisecond since it started. */
const spendRate = (spent: number, startedAt: number, now: number): number => spent / Math.max(1, now - startedAt);

/**
 * Under a budget, a running job is read again before it can spend what is left at the rate it has
 * spent so far (half that time), so a cancel comes soon after it passes (issue 35.3).
 */
export function budgetPollCap(budget: CreditBudget | undefined, jobId: string, status: IDataObject | undefined, startedAt: number, now: number, i = 0): number {
	if (!budget) return Infinity;
	const spent = jobCredits(status);
	const mayUse = budget.leftForJob(jobId, i);
	if (spent === undefined || spent <= 0 || mayUse === Infinity) return Infinity;
	const perMs = spendRate(spent, startedAt, now);
	return Math.max(0, (mayUse - spent) / perMs / 2);
}

/**
 * Whether a running job has spent past what it may (its hold and what nothing else took), or would
 * at the rate it has spent before it can be read again (`nextReadMs`, from `startedAt` to `now`):
 * then it is stopped now rather than after it has passed.
 */
export function pastBudget(
	budget: CreditBudget | undefined,
	jobId: string,
	status: IDataObject | undefined,
	i = 0,
	pace?: { startedAt: number; now: number; nextReadMs: number; leastPerPage?: number },
): BudgetOverrun | undefined {
	if (!budget) return undefined;
	const spent = jobCredits(status);
	if (spent === undefined) return undefined;
	const mayUse = budget.leftForJob(jobId, i);
	if (spent > mayUse) return { spent, mayUse };
	// Only a job whose pages cost more than was reserved for them can pass its hold (a PDF's pages, a
	// proxy turning to stealth): one that keeps to it ends within its bound and is never stopped early.
	const completed = Number(status?.completed ?? 0);
	const overRunning = pace?.leastPerPage !== undefined && completed > 0 && spent > completed * pace.leastPerPage;
	if (pace && overRunning && mayUse !== Infinity) {
		const perMs = spendRate(spent, pace.startedAt, pace.now);
		if (spent + perMs * pace.nextReadMs > mayUse) return { spent, mayUse };
	}
	return undefined;
}
