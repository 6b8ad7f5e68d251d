import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../types';
import { getMonitor, readMonitorId } from '../../../shared/monitor/api';
import { monitorIdField } from '../../../shared/monitor/fields';
import { MONITOR_FROM_AI } from './toolFields';

/** Monitor → Get: GET /v2/monitor/{id}. */
export const get: Operation = {
	tool: { description: 'Read one page monitor by its ID: its targets, schedule and the summary of its last check.', fromAi: MONITOR_FROM_AI },
	properties: [monitorIdField],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const monitorId = readMonitorId(this, i);
		return [{ json: await getMonitor(this, monitorId, i, run?.transportDeps) }];
	},
};
