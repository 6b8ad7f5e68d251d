import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../types';
import { requireUuid } from '../../helpers/validation';
import { settleEndedJob } from '../../budget/jobs';
import { defaultDeps } from '../../transport';
import { extractIdField } from './fields';
import { emptyResultNote, getExtractJob } from './request';
import { TERMINAL } from './runAndWait';
import { aiValue } from '../../tool/fromAi';

/** Extract → Get Status: the status and, when finished, the extracted data of a job. */
export const getStatus: Operation = {
	tool: {
		description: 'Read an extract job by its id: its status and, once completed, the extracted data (JSON). Costs nothing extra.',
		fromAi: { extractId: aiValue('extractId', 'The id of the extract job (a UUID), from the answer that started it') },
	},
	properties: [extractIdField],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const raw = this.getNodeParameter('extractId', i, '', { extractValue: true });
		// The server refuses an id that is not a UUID: check it first.
		const id = requireUuid(this.getNode(), 'Extract Job ID', raw, i);
		const job = await getExtractJob(this, id, i, run?.transportDeps ?? defaultDeps);
		// A job started under this execution's budget gives back its hold once it ended (issue 35.3).
		if (TERMINAL.includes(String(job.status))) settleEndedJob(run?.transportDeps.budget, id, job, i);
		const empty = emptyResultNote(job);
		return [{ json: empty === undefined ? job : { ...job, emptyResult: empty } }];
	},
};
