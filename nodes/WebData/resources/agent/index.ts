import type { Resource } from '../../types';
import { cancel } from './cancel';
import { get } from './get';
import { getMany } from './getMany';
import { getSnapshot } from './getSnapshot';
import { getTrace } from './getTrace';
import { runAndWait } from './runAndWait';
import { start } from './start';

export const agent: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'get',
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				action: 'Cancel agent run',
				description: 'Stop a run that is still going',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get agent run',
				description: 'Get the status and, when finished, the result of an agent run',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many agent runs',
				description: 'Get the recent runs of your team, newest first, one item each',
			},
			{
				name: 'Get Snapshot',
				value: 'getSnapshot',
				action: 'Get agent run snapshot',
				description: 'Get the content of an artifact named in an "artifact.updated" trace event',
			},
			{
				name: 'Get Trace',
				value: 'getTrace',
				action: 'Get agent run trace',
				description: 'Get the steps of a run: searches, tool calls, artifacts, errors',
			},
			{
				name: 'Run and Wait',
				value: 'runAndWait',
				action: 'Run agent and wait for result',
				description: 'Start a run and wait until it finishes, then output its result (costs credits, at most Max Credits)',
			},
			{
				name: 'Start',
				value: 'start',
				action: 'Start agent run',
				description: 'Start a run and output its job ID at once; get the result later with Get (costs credits, at most Max Credits)',
			},
		],
	},
	defaultOperationSince: { version: 2, operation: 'runAndWait' },
	operations: { cancel, get, getMany, getSnapshot, getTrace, runAndWait, start },
};
