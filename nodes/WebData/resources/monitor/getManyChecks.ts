import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { limitField, readLimit, returnAllField } from '../../fields/fields';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
import { collectPages, listChecks, readMonitorId } from '../../../shared/monitor/api';
import { CHECK_STATUSES, monitorIdField } from '../../../shared/monitor/fields';
import { MONITOR_FROM_AI } from './toolFields';

/** Monitor → Get Many Checks: GET /v2/monitor/{id}/checks, newest first, optionally of one status. */
export const getManyChecks: Operation = {
	tool: { description: 'List the checks of one page monitor (newest first): when each ran and how many pages were the same, changed, new or removed.', fromAi: MONITOR_FROM_AI },
	properties: [
		monitorIdField,
		returnAllField,
		limitField,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				{
					displayName: 'Status',
					name: 'status',
					type: 'options',
					default: 'completed',
					description: 'Only checks with this status',
					options: [
						{ name: 'Completed', value: 'completed' },
						{ name: 'Failed', value: 'failed' },
						{ name: 'Partial', value: 'partial', description: 'Finished, but some pages could not be read' },
						{ name: 'Queued', value: 'queued' },
						{ name: 'Running', value: 'running' },
						{ name: 'Skipped (No Credits)', value: 'skipped_no_credits' },
						{ name: 'Skipped (Overlap)', value: 'skipped_overlap', description: 'Not run because the previous check was still running' },
					],
				},
			],
		},
	],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const monitorId = readMonitorId(this, i);
		const limit = readLimit(this, i);
		const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
		const status = filters.status === undefined || filters.status === '' ? undefined : filters.status;
		if (status !== undefined && (typeof status !== 'string' || !CHECK_STATUSES.includes(status))) {
			throw invalid(this.getNode(), 'Filters → Status', status, `choose one of ${CHECK_STATUSES.join(', ')}`, i);
		}
		const checks = await collectPages(
			async (page) => await listChecks(this, monitorId, { ...page, status: status as string | undefined }, i, run?.transportDeps),
			limit,
		);
		return checks.map((json) => ({ json }));
	},
};
