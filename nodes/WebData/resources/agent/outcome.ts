import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

/**
 * What a status read of an agent run means (spec 3; api-facts 4):
 * - `running`: `processing` (or another well-known in-progress word): keep waiting;
 * - `completed`: the result is in `data`;
 * - `credit_limit_reached`: `failed` with `stopReason: credit_limit_reached` (no HTTP error, `data`
 *   absent, `creditsUsed` 0, maybe a `partial`);
 * - `cancelled`: `failed` with a cancellation message (or the status `cancelled` the docs mention);
 * - `failed`: any other `failed` (refused, internal error, …);
 * - `other`: a status the spec does not list. It ends a wait and passes through untouched.
 */
export type RunOutcome = 'running' | 'completed' | 'credit_limit_reached' | 'cancelled' | 'failed' | 'other';

export const IN_PROGRESS_STATUSES: readonly string[] = ['processing', 'pending', 'queued', 'running'];

export function classifyRun(job: IDataObject): RunOutcome {
	const status = job.status;
	if (typeof status !== 'string') return 'other';
	if (IN_PROGRESS_STATUSES.includes(status)) return 'running';
	if (status === 'completed') return 'completed';
	if (status === 'cancelled') return 'cancelled';
	if (status !== 'failed') return 'other';
	if (job.stopReason === 'credit_limit_reached') return 'credit_limit_reached';
	if (job.stopReason === 'cancelled' || (typeof job.error === 'string' && /cancel/i.test(job.error))) return 'cancelled';
	return 'failed';
}

export function isUnsuccessful(outcome: RunOutcome): boolean {
	return outcome === 'credit_limit_reached' || outcome === 'cancelled' || outcome === 'failed';
}

const MAX_PARTIAL_TEXT = 1500;

function partialText(partial: unknown): string {
	const text = JSON.stringify(partial);
	return text.length > MAX_PARTIAL_TEXT ? `${text.slice(0, MAX_PARTIAL_TEXT)}… (cut; the whole partial result is in the error's "partial")` : text;
}

/** Fields an error item of an unsuccessful run carries besides the error text. */
export function runFacts(job: IDataObject): IDataObject {
	const facts: IDataObject = { jobId: job.id, status: job.status };
	for (const key of ['stopReason', 'creditsUsed', 'partial', 'partialSchemaValid']) {
		if (job[key] !== undefined) facts[key] = job[key];
	}
	return facts;
}

/**
 * The node error for a run that ended without a result: it says which way it ended, what the
 * service said, includes the partial result, and what to do. `context` holds the job facts.
 */
export function unsuccessfulRunError(
	node: INode,
	job: IDataObject,
	outcome: RunOutcome,
	itemIndex: number,
	maxCredits?: number,
): NodeOperationError {
	const said = typeof job.error === 'string' && job.error !== '' ? ` The service said: "${job.error}".` : '';
	const hasPartial = job.partial !== undefined && job.partial !== null;
	const partial = hasPartial
		? ` A best-effort partial result was returned: ${partialText(job.partial)}.`
		: ' No partial result was returned.';
	const outputItem = 'Set "On Unsuccessful Run" to "Output Item" to get the run (with any partial result) as an item instead of an error.';
	let message: string;
	let description: string;
	if (outcome === 'credit_limit_reached') {
		const limit = maxCredits !== undefined ? `its Max Credits (${maxCredits})` : 'its credit limit (Max Credits, service default 2500)';
		message = `The agent run stopped at ${limit} before it finished`;
		description = `stopReason "credit_limit_reached": failed runs are not charged (creditsUsed ${String(job.creditsUsed ?? 0)}).${partial} Raise Max Credits in Options, or narrow the prompt. ${outputItem}`;
	} else if (outcome === 'cancelled') {
		message = 'The agent run was cancelled before it finished';
		description = `Someone or something cancelled it (Agent → Cancel, another workflow, or the dashboard).${said}${partial} ${outputItem}`;
	} else {
		message = `The agent run failed${typeof job.error === 'string' && job.error !== '' ? `: ${job.error}` : ''}`;
		description = `The run ended with status "failed".${partial} Check the prompt (an agent can refuse a task), or look at its steps with Agent → Get Trace. ${outputItem}`;
	}
	const error = new NodeOperationError(node, message, {
		itemIndex,
		description: `${description} (Job ID ${String(job.id)})`,
	});
	Object.assign(error.context, runFacts(job), { outcome });
	return error;
}
