import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody } from '../../fields/customBody';
import { errorItem } from '../../helpers/items';
import { readErrorNote, waitFor } from '../../jobs/poller';
import type { Operation, RunContext } from '../../types';
import { readWaitMethod, startAndWaitForWebhook, WAIT_METHOD_POLL, WAIT_METHOD_WEBHOOK, waitMethodFields } from '../../jobs/resume';
import { invalid } from '../../helpers/validation';
import { refuseEventWebhookWithResume } from '../../jobs/triggerTarget';
import { jobConcurrency, maxWaitFieldsByMethod, onTimeoutField, readMaxWaitMs, readOnTimeout } from '../../jobs/wait';
import { settleEndedJob } from '../../budget/jobs';
import { defaultDeps } from '../../transport';
import { cancelAgentRun } from './cancel';
import { getAgentJob } from './shared';
import { classifyRun, isUnsuccessful, runFacts, unsuccessfulRunError } from './outcome';
import { agentWaiter } from './resume';
import { AGENT_BODY_KEYS, AGENT_PROMPT_FROM_AI, startFields, startOptionFields } from './startFields';
import { buildStartBody, readStartParameters, startAgentRun } from './startRequest';

const properties: INodeProperties[] = [
	...startFields,
	...waitMethodFields(
		'run',
		true,
		'The service calls this execution back when the run ends, so it must be able to reach this n8n (WEBHOOK_URL). One input item per execution (use "Loop Over Items" for more).',
	),
	...maxWaitFieldsByMethod(
		'run',
		'How long to wait for the run to finish, in seconds. With Poll, the status is read 1 s and 4.75 s after the start, then at a growing interval (19.5 % of the time the run has taken, at most 90 s). With Resume on Completion Webhook, the execution waits (paused) until the webhook arrives or this time has passed; it also reads the run now and then in case the webhook is lost.',
	),
	onTimeoutField('run', 'Get', 'processing'),
	{
		displayName: 'On Unsuccessful Run',
		name: 'onUnsuccessful',
		type: 'options',
		default: 'error',
		description: 'What to do when the run ends without a result: stopped at its credit limit, cancelled, or failed',
		options: [
			{
				name: 'Stop With Error',
				value: 'error',
				description: 'A node error that says how the run ended and includes any partial result',
			},
			{
				name: 'Output Item',
				value: 'outputItem',
				description: 'Output the run as it is (status "failed", stopReason, partial, error) and go on',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		// In alphabetical order, as the panel lists them: Concurrency first.
		options: [
			{
				displayName: 'Concurrency',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 20, numberPrecision: 0 },
				default: 3,
				description:
					'How many input items may run (and be waited for) at once with Wait Method "Poll". Max Wait applies to each run.',
			},
			...startOptionFields,
		],
	},
];

function readChoice(ctx: IExecuteFunctions, name: string, field: string, allowed: string[], fallback: string, i: number): string {
	const value = ctx.getNodeParameter(name, i, fallback);
	if (typeof value !== 'string' || !allowed.includes(value)) {
		throw invalid(ctx.getNode(), field, value, `choose one of ${allowed.join(', ')}`, i);
	}
	return value;
}

/** An error, or under Continue On Fail an error item that also carries the run's facts. */
function failItem(ctx: IExecuteFunctions, error: NodeOperationError, job: IDataObject, i: number): INodeExecutionData[] {
	if (!ctx.continueOnFail()) throw error;
	const item = errorItem(error, i, ctx.getNode());
	return [{ ...item, json: { ...item.json, ...runFacts(job) } }];
}

/**
 * Agent → Run and Wait: Start, then poll the run with the one poller until a terminal state, or
 * (Wait Method "Resume on Completion Webhook") pause the execution until the run's webhook resumes it.
 */
export const runAndWait: Operation = {
	spends: true,
	tool: {
		description:
			'Hand an open-ended web research task to an autonomous research agent and wait for its answer (structured data). Slow (minutes) and the most expensive tool: it may spend many credits, up to its credit cap. Use it only when search and scrape are not enough.',
		fromAi: { prompt: AGENT_PROMPT_FROM_AI },
	},
	waiter: agentWaiter,
	properties,
	bodyKeys: AGENT_BODY_KEYS,

	concurrency(this: IExecuteFunctions): number {
		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		return jobConcurrency(options.concurrency);
	},

	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const node = this.getNode();
		// Everything is checked before the run is started.
		const body = applyCustomBody(this, i, { properties, bodyKeys: AGENT_BODY_KEYS }, buildStartBody(node, readStartParameters(this, i), i));
		const maxWaitMs = readMaxWaitMs(this, i);
		const onTimeout = readOnTimeout(this, i);
		const onUnsuccessful = readChoice(this, 'onUnsuccessful', 'On Unsuccessful Run', ['error', 'outputItem'], 'error', i);
		if (readWaitMethod(this, i) === WAIT_METHOD_WEBHOOK) {
			// The execution pauses; WebData.webhook() (resumeWebhook) gives the result when the run ends.
			// The run has one webhook, and it goes to the resume URL: one set by the options is refused.
			refuseEventWebhookWithResume(node, body.webhook, i);
			return await startAndWaitForWebhook(this, i, {
				waiter: agentWaiter,
				maxWaitMs,
				onTimeout,
				oneItemPerExecution: true,
				start: async (webhook) => String((await startAgentRun(this, { ...body, webhook }, i, run)).id),
				budget: run?.transportDeps.budget,
			});
		}
		const deps = run?.transportDeps ?? defaultDeps;

		const startedAt = Date.now();
		const started = await startAgentRun(this, body, i, run);
		const jobId = started.id as string;

		const wait = await waitFor<IDataObject>({
			read: async (pollDeps) => await getAgentJob(this, jobId, i, pollDeps),
			isTerminal: (job) => classifyRun(job) !== 'running',
			maxWaitMs,
			startedAt,
			signal: this.getExecutionCancelSignal(),
			transportDeps: deps,
		});

		let job = wait.status ?? { id: jobId };
		if (wait.outcome === 'timeout') {
			const seconds = Math.round(maxWaitMs / 1000);
			const last = typeof job.status === 'string' ? `status "${job.status}"` : 'no status could be read';
			if (onTimeout === 'returnStatus') {
				// The same item as Wait Method "Resume on Completion Webhook" gives at Max Wait (resume.ts):
				// the last status read, marked timedOut, with the wait method, its end and what to do.
				if (wait.status !== undefined) {
					return [
						{
							json: {
								...job,
								id: job.id ?? jobId,
								timedOut: true,
								waitMethod: WAIT_METHOD_POLL,
								waitedUntil: new Date(startedAt + maxWaitMs).toISOString(),
								message: `The run did not finish within Max Wait (${seconds} s). "status" is its last status read; the run goes on: read it with Agent → Get (Job ID ${jobId}).`,
							},
						},
					];
				}
				const error = new NodeOperationError(node, `The agent run did not report a status within Max Wait (${seconds} s)`, {
					itemIndex: i,
					description: `Its status could not be read before the deadline (the service asked to wait or kept failing).${readErrorNote(wait)} The run may still be going: read it later with Agent → Get (Job ID ${jobId}).`,
				});
				return failItem(this, error, job, i);
			}
			if (onTimeout === 'cancelAndFail') {
				const cancelled = await cancelAgentRun(this, jobId, i, true, deps);
				if (cancelled.cancelled === false) {
					// It finished between the last poll and the cancel: use its final state.
					job = await getAgentJob(this, jobId, i, deps);
					const outcome = classifyRun(job);
					if (outcome !== 'running') {
						settleEndedJob(deps.budget, jobId, job, i, true);
						return finish(this, job, outcome, onUnsuccessful, body, i);
					}
				}
				const error = new NodeOperationError(node, `The agent run did not finish within Max Wait (${seconds} s) and was cancelled`, {
					itemIndex: i,
					description: `Last ${last}.${readErrorNote(wait)} Cancelling is cooperative: steps in flight finish and may still use credits. Raise Max Wait (on n8n Cloud an execution may last 300 s), or use Start and read the result later with Get. (Job ID ${jobId})`,
				});
				error.context.jobId = jobId;
				return failItem(this, error, job, i);
			}
			const error = new NodeOperationError(node, `The agent run did not finish within Max Wait (${seconds} s)`, {
				itemIndex: i,
				description: `Last ${last}.${readErrorNote(wait)} The run goes on: read its result later with Agent → Get (Job ID ${jobId}), raise Max Wait (on n8n Cloud an execution may last 300 s), or set On Timeout to "Return Last Status".`,
			});
			error.context.jobId = jobId;
			return failItem(this, error, job, i);
		}
		settleEndedJob(deps.budget, jobId, job, i, true);
		return finish(this, job, classifyRun(job), onUnsuccessful, body, i);
	},
};

function finish(
	ctx: IExecuteFunctions,
	job: IDataObject,
	outcome: ReturnType<typeof classifyRun>,
	onUnsuccessful: string,
	body: IDataObject,
	i: number,
): INodeExecutionData[] {
	if (!isUnsuccessful(outcome) || onUnsuccessful === 'outputItem') return [{ json: job }];
	const maxCredits = typeof body.maxCredits === 'number' ? body.maxCredits : undefined;
	return failItem(ctx, unsuccessfulRunError(ctx.getNode(), job, outcome, i, maxCredits), job, i);
}
