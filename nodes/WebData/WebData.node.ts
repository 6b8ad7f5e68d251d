import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { resourceProperties } from './helpers/description';
import { asNodeError, errorItem, isCancellation } from './helpers/items';
import { runPool, Throttle } from './helpers/pool';
import type { Resource, RunContext } from './helpers/types';
import { searchAgentRuns } from './methods/listSearch';
import { searchMonitorChecks, searchMonitors } from './methods/monitorSearch';
import { agent } from './resources/agent';
import { monitor } from './resources/monitor';
import { parse } from './resources/parse';
import { defaultDeps } from './transport';

const resources: Record<string, Resource> = { parse, monitor, agent };

export class WebData implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Web Data',
		name: 'webData',
		icon: { light: 'file:webdata.svg', dark: 'file:webdata.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Parse files to Markdown and JSON, watch web pages for changes, and run web research agents',
		defaults: { name: 'Web Data' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'webDataApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				default: 'parse',
				options: [
					{
						name: 'Parse',
						value: 'parse',
						description: 'Turn your own files (PDF, Word, Excel, PowerPoint, EPUB, CSV, HTML) into Markdown and JSON',
					},
					{
						name: 'Monitor',
						value: 'monitor',
						description: 'Watch pages, sites and web searches on a schedule and read what changed',
					},
					{
						name: 'Agent',
						value: 'agent',
						description: 'Hand open-ended web research to an autonomous agent',
					},
				],
			},
			...Object.entries(resources).flatMap(([name, resource]) => resourceProperties(name, resource)),
		],
	};

	methods = {
		listSearch: { searchAgentRuns, searchMonitors, searchMonitorChecks },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const resourceName = this.getNodeParameter('resource', 0) as string;
		const operationName = this.getNodeParameter('operation', 0) as string;
		const operation = resources[resourceName]?.operations[operationName];
		if (!operation) {
			throw new NodeOperationError(
				this.getNode(),
				`The operation "${operationName}" of resource "${resourceName}" is not known`,
			);
		}
		const concurrency = operation.concurrency ? operation.concurrency.call(this) : 1;
		const throttle = concurrency > 1 ? new Throttle(concurrency) : undefined;
		const run: RunContext = {
			transportDeps: throttle
				? {
						...defaultDeps,
						onRetry: ({ status, delayMs }) => {
							if (status === 429) throttle.rateLimited(delayMs);
						},
					}
				: defaultDeps,
		};
		const results = await runPool(items.length, concurrency, async (i) => {
			try {
				const out = await operation.execute.call(this, i, run);
				throttle?.succeeded();
				return out.map((item) => ({ ...item, pairedItem: { item: i } }));
			} catch (error) {
				if (this.continueOnFail() && !isCancellation(error)) return [errorItem(error, i)];
				throw asNodeError(this.getNode(), error, i);
			}
		}, throttle);
		return [results.flat()];
	}
}
