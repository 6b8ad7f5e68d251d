import type { Resource } from '../../types';
import { getStatus } from './getStatus';
import { runAndWait } from './runAndWait';
import { start } from './start';

export const extract: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'runAndWait',
		options: [
			{
				name: 'Get Status',
				value: 'getStatus',
				action: 'Get extract job status',
				description: 'The status and, when finished, the extracted data of a job',
			},
			{
				name: 'Run and Wait',
				value: 'runAndWait',
				action: 'Extract structured data and wait',
				description: 'Start an extract job, wait for it, and output the extracted data (costs credits)',
			},
			{
				name: 'Start',
				value: 'start',
				action: 'Start extract job',
				description: 'Start an extract job and output its ID at once; read the result later with Get Status (costs credits)',
			},
		],
	},
	operations: { start, runAndWait, getStatus },
};
