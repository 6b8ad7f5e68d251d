import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	adoptLedger,
	type CreditStore,
	type CredentialAccount,
	executionStore,
	heldByJobs,
	LEDGER_KEY,
	type Ledger,
	localStore,
	parseLedger,
	serializeLedger,
	TOTAL_KEY,
} from './ledger';

export { LEDGER_KEY, TOTAL_KEY } from './ledger';

/**
 * The credit budget of one execution (issue 35; nodes/FACTS.md "Credit budget"). Every request that
 * spends credits reserves what it may cost before it is sent and settles with what the service
 * reports after; a request that cannot fit in what is left is not sent. Reserve, settle and release
 * read and write the execution's custom data with no await in between, so calls running side by side
 * (an AI Agent's parallel tool calls) never both take the same credits.
 */

/** What a request may cost, said before it is sent. */
export interface Cost {
	/** Credits: exact, or the least the service's rules say it costs. */
	credits: number;
	/** "this scrape", "this search of 5 results with scraping". */
	what: string;
	/** How to ask for less, for the refusal's message. */
	lower?: string;
	/** Credits the service reports in the answer; undefined = the estimate stands. */
	reported?: (answer: IDataObject) => number | undefined;
	/** Counted, never refused: a request that ends spending (stopping a browser session). */
	recordOnly?: boolean;
}

export interface Hold {
	credits: number;
}

/** The refusal: nothing was sent. A NodeOperationError so Continue On Fail makes it an error item. */
export class CreditBudgetError extends NodeOperationError {
	readonly creditBudget = true;
}

export function isBudgetError(error: unknown): error is CreditBudgetError {
	return (error as { creditBudget?: unknown })?.creditBudget === true;
}

/** A budget field's value: a whole number above 0, or none. */
export function budgetValue(raw: unknown): number | undefined {
	if (raw === undefined || raw === null || raw === '' || typeof raw === 'boolean') return undefined;
	const n = Number(raw);
	return Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export class CreditBudget {
	private credentialLimit: number | undefined;
	private credentialRead = false;
	/** Spent by this node's run, by input item. */
	private readonly byItem = new Map<number, number>();

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly store: CreditStore,
		private readonly credentialId: string,
		private readonly nodeName: string,
		/** The node's own budget option for an item (lower only). */
		private readonly nodeLimit: (i: number) => number | undefined,
		private readonly executionId?: string,
	) {}

	/** The credential's budget, as the transport read it with the request. */
	setCredentialLimit(raw: unknown): void {
		this.credentialLimit = budgetValue(raw);
		this.credentialRead = true;
	}

	/** Reads the credential's budget once, for a caller that must know what is left before building a request. */
	async ready(): Promise<void> {
		if (this.credentialRead) return;
		const credentials = await this.ctx.getCredentials('webDataApi');
		this.setCredentialLimit(credentials.creditBudget);
	}

	/** The budget for item i, or undefined: none. */
	limit(i = 0): number | undefined {
		const own = this.nodeLimit(i);
		if (own === undefined) return this.credentialLimit;
		return this.credentialLimit === undefined ? own : Math.min(own, this.credentialLimit);
	}

	private ledger(): Ledger {
		return adoptLedger(parseLedger(this.store.get(LEDGER_KEY)), this.executionId);
	}

	private account(ledger: Ledger): CredentialAccount {
		ledger.c[this.credentialId] ??= { s: 0, r: 0 };
		return ledger.c[this.credentialId];
	}

	/** Credits not spent, reserved or held, for item i; Infinity without a budget. */
	left(i = 0): number {
		const limit = this.limit(i);
		if (limit === undefined) return Infinity;
		const a = this.account(this.ledger());
		return Math.max(0, limit - a.s - a.r - heldByJobs(a));
	}

	/** Spent by every Web Data node of this execution (all credentials). */
	total(): number {
		const n = Number(this.store.get(TOTAL_KEY));
		const written = Number.isFinite(n) && n > 0 ? n : 0;
		// With one custom data key free the ledger takes it: the total is then the ledger's.
		const inLedger = Object.values(this.ledger().c).reduce((sum, a) => sum + a.s, 0);
		return Math.max(written, inLedger, this.spentFor());
	}

	/** Takes `cost.credits` from what is left, or refuses: nothing may be sent then. */
	reserve(cost: Cost, i = 0): Hold {
		const credits = Math.max(0, Math.ceil(cost.credits));
		const limit = this.limit(i);
		if (limit === undefined || cost.recordOnly) return { credits: 0 };
		const ledger = this.ledger();
		const a = this.account(ledger);
		const left = Math.max(0, limit - a.s - a.r - heldByJobs(a));
		// A request whose cost is unknown still needs a credit left.
		if (credits > left || left === 0) throw this.refusal(cost, credits, limit, ledger, i);
		a.r += credits;
		this.write(ledger, i, true);
		return { credits };
	}

	/** The request is answered: its hold becomes what it spent. */
	settle(hold: Hold, spent: number, i = 0): void {
		const credits = Math.max(0, Math.round(spent));
		this.change((a) => {
			a.r = Math.max(0, a.r - hold.credits);
			a.s += credits;
		}, credits, i);
	}

	/** The request was not answered with success: it spent nothing (spec 7: errors are not charged). */
	release(hold: Hold, i = 0): void {
		if (hold.credits === 0) return;
		this.change((a) => {
			a.r = Math.max(0, a.r - hold.credits);
		}, 0, i);
	}

	/** A started job keeps its hold until it ends, also across a wait on another worker. */
	holdForJob(hold: Hold, jobId: string, i = 0): void {
		if (hold.credits === 0) return;
		this.change((a) => {
			a.r = Math.max(0, a.r - hold.credits);
			a.j = { ...a.j, [jobKey(jobId)]: hold.credits };
		}, 0, i);
	}

	/** What the job holds (0 when it holds nothing). */
	jobHold(jobId: string): number {
		return this.account(this.ledger()).j?.[jobKey(jobId)] ?? 0;
	}

	/** Left for a running job: its own hold plus what nothing else has taken. */
	leftForJob(jobId: string, i = 0): number {
		const left = this.left(i);
		return left === Infinity ? Infinity : left + this.jobHold(jobId);
	}

	/** The job ended: its hold becomes what the service reports it spent. Once per job. */
	settleJob(jobId: string, spent: number, i = 0): void {
		const credits = Math.max(0, Math.round(spent));
		const key = jobKey(jobId);
		this.change((a) => {
			if (a.j) {
				delete a.j[key];
				if (Object.keys(a.j).length === 0) delete a.j;
			}
			a.s += credits;
		}, credits, i);
	}

	/** Spent by node, for messages: "Search: 10, Scrape: 7". */
	spentByNodes(): string {
		const entries = Object.entries(this.ledger().n).filter(([, v]) => v > 0);
		return entries.map(([name, v]) => `${name}: ${v}`).join(', ');
	}

	/** What a node's items say about the budget after a request. */
	facts(i = 0): IDataObject | undefined {
		const limit = this.limit(i);
		if (limit === undefined) return undefined;
		const a = this.account(this.ledger());
		return { budget: limit, spent: a.s, left: Math.max(0, limit - a.s - a.r - heldByJobs(a)) };
	}

	/** The node's version: version 1 items say what they cost only under a budget. */
	get nodeVersion(): number {
		return Number(this.ctx.getNode().typeVersion ?? 1);
	}

	/** What the budget changed for item i (a lowered limit), told in its items' `credits`. */
	readonly notes = new Map<number, IDataObject>();

	note(i: number, facts: IDataObject): void {
		this.notes.set(i, { ...this.notes.get(i), ...facts });
	}

	/** Spent by this node's run for input item i (all items when undefined). */
	spentFor(i?: number): number {
		if (i !== undefined) return this.byItem.get(i) ?? 0;
		let sum = 0;
		for (const v of this.byItem.values()) sum += v;
		return sum;
	}

	private change(edit: (a: CredentialAccount) => void, spent: number, i: number): void {
		if (spent > 0) {
			const total = String(this.total() + spent);
			this.byItem.set(i, (this.byItem.get(i) ?? 0) + spent);
			this.store.set(TOTAL_KEY, total);
			// With a budget the ledger holds the total too (one key is enough).
			if (this.store.get(TOTAL_KEY) !== total && this.store.get(LEDGER_KEY) === undefined) this.noRoom(i);
		}
		if (this.limit(i) === undefined && this.store.get(LEDGER_KEY) === undefined) return;
		const ledger = this.ledger();
		edit(this.account(ledger));
		if (spent > 0) ledger.n[this.nodeName] = (ledger.n[this.nodeName] ?? 0) + spent;
		this.write(ledger, i, false);
	}

	private toldNoRoom = false;

	/** n8n dropped the total (all 10 custom data keys taken): said on the item and, once, in the log. */
	private noRoom(i: number): void {
		const message = `n8n has no room for "${TOTAL_KEY}" in this execution's custom data (it keeps 10 keys, and other nodes set them all): credits.execution counts this node's run only. Remove a custom data key another node sets to get the execution's total.`;
		this.note(i, { customDataFull: message });
		if (this.toldNoRoom) return;
		this.toldNoRoom = true;
		this.ctx.logger?.warn(`Web Data node "${this.nodeName}": ${message}`);
	}

	/** Only a reservation refuses when the ledger cannot be written; after an answer nothing is lost for it. */
	private write(ledger: Ledger, i: number, refuse: boolean): void {
		const text = serializeLedger(ledger);
		if (text !== undefined) this.store.set(LEDGER_KEY, text);
		// n8n keeps 10 keys per execution and drops an 11th without a word: read back.
		if (refuse && (text === undefined || this.store.get(LEDGER_KEY) !== text)) {
			throw new CreditBudgetError(this.ctx.getNode(), 'The credit budget cannot be kept: the execution\'s custom data has no room for it', {
				itemIndex: i,
				description: `n8n keeps at most 10 custom data keys per execution, each up to 512 characters, and the budget needs the key "${LEDGER_KEY}". Remove a key another node sets (Execution Data node, $execution.customData.set), or run fewer jobs at once under the budget.`,
			});
		}
	}

	private refusal(cost: Cost, credits: number, limit: number, ledger: Ledger, i: number): CreditBudgetError {
		const a = this.account(ledger);
		const held = heldByJobs(a) + a.r;
		const left = Math.max(0, limit - a.s - held);
		const byNodes = this.spentByNodes();
		const source =
			this.nodeLimit(i) !== undefined && (this.credentialLimit === undefined || (this.nodeLimit(i) as number) < this.credentialLimit)
				? "this node's option Credit Budget per Execution"
				: "the credential's Credit Budget per Execution";
		const what = cost.what.charAt(0).toUpperCase() + cost.what.slice(1);
		const costText = credits > 0 ? `would cost at least ${plural(credits, 'credit')}` : 'needs at least 1 credit';
		const error = new CreditBudgetError(
			this.ctx.getNode(),
			`Credit budget reached: ${what} ${costText}, and ${left} of this execution's ${limit} are left`,
			{
				itemIndex: i,
				description: [
					`Nothing was sent. Spent in this execution with this credential: ${plural(a.s, 'credit')}${byNodes ? ` (${byNodes})` : ''}${held > 0 ? `; ${held} more are held by requests and jobs still running` : ''}.`,
					`The budget (${limit}) is ${source}.`,
					cost.lower ? `To go on, ${cost.lower}, or raise the budget.` : 'To go on, raise the budget.',
				].join(' '),
			},
		);
		Object.assign(error.context, { creditBudget: limit, creditsSpent: a.s, creditsLeft: left, creditsNeeded: credits });
		return error;
	}
}

const jobKey = (jobId: string): string => jobId.replace(/-/g, '').slice(0, 12);

/** The budget of a node's run: its execution, its credential, its node. */
export function budgetFor(ctx: IExecuteFunctions): CreditBudget {
	const store = executionStore(ctx) ?? localStore(ctx.getExecutionId() ?? 'no-execution');
	const node = ctx.getNode();
	const credentialId = node.credentials?.webDataApi?.id ?? 'default';
	const nodeLimit = (i: number): number | undefined => {
		try {
			return budgetValue(ctx.getNodeParameter('options.creditBudget', i, 0));
		} catch {
			return undefined;
		}
	};
	return new CreditBudget(ctx, store, credentialId, node.name, nodeLimit, ctx.getExecutionId() || undefined);
}
