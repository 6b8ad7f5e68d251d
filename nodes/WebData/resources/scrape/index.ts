import type { Resource } from '../../types';
import { scrapeUrl } from './scrapeUrl';

export const scrape: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'scrapeUrl',
		options: [
			{
				name: 'Scrape URL',
				value: 'scrapeUrl',
				action: 'Scrape URL',
				description: 'Get one page (or a public PDF or document URL) as Markdown, a summary, HTML, links, JSON or a screenshot (costs credits)',
			},
		],
	},
	operations: { scrapeUrl },
};
