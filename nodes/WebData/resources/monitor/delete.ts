import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../types';
import { deleteMonitor, readMonitorId } from '../../../shared/monitor/api';
import { monitorIdField } from '../../../shared/monitor/fields';

/** Monitor → Delete: DELETE /v2/monitor/{id}; outputs {id, deleted: true}. */
export const deleteOperation: Operation = {
	properties: [monitorIdField],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const monitorId = readMonitorId(this, i);
		await deleteMonitor(this, monitorId, i, run?.transportDeps);
		return [{ json: { id: monitorId, deleted: true } }];
	},
};
