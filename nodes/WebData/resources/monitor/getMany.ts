import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { limitField, readLimit, returnAllField } from '../../fields/fields';
import type { Operation, RunContext } from '../../types';
import { collectPages, listMonitors } from '../../../shared/monitor/api';

/** Monitor → Get Many: GET /v2/monitor with offset paging (up to 100 per request). */
export const getMany: Operation = {
	tool: { description: 'List the page monitors of this account: name, schedule, status and the summary of their last check.' },
	properties: [returnAllField, limitField],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const limit = readLimit(this, i);
		const monitors = await collectPages(async (page) => await listMonitors(this, page, i, run?.transportDeps), limit);
		return monitors.map((json) => ({ json }));
	},
};
