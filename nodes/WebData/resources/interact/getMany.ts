import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { limitField, readLimit, returnAllField } from '../../fields/fields';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
import { apiRequest, defaultDeps } from '../../transport';
import { SESSION_HINTS } from './shared';

/** Interact → Get Many Sessions: GET /v2/interact[?status=…], one item per session. */
export const getMany: Operation = {
	properties: [
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'all',
			options: [
				{ name: 'All', value: 'all', description: 'Active and ended sessions' },
				{ name: 'Active', value: 'active', description: 'Sessions that are still running' },
				{ name: 'Destroyed', value: 'destroyed', description: 'Sessions that were stopped or expired' },
			],
		},
		returnAllField,
		limitField,
	],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const status = this.getNodeParameter('status', i, 'all');
		if (status !== 'all' && status !== 'active' && status !== 'destroyed') {
			throw invalid(this.getNode(), 'Status', status, 'one of all, active, destroyed', i);
		}
		const limit = readLimit(this, i);
		const body = await apiRequest<IDataObject>(
			this,
			{
				method: 'GET',
				path: '/interact',
				qs: status === 'all' ? undefined : { status },
				itemIndex: i,
				hints: SESSION_HINTS,
			},
			run?.transportDeps ?? defaultDeps,
		);
		const sessions = Array.isArray(body.sessions) ? (body.sessions as IDataObject[]) : [];
		return sessions.slice(0, limit).map((session) => ({ json: session }));
	},
};
