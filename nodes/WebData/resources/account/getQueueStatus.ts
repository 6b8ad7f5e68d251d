import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { withoutEnvelope } from '../../helpers/objects';
import type { Operation, RunContext } from '../../types';
import { getTeam } from './shared';

/** Account → Get Queue Status: GET /v2/team/queue-status (the team's scrape queue). */
export const getQueueStatus: Operation = {
	properties: [],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		return [{ json: withoutEnvelope(await getTeam(this, '/team/queue-status', i, run)) }];
	},
};
