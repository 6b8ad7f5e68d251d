import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody } from '../../fields/customBody';
import type { Operation, RunContext } from '../../types';
import { AGENT_BODY_KEYS, AGENT_PROMPT_FROM_AI, startFields, startOptionFields } from './startFields';
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
	tool: {
		description:
			'Start an open-ended web research task for an autonomous agent and return its id at once; read the answer later with the agent run tool and that id. The most expensive tool: it may spend many credits, up to its credit cap.',
		fromAi: { prompt: AGENT_PROMPT_FROM_AI },
	},
	spends: true,
	properties,
	bodyKeys: AGENT_BODY_KEYS,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = applyCustomBody(this, i, { properties, bodyKeys: AGENT_BODY_KEYS }, buildStartBody(this.getNode(), readStartParameters(this, i), i));
		return [{ json: await startAgentRun(this, body, i, run) }];
	},
};
