import type { Resource } from '../../types';
import { mapUrl } from './mapUrl';

export const map: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'mapUrl',
		options: [
			{
				name: 'Map URL',
				value: 'mapUrl',
				action: 'Map website',
				description: 'List the URLs of a website quickly, without scraping them (costs credits)',
			},
		],
	},
	operations: { mapUrl },
};
