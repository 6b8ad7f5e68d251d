import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { uuidLocator } from '../../fields/fields';
import { withoutEnvelope } from '../../helpers/objects';
import { type ApiContext, apiRequest, defaultDeps, type TransportDeps } from '../../transport';
import { aiValue } from '../../tool/fromAi';

/** The agent job id, picked from recent runs or pasted. */
export const jobIdField: INodeProperties = uuidLocator({
	displayName: 'Job ID',
	name: 'jobId',
	idLabel: 'Job ID',
	description: 'The agent run to use. Its ID is in the output of the Start operation.',
	searchListMethod: 'searchAgentRuns',
});

export const JOB_ID_FROM_AI = aiValue('jobId', 'The id of the agent run (a UUID), from the answer that started it');

/** Hints for agent calls (spec 7.2), keyed by status or by a part of the service's error text. */
export const AGENT_HINTS: Record<string, string> = {
	'404':
		'No agent run has this ID for your team. Runs are kept for 24 hours after they finish; check the Job ID.',
	'text:Invalid job ID format': 'The Job ID must be a UUID. Copy it from the output of the Start operation.',
	'text:Invalid snapshot ID':
		'The Snapshot ID is not in the form the service expects. Copy the "artifact.snapshotId" of an "artifact.updated" event from Agent → Get Trace.',
	'text:Trace is only available':
		'This run was made before the service recorded traces (only runs of the current agent generation, Spark 2, have one). Its result is still available with Agent → Get.',
	'text:Snapshots are only available':
		'This run was made before the service recorded snapshots (only runs of the current agent generation, Spark 2, have them). Its result is still available with Agent → Get.',
	'text:Snapshot not found':
		'This run has no snapshot with this ID (yet). Take the "artifact.snapshotId" of an "artifact.updated" event from this run\'s trace (Agent → Get Trace).',
	'text:zero data retention':
		'Your team has zero data retention switched on, and the agent cannot run for such teams. Ask the service operator.',
	'text:Failed to passthrough agent request':
		'The agent service rejected the job when it was submitted, even after retries. Try again later.',
	'text:Invalid JSON schema':
		'The Output JSON Schema is not valid JSON Schema. Fix the part named in the message, or use "From JSON Example".',
	// The newest start says "Invalid schema: …" (the same check, shorter words).
	'text:Invalid schema':
		'The Output JSON Schema is not valid JSON Schema. Fix the part named in the message, or use "From JSON Example".',
	'text:Agent already finished':
		'The run had already finished (completed or failed), so there was nothing to cancel. Turn on "Ignore if Already Finished" to treat this as done.',
	'text:Agent is already cancelled':
		'The run is already being cancelled. Turn on "Ignore if Already Finished" to treat this as done.',
};

/** One request on an agent run, `/agent/{jobId}<suffix>`: GET its job, a snapshot or its trace; DELETE to cancel it. */
export async function agentJobRequest(
	ctx: ApiContext,
	method: 'GET' | 'DELETE',
	jobId: string,
	suffix: string,
	itemIndex: number,
	deps: TransportDeps = defaultDeps,
): Promise<IDataObject> {
	return await apiRequest<IDataObject>(ctx, { method, path: `/agent/${jobId}${suffix}`, itemIndex, hints: AGENT_HINTS }, deps);
}

/** The job as one flat item: id first, then what the service returned (without `success`). */
export function jobItem(jobId: string, body: IDataObject): IDataObject {
	return { id: jobId, ...withoutEnvelope(body) };
}

export async function getAgentJob(
	ctx: ApiContext,
	jobId: string,
	itemIndex: number,
	deps: TransportDeps = defaultDeps,
): Promise<IDataObject> {
	return jobItem(jobId, await agentJobRequest(ctx, 'GET', jobId, '', itemIndex, deps));
}
