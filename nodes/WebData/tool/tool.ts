import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_TOOL_BUDGET,
	MAX_TOOL_BUDGET,
	MIN_TOOL_BUDGET,
	shapeToolResult,
	type ToolRequest,
} from './toolResult';
import type { Operation, Resource, ToolUse } from '../types';
import { isToolRun } from '../helpers/toolMode';
import { invalid } from '../helpers/validation';

/** n8n's automatic tool description says only "<action> in Web Data", so each operation brings its own (FACTS.md "n8n editor behaviour"). */

const TOOL = { '@tool': [true] };

function described(resources: Record<string, Resource>, resource: string, operation: string): string {
	const own = resources[resource].operations[operation].tool?.description;
	if (own) return own;
	const option = resources[resource].operationProperty.options?.find((o) => 'value' in o && o.value === operation) as
		| { action?: string; description?: string; name: string }
		| undefined;
	const action = option?.action ?? option?.name ?? operation;
	return `${action} with the Web Data service${option?.description ? `: ${option.description}` : ''}.`;
}

/** Per operation by default, or the user's own text. */
export function toolDescriptionProperties(resources: Record<string, Resource>): INodeProperties[] {
	const perOperation: INodeProperties[] = Object.entries(resources).flatMap(([resource, r]) =>
		Object.keys(r.operations).map(
			(operation): INodeProperties => ({
				displayName: 'Tool Description',
				name: 'toolDescription',
				type: 'hidden',
				default: described(resources, resource, operation),
				displayOptions: { show: { ...TOOL, descriptionType: ['operation'], resource: [resource], operation: [operation] } },
			}),
		),
	);
	return [
		{
			displayName: 'Tool Description',
			name: 'descriptionType',
			type: 'options',
			noDataExpression: true,
			default: 'operation',
			displayOptions: { show: TOOL },
			options: [
				{
					name: 'Per Operation',
					value: 'operation',
					description: 'Tell the model what the chosen operation returns, what it costs and when to pick it',
				},
				{ name: 'Set Manually', value: 'manual', description: 'Write the description yourself' },
				{ name: 'Action Name Only', value: 'auto', description: 'The short text n8n writes itself, such as "Scrape a URL in Web Data"' },
			],
		},
		{
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: '',
			required: true,
			typeOptions: { rows: 3 },
			displayOptions: { show: { ...TOOL, descriptionType: ['manual'] } },
			description: 'What the tool does, for the model: what it returns, what it costs and when to use it',
		},
		...perOperation,
	];
}

function operationsWhere(resources: Record<string, Resource>, has: (tool: ToolUse) => boolean): { resource: string[]; operation: string[] } {
	const pairs = Object.entries(resources).flatMap(([resource, r]) =>
		Object.entries(r.operations)
			.filter(([, op]) => op.tool !== undefined && has(op.tool))
			.map(([operation]) => [resource, operation]),
	);
	return { resource: [...new Set(pairs.map(([r]) => r))], operation: [...new Set(pairs.map(([, o]) => o))] };
}

export function toolResultProperties(resources: Record<string, Resource>): INodeProperties[] {
	const pageLists = operationsWhere(resources, (tool) => tool.pageList !== undefined);
	const jobReaders = operationsWhere(resources, (tool) => tool.readsFinishedJob === true);
	return [
		{
			displayName: 'Tool Result Budget (Characters)',
			name: 'toolResultBudget',
			type: 'number',
			typeOptions: { minValue: MIN_TOOL_BUDGET, maxValue: MAX_TOOL_BUDGET, numberPrecision: 0 },
			default: DEFAULT_TOOL_BUDGET,
			displayOptions: { show: TOOL },
			description:
				'The most characters one result hands to the model. Longer page content is cut at a marker that tells the model how to ask for the rest.',
		},
		{
			displayName: 'Continue From (Offset)',
			name: 'toolOffset',
			// It holds the model's $fromAI expression; readToolRequest checks the number.
			type: 'string',
			default: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('offset', 'Leave 0. When a result was cut, the offset its marker names, to read on', 'number', 0) }}",
			displayOptions: { show: TOOL },
			description: 'Where a cut result goes on: a character of the page content, or an entry of a list. The model fills it.',
		},
		{
			displayName: 'Page to Read',
			name: 'toolPage',
			type: 'string', // the model's $fromAI expression
			default: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('page', 'Leave 0 for the list. To read one listed page in full, its number from the list', 'number', 0) }}",
			displayOptions: { show: { ...TOOL, ...pageLists } },
			description: 'Which page of a list of pages to show in full (0 = the list). The model fills it.',
		},
		{
			displayName: 'Read Finished Job ID',
			name: 'toolJobId',
			type: 'string',
			default: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('jobId', 'Leave empty to start a new job. To read pages of a finished job, the jobId its list shows', 'string', '') }}",
			displayOptions: { show: { ...TOOL, ...jobReaders } },
			description: 'When set, the pages of this finished job are read and nothing new is started. The model fills it.',
		},
	];
}

function wholeNumber(ctx: IExecuteFunctions, name: string, field: string, fallback: number, min: number, max: number): number {
	const raw = ctx.getNodeParameter(name, 0, fallback);
	const value = raw === '' || raw === null || raw === undefined ? fallback : Number(raw);
	if (!Number.isInteger(value) || value < min || value > max) {
		throw invalid(ctx.getNode(), field, raw, `a whole number from ${min} to ${max}`, 0);
	}
	return value;
}

/** Read before anything is sent. */
export function readToolRequest(ctx: IExecuteFunctions, operation: Operation): ToolRequest {
	return {
		budget: wholeNumber(ctx, 'toolResultBudget', 'Tool Result Budget (Characters)', DEFAULT_TOOL_BUDGET, MIN_TOOL_BUDGET, MAX_TOOL_BUDGET),
		offset: wholeNumber(ctx, 'toolOffset', 'Continue From (Offset)', 0, 0, Number.MAX_SAFE_INTEGER),
		page: wholeNumber(ctx, 'toolPage', 'Page to Read', 0, 0, 1_000_000),
		source: operation.tool?.pageList,
	};
}

export function readToolJobId(ctx: IExecuteFunctions, i: number): string | undefined {
	if (!isToolRun(ctx)) return undefined;
	const raw = String(ctx.getNodeParameter('toolJobId', i, '') ?? '').trim();
	return raw === '' ? undefined : raw;
}

/** One answer; what the call cost is said once in it (each result carries the same `credits`). */
export function toolOutput(items: INodeExecutionData[], request: ToolRequest): INodeExecutionData[] {
	let credits: unknown;
	const results = items.map((item) => {
		const { credits: cost, ...json } = item.json as IDataObject;
		if (cost !== undefined) credits = cost;
		return json;
	});
	const answer = shapeToolResult(results, request);
	if (credits !== undefined) answer.credits = credits as IDataObject;
	return [{ json: answer, pairedItem: { item: 0 } }];
}
