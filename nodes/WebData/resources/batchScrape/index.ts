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
			{ name: 'Cancel', value: 'cancel', action: 'Cancel batch scrape', description: 'Stop a running batch scrape job' },
			{ name: 'Get Errors', value: 'getErrors', action: 'Get batch scrape errors', description: 'The URLs that failed and why' },
			{ name: 'Get Status', value: 'getStatus', action: 'Get batch scrape status', description: 'The status and the pages scraped so far' },
			{ name: 'Run and Wait', value: 'runAndWait', action: 'Batch scrape and wait', description: 'Scrape the URL of every input item in one job, wait, and output one item per page (each page costs credits)' },
			{ name: 'Start', value: 'start', action: 'Start batch scrape', description: 'Start one job with the URL of every input item and output its ID (each page costs credits)' },
		],
	},
	operations: { start, runAndWait, getStatus, getErrors, cancel },
};
