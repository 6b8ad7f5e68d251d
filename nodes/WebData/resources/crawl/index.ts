import type { Resource } from '../../types';
import { cancel } from './cancel';
import { getActive } from './getActive';
import { getErrors } from './getErrors';
import { getStatus } from './getStatus';
import { previewParams } from './previewParams';
import { runAndWait } from './runAndWait';
import { start } from './start';

export const crawl: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'runAndWait',
		options: [
			{ name: 'Cancel', value: 'cancel', action: 'Cancel crawl', description: 'Stop a running crawl' },
			{ name: 'Get Errors', value: 'getErrors', action: 'Get crawl errors', description: 'Pages that failed and URLs blocked by robots.txt' },
			{ name: 'Get Many Running', value: 'getActive', action: 'Get many running crawls', description: 'Get the crawls of your team that are running now, one item each' },
			{ name: 'Get Status', value: 'getStatus', action: 'Get crawl status', description: 'The status and the pages scraped so far' },
			{ name: 'Preview Parameters', value: 'previewParams', action: 'Preview crawl parameters from prompt', description: 'The crawl options the service derives from a prompt, without crawling' },
			{ name: 'Run and Wait', value: 'runAndWait', action: 'Crawl website and wait', description: 'Start a crawl, wait for it, and output one item per page (each page costs credits)' },
			{ name: 'Start', value: 'start', action: 'Start crawl', description: 'Start a crawl and output its ID at once (each page costs credits)' },
		],
	},
	operations: { start, runAndWait, getStatus, getErrors, cancel, getActive, previewParams },
};
