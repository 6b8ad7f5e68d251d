import type { Resource } from '../../types';
import { cancel } from './cancel';
import { getErrors } from './getErrors';
import { getStatus } from './getStatus';
import { runAndWait } from './runAndWait';
import { start } from './start';

export const batchScrape: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'runAndWait',
		options: [
			{ name: 'Cancel', value: 'cancel', action: 'Cancel a batch scrape', description: 'Stop a running batch scrape job' },
			{ name: 'Get Errors', value: 'getErrors', action: 'Get the errors of a batch scrape', description: 'The URLs that failed and why' },
			{ name: 'Get Status', value: 'getStatus', action: 'Get the status of a batch scrape', description: 'The status and the pages scraped so far' },
			{ name: 'Run and Wait', value: 'runAndWait', action: 'Batch scrape and wait', description: 'Scrape the URL of every input item in one job, wait, and output one item per page (each page costs credits)' },
			{ name: 'Start', value: 'start', action: 'Start a batch scrape', description: 'Start one job with the URL of every input item and output its ID (each page costs credits)' },
		],
	},
	operations: { start, runAndWait, getStatus, getErrors, cancel },
};
