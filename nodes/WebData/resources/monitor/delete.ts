import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../types';
import { deleteMonitor, readMonitorId } from '../../../shared/monitor/api';
import { monitorIdField } from '../../../shared/monitor/fields';
import { NOT_FOR_MODEL } from './toolFields';

/** Monitor → Delete: DELETE /v2/monitor/{id}; outputs {id, deleted: true}. */
export const deleteOperation: Operation = {
	tool: { description: `Deletes the page monitor set in this node, for good. ${NOT_FOR_MODEL} Call it only when the user asks to remove this monitor.` },
	properties: [monitorIdField],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const monitorId = readMonitorId(this, i);
		await deleteMonitor(this, monitorId, i, run?.transportDeps);
		return [{ json: { id: monitorId, deleted: true } }];
	},
};
