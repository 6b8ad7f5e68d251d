import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { applyCustomBody } from '../../fields/customBody';
import type { Operation, RunContext } from '../../types';
import { EXTRACT_BODY_KEYS, EXTRACT_FROM_AI, extractFields } from './fields';
import { readExtractParameters } from './request';
import { planExtract } from './route';
import { startPlan } from './routes';

/** Extract → Start: the job's ID at once; read the result later with Get Status. */
export const start: Operation = {
	spends: true,
	tool: {
		description:
			'Start an extract job (structured data from pages, or from the web, by a prompt in plain words) and return its id at once; read the data later with the extract status tool and that id. Costs credits: 5 per page, or the research run\'s credits when pages must be found.',
		fromAi: EXTRACT_FROM_AI,
	},
	bodyKeys: EXTRACT_BODY_KEYS,
	properties: extractFields,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const plan = planExtract(this.getNode(), readExtractParameters(this, i), i, true);
		const body = applyCustomBody(this, i, { properties: extractFields, bodyKeys: EXTRACT_BODY_KEYS }, plan.body);
		return [{ json: await startPlan(this, { ...plan, body }, i, run) }];
	},
};
