import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../helpers/types';
import { deleteMonitor, readMonitorId } from './api';
import { monitorIdField } from './fields';

/** Monitor → Delete: DELETE /v2/monitor/{id}; outputs {id, deleted: true}. */
export const deleteOperation: Operation = {
	properties: [monitorIdField],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const monitorId = readMonitorId(this, i);
		await deleteMonitor(this, monitorId, i, run?.transportDeps);
		return [{ json: { id: monitorId, deleted: true } }];
	},
};
