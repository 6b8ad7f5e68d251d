import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { isN8n227OrLater } from '../helpers/hostEngine';

/** Errors a model can act on: in tool use n8n hands the model the message only, so it carries everything (nodes/FACTS.md "n8n editor behaviour"). */

/** Retries of one call in tool use stay within this many ms: the model hears back, then decides. */
export const TOOL_RETRY_BUDGET_MS = 15_000;

/** Most fields of a 400 named in the message. */
const MAX_FIELDS = 5;

const secondsOf = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

function fieldsOf(details: unknown): string | undefined {
	if (!Array.isArray(details) || details.length === 0) return undefined;
	const parts = details.slice(0, MAX_FIELDS).map((d) => {
		const item = (d !== null && typeof d === 'object' ? d : {}) as JsonObject;
		const path = Array.isArray(item.path) && item.path.length > 0 ? item.path.join('.') : undefined;
		const message = typeof item.message === 'string' ? item.message : JSON.stringify(d);
		return path ? `${path}: ${message}` : message;
	});
	const more = details.length > MAX_FIELDS ? ` (and ${details.length - MAX_FIELDS} more)` : '';
	return `${parts.join('; ')}${more}`;
}

const sentence = (text: string): string => {
	const t = text.trim();
	return t === '' || /[.!?]$/.test(t) ? t : `${t}.`;
};

/** The message a model reads for a failed API call. */
export function apiErrorForModel(error: NodeApiError, what: string): string {
	const c = error.context as JsonObject;
	const status = typeof c.httpStatus === 'number' ? c.httpStatus : undefined;
	const code = typeof c.apiCode === 'string' ? c.apiCode : undefined;
	const attempts = typeof c.attempts === 'number' ? c.attempts : 1;
	const retryable = c.retryable === true;
	const elapsedMs = typeof c.elapsedMs === 'number' ? c.elapsedMs : 0;
	const stopWaitMs = typeof c.budgetStopWaitMs === 'number' ? c.budgetStopWaitMs : undefined;
	const retryAfterMs = typeof c.retryAfterMs === 'number' ? c.retryAfterMs : undefined;
	const budgetMs = typeof c.budgetMs === 'number' ? c.budgetMs : undefined;
	const hint = typeof c.hint === 'string' ? c.hint : '';
	const serverText = typeof c.serverText === 'string' && c.serverText !== '' ? c.serverText : error.message;

	const facts = [status !== undefined ? `HTTP ${status}` : 'no answer', code ? `code ${code}` : undefined].filter(Boolean).join(', ');
	const parts = [`${what} failed: ${sentence(`${serverText} (${facts})`)}`];
	const fields = fieldsOf(c.details);
	if (fields) parts.push(sentence(`Fields: ${fields}`));
	if (typeof c.requiresActionUrl === 'string') parts.push(`Action required at ${c.requiresActionUrl}.`);

	if (!retryable && status !== undefined) {
		parts.push('Retryable: no (the same call fails the same way).');
	} else {
		// 0 attempts: not sent, the execution's pace holds for a 429 another call of it heard.
		const tried =
			attempts > 1
				? `tried ${attempts} times over ${secondsOf(elapsedMs)} s`
				: attempts === 0
					? 'not sent: another call of this execution was answered 429'
					: 'tried once';
		let when: string;
		if (stopWaitMs !== undefined) {
			const by = status === 429 && retryAfterMs !== undefined ? ' (the service\'s Retry-After)' : '';
			when = `; retry after ${secondsOf(stopWaitMs)} s${by}${budgetMs !== undefined ? `: waiting longer would pass this tool's ${secondsOf(budgetMs)} s time budget` : ''}`;
		} else if (retryAfterMs !== undefined) {
			when = `; retry after ${secondsOf(retryAfterMs)} s (the service's Retry-After)`;
		} else {
			when = attempts > 1 ? '; retry later (at least 30 s)' : '';
		}
		parts.push(`Retryable: yes; ${tried}${when}.`);
	}
	if (hint) parts.push(`Next step: ${sentence(hint)}`);
	return parts.join(' ');
}

/**
 * The message a model reads for an error raised before or beside the API call (a field that
 * fails its rule, a job that failed or ran out of time): its message, then its description.
 */
export function operationErrorForModel(error: NodeOperationError, what: string): string {
	const message = sentence(error.message);
	const description = typeof error.description === 'string' ? error.description.trim() : '';
	const lead = message.startsWith(what) ? message : `${what} failed: ${message}`;
	return description ? `${lead} Next step: ${sentence(description)}` : lead;
}

/** An item's error passes the tool mode again when it ends the run. */
const rewritten = new WeakSet<Error>();

/** Rewrites the message of an error thrown in tool use so the model reads what it needs (once). */
export function forModel<T extends Error>(error: T, what: string): T {
	if (rewritten.has(error)) return error;
	if (error instanceof NodeApiError && typeof error.context.httpStatus !== 'undefined') {
		error.message = apiErrorForModel(error, what);
	} else if (error instanceof NodeOperationError || error instanceof NodeApiError) {
		error.message = operationErrorForModel(error as NodeOperationError, what);
	}
	rewritten.add(error);
	return error;
}

/**
 * A failed tool call on n8n before 2.27 is output as n8n 2.25+ would hand it to the model, so the agent
 * goes on; undefined when the error must be thrown. `newEngine`: isN8n227OrLater (tests pass it).
 */
export function toolErrorAsResult(
	ctx: IExecuteFunctions,
	error: unknown,
	newEngine = isN8n227OrLater(),
): INodeExecutionData[][] | undefined {
	if (newEngine || ctx.getNode().onError === 'stopWorkflow') return undefined;
	// A stopped execution stays stopped (helpers/items.ts isCancellation).
	if ((error as { name?: unknown } | null)?.name === 'AbortError') return undefined;
	if (typeof ctx.getExecutionCancelSignal === 'function' && ctx.getExecutionCancelSignal()?.aborted) return undefined;
	const message = error instanceof Error ? error.message : String(error);
	return [[{ json: { error: message }, pairedItem: { item: 0 } }]];
}
