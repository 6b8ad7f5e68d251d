import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody } from '../../fields/customBody';
import { errorItem } from '../../helpers/items';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
import { readErrorNote, waitFor } from '../../jobs/poller';
import { jobConcurrency, maxWaitField, onTimeoutField, readMaxWaitMs, readOnTimeout } from '../../jobs/wait';
import { settleEndedJob } from '../../budget/jobs';
import { defaultDeps } from '../../transport';
import { EXTRACT_BODY_KEYS, EXTRACT_FROM_AI, extractFields } from './fields';
import { emptyResultNote, getExtractJob, readExtractParameters, startExtract } from './request';
import { planExtract } from './route';
import { runPlan } from './routes';

/**
 * Extract: structured data from pages (or the web) by a prompt and/or a JSON Schema, on Scrape, Batch
 * Scrape or the Agent (routes.ts); below, Options → Endpoint "/extract". /extract has no cancel, so On
 * Timeout offers no "Cancel and Fail".
 */
export const TERMINAL = ['completed', 'failed', 'cancelled'];

/** On Timeout without "Cancel and Fail" (the service cannot cancel an extract job). */
const onTimeout: INodeProperties = (() => {
	const field = onTimeoutField('extract job', 'Get Status', 'processing');
	return { ...field, options: (field.options ?? []).filter((o) => 'value' in o && o.value !== 'cancelAndFail') };
})();

function failOrItem(ctx: IExecuteFunctions, error: NodeOperationError, job: IDataObject, i: number): INodeExecutionData[] {
	if (!ctx.continueOnFail()) throw error;
	const item = errorItem(error, i, ctx.getNode());
	return [{ ...item, json: { ...item.json, id: job.id, status: job.status } }];
}

/** Extract → Run and Wait: start a job per input item, wait for it, the extracted data. */
export const runAndWait: Operation = {
	spends: true,
	tool: {
		description:
			'Get structured data (JSON) from known pages, or from the web when no URLs are given, by a prompt in plain words, and wait for it. Takes seconds to minutes and costs credits by the pages read. Use scrape to read one page whole, search to find pages.',
		fromAi: EXTRACT_FROM_AI,
	},
	bodyKeys: EXTRACT_BODY_KEYS,
	properties: [
		...extractFields,
		maxWaitField('extract job'),
		onTimeout,
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 20, numberPrecision: 0 },
			default: 3,
			description: 'How many input items may run (and be waited for) at once. Max Wait applies to each job.',
		},
	],

	concurrency(this: IExecuteFunctions): number {
		return jobConcurrency(this.getNodeParameter('concurrency', 0, 3));
	},

	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const node = this.getNode();
		// Everything is checked before the job is started.
		const plan = planExtract(node, readExtractParameters(this, i), i, false);
		const body = applyCustomBody(this, i, { properties: extractFields, bodyKeys: EXTRACT_BODY_KEYS }, plan.body);
		const maxWaitMs = readMaxWaitMs(this, i);
		const whenLate = readOnTimeout(this, i);
		if (whenLate === 'cancelAndFail') {
			throw invalid(node, 'On Timeout', whenLate, 'an extract cannot be cancelled here; choose Return Last Status or Fail', i);
		}
		if (plan.route !== 'extract') return (await runPlan(this, { ...plan, body }, { maxWaitMs, onTimeout: whenLate }, i, run)).map((json) => ({ json }));
		const deps = run?.transportDeps ?? defaultDeps;
		const startedAt = Date.now();
		const started = await startExtract(this, body, i, run);
		const id = String(started.id);

		// A read that fails for good (e.g. 404) ends the wait with the transport's error; the router
		// turns it into an error item under Continue On Fail.
		const wait = await waitFor<IDataObject>({
			read: async (pollDeps) => await getExtractJob(this, id, i, pollDeps),
			isTerminal: (job) => TERMINAL.includes(String(job.status)),
			maxWaitMs,
			startedAt,
			signal: this.getExecutionCancelSignal(),
			transportDeps: deps,
		});
		// Keep what the start answered (invalidURLs) beside the status.
		const job: IDataObject = { ...(started.invalidURLs !== undefined ? { invalidURLs: started.invalidURLs } : {}), ...(wait.status ?? { id }) };
		if (wait.outcome === 'terminal') settleEndedJob(deps.budget, id, wait.status, i, true);
		const seconds = Math.round(maxWaitMs / 1000);
		if (wait.outcome === 'timeout') {
			if (whenLate === 'returnStatus' && wait.status !== undefined) return [{ json: job }];
			const last = typeof job.status === 'string' ? `status "${job.status}"` : 'no status could be read';
			const error = new NodeOperationError(node, `The extract job did not finish within Max Wait (${seconds} s)`, {
				itemIndex: i,
				description: `Last ${last}.${readErrorNote(wait)} The job goes on: read its result later with Extract → Get Status (ID ${id}), raise Max Wait (on n8n Cloud an execution may last 300 s), or use Start and read the result later.`,
			});
			error.context.jobId = id;
			return failOrItem(this, error, job, i);
		}
		if (job.status !== 'completed') {
			const reason = typeof job.error === 'string' && job.error !== '' ? `: ${job.error}` : '';
			const error = new NodeOperationError(node, `The extract job ended with status "${String(job.status)}"${reason}`, {
				itemIndex: i,
				description: `Nothing was extracted. Check the URLs and the prompt; read the job with Extract → Get Status (ID ${id}).`,
			});
			error.context.jobId = id;
			return failOrItem(this, error, job, i);
		}
		// A job that found nothing is no error (it ran and was billed), but the item says so and why.
		const empty = emptyResultNote(job, body);
		return [{ json: empty === undefined ? job : { ...job, emptyResult: empty } }];
	},
};
