import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody } from '../../fields/customBody';
import type { Operation, RunContext } from '../../types';
import { AGENT_BODY_KEYS, startFields, startOptionFields } from './startFields';
import { buildStartBody, readStartParameters, startAgentRun } from './startRequest';

const properties: INodeProperties[] = [
	...startFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: startOptionFields,
	},
];

/** Agent → Start: POST /v2/agent, returns the job id at once (poll it later with Get). */
export const start: Operation = {
	spends: true,
	properties,
	bodyKeys: AGENT_BODY_KEYS,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = applyCustomBody(this, i, { properties, bodyKeys: AGENT_BODY_KEYS }, buildStartBody(this.getNode(), readStartParameters(this, i), i));
		return [{ json: await startAgentRun(this, body, i, run) }];
	},
};
