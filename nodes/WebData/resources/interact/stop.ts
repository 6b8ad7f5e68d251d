import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { withoutEnvelope } from '../../helpers/objects';
import type { Operation, RunContext } from '../../types';
import { apiRequest, defaultDeps } from '../../transport';
import { readTarget, readTargetId, type Target, TARGET_ID_FROM_AI, targetFields, targetHints, targetIdKey } from './shared';

/**
 * Whether a failed stop means "there was nothing left to stop": 410 (session destroyed) for a
 * session, 404 "Browser session not found" for a scraped page (never opened, or stopped already).
 */
export function alreadyStopped(error: unknown, target: Target): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const status = error.context.httpStatus;
	if (target === 'session') return status === 410;
	return status === 404 && /session/i.test(error.message);
}

/** Interact → Stop Session: DELETE /v2/interact/{sessionId} or DELETE /v2/scrape/{jobId}/interact. */
export const stop: Operation = {
	spends: true,
	tool: {
		description: 'Close a browser session (or the browser of a scraped page) by its id when you are done with it, so it spends no more credits; returns what it cost.',
		fromAi: TARGET_ID_FROM_AI,
	},
	properties: [
		...targetFields,
		{
			displayName: 'Ignore if Already Stopped',
			name: 'ignoreStopped',
			type: 'boolean',
			default: false,
			description:
				'Whether a browser that has already ended (stopped, expired, or for a scraped page never opened) counts as done instead of an error. The item then has "stopped": false.',
		},
	],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const target = readTarget(this, i);
		const id = readTargetId(this, target, i);
		const ignoreStopped = this.getNodeParameter('ignoreStopped', i, false) === true;
		const idKey = targetIdKey(target);
		const budget = run?.transportDeps.budget;
		// A session started under this execution's budget holds its TTL's cost: stopping settles it.
		const held = budget !== undefined && budget.jobHold(id) > 0;
		const outcome = await apiRequest<IDataObject>(
			this,
			{
				method: 'DELETE',
				path: target === 'session' ? `/interact/${id}` : `/scrape/${id}/interact`,
				itemIndex: i,
				hints: targetHints(target),
				// What the session cost is told when it stops: counted, never refused.
				cost: held ? undefined : { credits: 0, what: 'stopping the session', recordOnly: true, reported: billed },
			},
			run?.transportDeps ?? defaultDeps,
		).then(
			(answer) => ({ answer }),
			(error: unknown) => ({ error }),
		);
		if ('error' in outcome) {
			if (!ignoreStopped || !alreadyStopped(outcome.error, target)) throw outcome.error;
			return [{ json: { [idKey]: id, stopped: false, message: (outcome.error as Error).message } }];
		}
		if (held) budget.settleJob(id, billed(outcome.answer) ?? budget.jobHold(id), i);
		return [{ json: { [idKey]: id, stopped: true, ...withoutEnvelope(outcome.answer) } }];
	},
};

const billed = (answer: IDataObject): number | undefined => (typeof answer.creditsBilled === 'number' ? answer.creditsBilled : undefined);
