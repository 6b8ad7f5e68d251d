import type { Resource } from '../../types';
import { search as searchOperation } from './search';

export const search: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'search',
		options: [
			{
				name: 'Search',
				value: 'search',
				action: 'Search web',
				description: 'Search the web, news or images, and optionally scrape each result (costs credits per search and per scraped result)',
			},
		],
	},
	operations: { search: searchOperation },
};
