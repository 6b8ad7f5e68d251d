import type { INodeProperties } from 'n8n-workflow';

import { customBodyOption } from '../../fields/customBody';
import { TRIGGER_TARGET_BODY_KEYS, triggerTargetOptions } from '../../jobs/triggerTarget';
import { aiValue } from '../../tool/fromAi';

/** What to send when starting a run (Start and Run and Wait), as plain data. */
/** Body keys of an agent run set by fields of other names (its schema, webhook and audit metadata). */
export const AGENT_PROMPT_FROM_AI = aiValue('prompt', 'The research task in plain words: what to find out and what to return');

export const AGENT_BODY_KEYS = { schema: ['outputShape', 'jsonSchema'], ...TRIGGER_TARGET_BODY_KEYS, auditMetadata: ['auditUsername'] };

export const startFields: INodeProperties[] = [
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: 'e.g. Find the pricing plans of the top 5 project management tools, with monthly prices',
		description: 'What the agent should find out, in plain words (at most 10000 characters)',
	},
	{
		displayName: 'URLs',
		name: 'urls',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/pricing, https://example.org',
		description:
			'Optional pages to start from, separated by commas or new lines (each an absolute http or https URL). An expression may also give a list.',
	},
	{
		displayName: 'Strict to URLs',
		name: 'strictConstrainToURLs',
		type: 'boolean',
		default: false,
		description: 'Whether the agent may only visit the URLs given above (and nothing else). Needs at least one URL.',
	},
	{
		displayName: 'Output Shape',
		name: 'outputShape',
		type: 'options',
		default: 'free',
		description: 'What shape the result ("data") should have',
		options: [
			{
				name: 'Free Form',
				value: 'free',
				description: 'Let the agent decide',
			},
			{
				name: 'From a JSON Example',
				value: 'example',
				description: 'Paste an example of the result; a JSON Schema is generated from it',
			},
			{
				name: 'JSON Schema',
				value: 'schema',
				description: 'Give a JSON Schema the result must follow',
			},
		],
	},
	{
		displayName: 'Output JSON Schema',
		name: 'jsonSchema',
		type: 'json',
		default: '{\n  "type": "object",\n  "properties": {\n    "name": { "type": "string" }\n  },\n  "required": ["name"]\n}',
		description: 'A JSON Schema (a JSON object) the result must follow',
		displayOptions: { show: { outputShape: ['schema'] } },
	},
	{
		displayName: 'Output JSON Example',
		name: 'jsonExample',
		type: 'json',
		default: '{\n  "company": "Acme",\n  "plans": [{ "name": "Pro", "monthlyPrice": 20 }]\n}',
		hint: 'Every field of the example becomes required; a null value allows any value; a list is described by its first entry',
		description: 'An example JSON object of the result you want. A JSON Schema is generated from it and sent.',
		displayOptions: { show: { outputShape: ['example'] } },
	},
];

/** Optional run settings (spec 2.11, 8; api-facts 4). */
export const startOptionFields: INodeProperties[] = [
	customBodyOption,
	{
		displayName: 'Max Credits',
		name: 'maxCredits',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 2500,
		description:
			'The most credits the run may use (the service default is 2500). A run that reaches it stops and fails with stopReason "credit_limit_reached"; failed runs are not charged.',
	},
	{
		displayName: 'Model',
		name: 'model',
		type: 'options',
		default: 'spark-2',
		description: 'Which agent model to use. The service may run older models as Spark 2.',
		options: [
			{ name: 'Spark 1 Mini', value: 'spark-1-mini' },
			{ name: 'Spark 1 Pro', value: 'spark-1-pro' },
			{ name: 'Spark 2', value: 'spark-2' },
		],
	},
	// Run Metadata and Send Events to Web Data Trigger (webhook, api-facts 4: not in the public OpenAPI).
	...triggerTargetOptions('agent'),
	{
		// The same setting and name as Parse File's (Advanced Options → User Name for Audit Logs).
		displayName: 'User Name for Audit Logs',
		name: 'auditUsername',
		type: 'string',
		default: '',
		description:
			'Only when your team sends the service\'s audit events to a SIEM: the user name recorded with this run (at most 1024 characters)',
	},
];

export const START_OPTION_NAMES = startOptionFields.map((f) => f.name);
