import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../helpers/types';
import { getTeam, withoutEnvelope } from './shared';

/** The `data` object of a current-usage answer (credits or tokens), as one item. */
function currentUsage(path: string): Operation {
	return {
		properties: [],
		async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
			const body = await getTeam(this, path, i, run);
			const data = body.data;
			const json =
				data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : withoutEnvelope(body);
			return [{ json }];
		},
	};
}

/** Account → Get Credit Usage: GET /v2/team/credit-usage (remaining and plan credits, billing period). */
export const getCreditUsage = currentUsage('/team/credit-usage');

/** Account → Get Token Usage: GET /v2/team/token-usage (tokens of the extract endpoint). */
export const getTokenUsage = currentUsage('/team/token-usage');

/** Account → Get Queue Status: GET /v2/team/queue-status (the team's scrape queue). */
export const getQueueStatus: Operation = {
	properties: [],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		return [{ json: withoutEnvelope(await getTeam(this, '/team/queue-status', i, run)) }];
	},
};
