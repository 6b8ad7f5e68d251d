import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { applyCustomBody } from '../../fields/customBody';
import type { Operation, RunContext } from '../../types';
import { EXTRACT_BODY_KEYS, extractFields } from './fields';
import { buildExtractBody, readExtractParameters, startExtract } from './request';

/** Extract → Start: the job's ID at once; read the result later with Get Status. */
export const start: Operation = {
	spends: true,
	bodyKeys: EXTRACT_BODY_KEYS,
	properties: extractFields,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = applyCustomBody(this, i, { properties: extractFields, bodyKeys: EXTRACT_BODY_KEYS }, buildExtractBody(this.getNode(), readExtractParameters(this, i), i));
		return [{ json: await startExtract(this, body, i, run) }];
	},
};
