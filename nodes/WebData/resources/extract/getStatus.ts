import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../types';
import { requireUuid } from '../../helpers/validation';
import { defaultDeps } from '../../transport';
import { extractIdField } from './fields';
import { emptyResultNote, getExtractJob } from './request';

/** Extract → Get Status: the status and, when finished, the extracted data of a job. */
export const getStatus: Operation = {
	properties: [extractIdField],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const raw = this.getNodeParameter('extractId', i, '', { extractValue: true });
		// The server refuses an id that is not a UUID: check it first.
		const id = requireUuid(this.getNode(), 'Extract Job ID', raw, i);
		const job = await getExtractJob(this, id, i, run?.transportDeps ?? defaultDeps);
		const empty = emptyResultNote(job);
		return [{ json: empty === undefined ? job : { ...job, emptyResult: empty } }];
	},
};
