import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../types';
import { checkItems, readCheck, readCheckId, readMonitorId, readPageOptions } from '../../../shared/monitor/api';
import { checkIdField, monitorIdField, pageOutputOptions } from '../../../shared/monitor/fields';
import { CHECK_FROM_AI, MONITOR_FROM_AI } from './toolFields';

/**
 * Monitor → Get Check: GET /v2/monitor/{id}/checks/{checkId}, following the `next` links until all
 * pages are read; one item for the check (pages in "pages") or one item per page.
 */
export const getCheck: Operation = {
	tool: { description: 'Read one check of a page monitor: which pages changed and how.', fromAi: { ...MONITOR_FROM_AI, ...CHECK_FROM_AI } },
	properties: [monitorIdField, checkIdField, pageOutputOptions],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const monitorId = readMonitorId(this, i);
		const checkId = readCheckId(this, i);
		const { onePerPage, statuses } = readPageOptions(this.getNode(), this.getNodeParameter('options', i, {}) as IDataObject, i);
		const { check, pages } = await readCheck(this, monitorId, checkId, statuses, i, run?.transportDeps);
		return checkItems({ ...check, id: check.id ?? checkId }, pages, onePerPage, monitorId).map((json) => ({ json }));
	},
};
