import type { Resource } from '../../types';
import { execute } from './execute';
import { getMany } from './getMany';
import { start } from './start';
import { stop } from './stop';

export const interact: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'execute',
		options: [
			{
				name: 'Execute',
				value: 'execute',
				action: 'Execute code or prompt in browser',
				description:
					'Run code in a browser session, or code or a plain-language prompt on the page of an earlier scrape (costs credits)',
			},
			{
				name: 'Get Many Sessions',
				value: 'getMany',
				action: 'Get many browser sessions',
				description: 'Get the browser sessions of your team, newest first, one item each',
			},
			{
				name: 'Start Session',
				value: 'start',
				action: 'Start browser session',
				description: 'Open a browser session to drive with code; its ID is in the output (costs credits until it is stopped)',
			},
			{
				name: 'Stop Session',
				value: 'stop',
				action: 'Stop browser session',
				description: 'End a browser session (or the browser of a scraped page) and get what it cost',
			},
		],
	},
	defaultOperationSince: { version: 2, operation: 'start' },
	operations: { execute, getMany, start, stop },
};
