import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

/** What a status read of an agent run means; builds say why it ended in different ways, and each is read (nodes/FACTS.md "Server request rules"). */
export type RunOutcome = 'running' | 'completed' | 'credit_limit_reached' | 'refused' | 'cancelled' | 'failed' | 'other';

export const IN_PROGRESS_STATUSES: readonly string[] = ['processing', 'pending', 'queued', 'running'];

type EndReason = 'credit_limit_reached' | 'refused' | 'cancelled';

/** Reasons by their normalized name (stopReason, errorCode, a thread run's or trace's outcome). */
const REASON_NAMES: Record<string, EndReason> = {
	credit_limit_reached: 'credit_limit_reached',
	credit_limit: 'credit_limit_reached',
	max_credits_exceeded: 'credit_limit_reached',
	max_credits_reached: 'credit_limit_reached',
	insufficient_credits: 'credit_limit_reached',
	refused: 'refused',
	agent_refused: 'refused',
	cancelled: 'cancelled',
	canceled: 'cancelled',
	agent_cancelled: 'cancelled',
};

const reasonByName = (value: unknown): EndReason | undefined =>
	typeof value === 'string' ? REASON_NAMES[value.trim().toLowerCase().replace(/[\s-]+/g, '_')] : undefined;

/** The reason in an error text of a build that sends nothing else. */
function reasonByText(value: unknown): EndReason | undefined {
	if (typeof value !== 'string') return undefined;
	if (/\b(max(imum)?[\s_-]*credits?|credit[\s_-]*limit)\b/i.test(value)) return 'credit_limit_reached';
	if (/\bcancel/i.test(value)) return 'cancelled';
	if (/\brefus/i.test(value)) return 'refused';
	return undefined;
}

/** Which field said why the run ended, for the messages: `stopReason "…"`, `errorCode "…"`, `error "…"`. */
export function endEvidence(job: IDataObject): string | undefined {
	for (const key of ['stopReason', 'errorCode', 'code']) {
		if (reasonByName(job[key]) !== undefined) return `${key} "${String(job[key])}"`;
	}
	if (reasonByText(job.error) !== undefined) return `error "${String(job.error)}"`;
	return undefined;
}

export function classifyRun(job: IDataObject): RunOutcome {
	const status = job.status;
	if (typeof status !== 'string') return 'other';
	if (IN_PROGRESS_STATUSES.includes(status)) return 'running';
	if (status === 'completed') return 'completed';
	// Statuses that name the end themselves (`cancelled` in the docs; a thread run's words).
	const named = reasonByName(status);
	if (named !== undefined) return named;
	if (status !== 'failed') return 'other';
	return reasonByName(job.stopReason) ?? reasonByName(job.errorCode) ?? reasonByName(job.code) ?? reasonByText(job.error) ?? 'failed';
}

export function isUnsuccessful(outcome: RunOutcome): boolean {
	return outcome === 'credit_limit_reached' || outcome === 'refused' || outcome === 'cancelled' || outcome === 'failed';
}

const MAX_PARTIAL_TEXT = 1500;

function partialText(partial: unknown): string {
	const text = JSON.stringify(partial);
	return text.length > MAX_PARTIAL_TEXT ? `${text.slice(0, MAX_PARTIAL_TEXT)}… (cut; the whole partial result is in the error's "partial")` : text;
}

/** Fields an error item of an unsuccessful run carries besides the error text. */
export function runFacts(job: IDataObject): IDataObject {
	const facts: IDataObject = { jobId: job.id, status: job.status };
	for (const key of ['stopReason', 'errorCode', 'creditsUsed', 'partial', 'partialSchemaValid']) {
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
	outputItem = 'Set "On Unsuccessful Run" to "Output Item" to get the run (with any partial result) as an item instead of an error.',
): NodeOperationError {
	const said = typeof job.error === 'string' && job.error !== '' ? ` The service said: "${job.error}".` : '';
	const hasPartial = job.partial !== undefined && job.partial !== null;
	const partial = hasPartial
		? ` A best-effort partial result was returned: ${partialText(job.partial)}.`
		: ' No partial result was returned.';
	let message: string;
	let description: string;
	const evidence = endEvidence(job);
	const reportedAs = evidence ? ` (the service reported ${evidence})` : '';
	if (outcome === 'credit_limit_reached') {
		const limit = maxCredits !== undefined ? `its Max Credits (${maxCredits})` : 'its credit limit (Max Credits, service default 2500)';
		message = `The agent run stopped at ${limit} before it finished`;
		description = `It ended with status "${String(job.status)}"${reportedAs}; failed runs are not charged (creditsUsed ${String(job.creditsUsed ?? 0)}).${partial} Raise Max Credits in Options, or narrow the prompt. ${outputItem}`;
	} else if (outcome === 'refused') {
		message = 'The agent refused the task';
		description = `It ended with status "${String(job.status)}"${reportedAs}.${said}${partial} Rephrase the prompt (say what to find and where), or look at its steps with Agent → Get Trace. ${outputItem}`;
	} else if (outcome === 'cancelled') {
		message = 'The agent run was cancelled before it finished';
		description = `Someone or something cancelled it (Agent → Cancel, another workflow, or the dashboard).${said}${partial} ${outputItem}`;
	} else {
		message = `The agent run failed${typeof job.error === 'string' && job.error !== '' ? `: ${job.error}` : ''}`;
		description = `The run ended with status "${String(job.status)}".${partial} Check the prompt (an agent can refuse a task), or look at its steps with Agent → Get Trace. ${outputItem}`;
	}
	const error = new NodeOperationError(node, message, {
		itemIndex,
		description: `${description} (Job ID ${String(job.id)})`,
	});
	Object.assign(error.context, runFacts(job), { outcome });
	return error;
}
