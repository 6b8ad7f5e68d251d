import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../types';
import { defaultDeps } from '../../transport';
import { readJobId } from './get';
import { agentJobRequest, JOB_ID_FROM_AI, jobIdField, jobItem } from './shared';

/** Event kinds known today (spec 6.2, api-facts 4); others pass through unfiltered and untouched. */
const EVENT_TYPES: Array<[string, string]> = [
	['Agent Finished', 'agent.finished'],
	['Agent Started', 'agent.started'],
	['Artifact Updated (Has a Snapshot ID)', 'artifact.updated'],
	['Browser Session Finished', 'browser.session.finished'],
	['Browser Session Started', 'browser.session.started'],
	['Error Occurred', 'error.occurred'],
	['Progress Reported', 'progress.reported'],
	['Reasoning Summary', 'reasoning.summary'],
	['Run Cancel Requested', 'run.cancel_requested'],
	['Run Finished', 'run.finished'],
	['Run Started', 'run.started'],
	['Tool Call Finished', 'tool_call.finished'],
	['Tool Call Started', 'tool_call.started'],
];

/** Agent → Get Trace: GET /v2/agent/{jobId}/trace, one item per event or one item with all. */
export const getTrace: Operation = {
	tool: {
		description: 'Read the steps of a research agent run by its id: its searches, tool calls, artifacts and errors. Costs nothing extra.',
		fromAi: { jobId: JOB_ID_FROM_AI },
	},
	properties: [
		jobIdField,
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'events',
			options: [
				{
					name: 'One Item per Event',
					value: 'events',
					description: 'Each trace event as its own item, as the service sent it',
				},
				{
					name: 'One Item With All Events',
					value: 'trace',
					description: 'The whole trace: ID, "events" (a list) and creditsUsed',
				},
			],
		},
		{
			displayName: 'Event Types',
			name: 'eventTypes',
			type: 'multiOptions',
			default: [],
			description:
				'Keep only events of these types. Leave empty to keep every event, including kinds not listed here.',
			options: EVENT_TYPES.map(([name, value]) => ({ name, value })),
		},
	],

	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const jobId = readJobId(this, i);
		const output = this.getNodeParameter('output', i, 'events') as string;
		const types = this.getNodeParameter('eventTypes', i, []) as string[];
		const body = await agentJobRequest(this, 'GET', jobId, '/trace', i, run?.transportDeps ?? defaultDeps);
		const all = Array.isArray(body.events) ? (body.events as IDataObject[]) : [];
		const events = Array.isArray(types) && types.length ? all.filter((e) => types.includes(e?.type as string)) : all;
		if (output === 'trace') return [{ json: { ...jobItem(jobId, body), events } }];
		return events.map((event) => ({ json: event }));
	},
};
