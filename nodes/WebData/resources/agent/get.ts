import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { requireUuid } from '../../helpers/validation';
import type { Operation } from '../../helpers/types';
import { apiRequest } from '../../transport';
import { AGENT_HINTS, jobIdField } from './shared';

/** The job as one flat item: id first, then what the service returned (without `success`). */
export function jobItem(jobId: string, body: IDataObject): IDataObject {
	const { success: _success, ...rest } = body;
	void _success;
	return { id: jobId, ...rest };
}

export async function getAgentJob(
	ctx: IExecuteFunctions,
	jobId: string,
	itemIndex: number,
): Promise<IDataObject> {
	const body = await apiRequest<IDataObject>(ctx, {
		method: 'GET',
		path: `/agent/${jobId}`,
		itemIndex,
		hints: AGENT_HINTS,
	});
	return jobItem(jobId, body);
}

export const get: Operation = {
	properties: [jobIdField],
	async execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
		const raw = this.getNodeParameter('jobId', i, '', { extractValue: true });
		const jobId = requireUuid(this.getNode(), 'Job ID', raw, i);
		return [{ json: await getAgentJob(this, jobId, i) }];
	},
};
